// The installed @mastra/core: its version, and whether its ast_edit tool can load. Every
// provider runs on it, so each reports ast_edit from here.

import { createRequire } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

export const CORE_VERSION = JSON.parse(readFileSync(require.resolve('@mastra/core/package.json'), 'utf8')).version;

/** Same check as Mastra's isAstGrepAvailable(): resolvable from @mastra/core's own location. */
function astGrepAvailable() {
  try {
    const coreRequire = createRequire(require.resolve('@mastra/core/package.json'));
    coreRequire.resolve('@ast-grep/napi');
    return true;
  } catch {
    return false;
  }
}

export const AST_EDIT = astGrepAvailable();

// The libraries whose versions decide the tools' outputs, as @mastra/core resolves them: hello
// reports them so a run says what it judged (a range like tokenx's ^1.3.0 resolves differently
// over time). A library bundled into @mastra/core's dist (tokenx in 1.71.0) is not resolvable.
const KEY_DEPENDENCIES = ['tokenx', 'picomatch', 'ignore', 'execa', 'zod', '@ast-grep/napi'];

function installedVersion(name) {
  // package.json is not always exported, so look for it the way Node's resolution walks folders.
  let dir = dirname(require.resolve('@mastra/core/package.json'));
  for (;;) {
    const candidate = join(dir, 'node_modules', name, 'package.json');
    if (existsSync(candidate)) return JSON.parse(readFileSync(candidate, 'utf8')).version;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

export function dependencyVersions() {
  const found = { '@mastra/core': CORE_VERSION };
  for (const name of KEY_DEPENDENCIES) {
    found[name] = installedVersion(name) ?? 'bundled in @mastra/core';
  }
  return found;
}
