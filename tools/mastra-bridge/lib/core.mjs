// The installed @mastra/core: its version, and whether its ast_edit tool can load. Every
// provider runs on it, so each reports ast_edit from here.

import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';

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
