// Files of an npm package the bridge takes without its dependency tree (vendor.json): extracted by
// the harness (conformance/wsconf/adapters/vendored.py, `make setup`) into vendor/<folder>/.

import { existsSync, readFileSync } from 'node:fs';

const MANIFEST = JSON.parse(readFileSync(new URL('../vendor.json', import.meta.url), 'utf8')).packages;

/** {version, url(file)} of a vendored package; a missing extraction stops the provider loading. */
export function vendored(name) {
  const pin = MANIFEST[name];
  if (!pin) throw new Error(`vendor.json names no ${name}`);
  const folder = new URL(`../vendor/${pin.folder}/`, import.meta.url);
  const stamp = new URL('.wsconf-integrity', folder);
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== pin.integrity) {
    throw new Error(`${name} ${pin.version} is not extracted into ${folder.pathname} (make setup, or `
      + 'python -m wsconf.adapters.vendored <bridge folder>)');
  }
  return { version: pin.version, url: file => new URL(file, folder) };
}
