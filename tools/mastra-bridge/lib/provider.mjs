// Which filesystem provider this bridge runs on: WSCONF_BRIDGE_FILESYSTEM names providers/<name>.mjs
// (unset or empty: local). Adding a provider is adding one file there (README.md, "Adding a provider").

import { existsSync } from 'node:fs';

const name = process.env.WSCONF_BRIDGE_FILESYSTEM || 'local';
// A plain name only, so the variable cannot point at some other module. An unknown name stops the
// bridge at start-up rather than quietly running on LocalFilesystem.
const file = /^[a-z0-9][a-z0-9-]*$/.test(name) ? new URL(`../providers/${name}.mjs`, import.meta.url) : null;
if (!file || !existsSync(file)) {
  throw new Error(`WSCONF_BRIDGE_FILESYSTEM=${name}: there is no providers/${name}.mjs`);
}

/** The provider module: implementation, version, capabilities, filesystem(), and store (object stores). */
export const provider = await import(file);
