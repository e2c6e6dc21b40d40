// Which filesystem provider this bridge runs on: WSCONF_BRIDGE_FILESYSTEM names providers/<name>.mjs
// (unset or empty: local). Adding a provider is adding one file there (README.md, "Adding a provider").

import { existsSync } from 'node:fs';

const name = process.env.WSCONF_BRIDGE_FILESYSTEM || 'local';
const file = new URL(`../providers/${name}.mjs`, import.meta.url);
// A plain name only, so the variable cannot point at some other module.
if (!/^[a-z0-9][a-z0-9-]*$/.test(name) || !existsSync(file)) {
  throw new Error(`WSCONF_BRIDGE_FILESYSTEM=${name}: there is no providers/${name}.mjs`);
}

/** The provider module: implementation, version, capabilities, filesystem(), and for object stores store. */
export const provider = await import(file);
