// Which names the workspace's tools get. Unset: the case's own `tools` block as given. With
// WSCONF_BRIDGE_TOOL_NAMES=mastra-code, Mastra Code's TOOL_NAME_OVERRIDES (@mastra/code-sdk's
// dist/tool-names.js: view, write_file, string_replace_lsp, find_files, search_content, ...) merged
// under the case's block, so a case that renames or configures a tool still wins; the cases' tool
// ids then reach the renamed tools through `exposedName`.

import { isPlainObject } from './wire.mjs';
import { vendored } from './vendor.mjs';

const variant = process.env.WSCONF_BRIDGE_TOOL_NAMES || '';
if (variant !== '' && variant !== 'mastra-code') {
  throw new Error(`WSCONF_BRIDGE_TOOL_NAMES=${variant}: only "mastra-code" is known`);
}

async function overrides() {
  if (variant !== 'mastra-code') return null;
  const sdk = vendored('@mastra/code-sdk');
  const { TOOL_NAME_OVERRIDES } = await import(sdk.url('dist/tool-names.js'));
  return { names: TOOL_NAME_OVERRIDES, version: sdk.version };
}

/** {names: {toolId: {name}}, version} when the Mastra Code names are in force, else null. */
export const toolNameOverrides = await overrides();

/** The tools config the workspace gets: the overrides under the case's own block (per tool too). */
export function withToolNames(tools) {
  if (!toolNameOverrides) return tools;
  const merged = { ...(tools ?? {}) };
  for (const [id, override] of Object.entries(toolNameOverrides.names)) {
    const own = merged[id];
    merged[id] = isPlainObject(own) ? { ...override, ...own } : own === undefined ? { ...override } : own;
  }
  return merged;
}

/** Tool id -> the name it is exposed under, from the tools config the tool set was built with. */
export function aliasesOf(config) {
  if (!toolNameOverrides) return {};
  return Object.fromEntries(Object.keys(toolNameOverrides.names)
    .map(id => [id, config?.[id]?.name])
    .filter(([, name]) => typeof name === 'string'));
}

/** The name a case's tool id reaches in this session (the id itself when it is exposed as such). */
export function exposedName(tools, aliases, toolName) {
  if (Object.hasOwn(tools, toolName)) return toolName;
  const renamed = aliases?.[toolName];
  return renamed !== undefined && Object.hasOwn(tools, renamed) ? renamed : toolName;
}
