// Which filesystem provider this bridge runs on: WSCONF_BRIDGE_FILESYSTEM names providers/<name>.mjs
// (unset or empty: local). Adding a provider is adding one file there (README.md, "Adding a provider").

import { existsSync } from 'node:fs';
import { Fault } from './wire.mjs';

const name = process.env.WSCONF_BRIDGE_FILESYSTEM || 'local';
// A plain name only, so the variable cannot point at some other module. An unknown name stops the
// bridge at start-up rather than quietly running on LocalFilesystem.
const file = /^[a-z0-9][a-z0-9-]*$/.test(name) ? new URL(`../providers/${name}.mjs`, import.meta.url) : null;
if (!file || !existsSync(file)) {
  throw new Error(`WSCONF_BRIDGE_FILESYSTEM=${name}: there is no providers/${name}.mjs`);
}

/**
 * The provider module: implementation, version, capabilities, filesystem(), and optionally
 * filesystemOptions (the LocalFilesystem options it honours) and store (object stores).
 */
export const provider = await import(file);

/**
 * A `workspace.filesystem` option the provider declares no equivalent of is refused, never
 * dropped: the harness reports such a case unsupported before it opens (hello's
 * `filesystemOptions`), and a client that did not check still gets a fault naming the option.
 */
export function refuseUnhonoured(options) {
  const honoured = provider.filesystemOptions;
  if (!honoured) return;  // every LocalFilesystem option (the local provider)
  for (const [key, value] of Object.entries(options)) {
    const accepted = honoured[key];
    if (accepted === true) continue;
    if (Array.isArray(accepted) && accepted.some(v => v === value)) continue;
    throw new Fault(`${provider.implementation} cannot honour the filesystem option ${key}: ${JSON.stringify(value)}`);
  }
}
