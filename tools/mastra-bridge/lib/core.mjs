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

// What this release really exports, so a feature an older release did not have yet comes out as
// unsupported (a capability or a tool left out of hello), not as an adapter fault.
const WORKSPACE = await import('@mastra/core/workspace');
const has = name => WORKSPACE[name] !== undefined;
const SIGNALS = await import('@mastra/core/signals').catch(() => ({}));
const MEMORY = await import('@mastra/core/memory').catch(() => ({}));
const toolNames = groups => groups.flatMap(group => Object.values(WORKSPACE.WORKSPACE_TOOLS?.[group] ?? {}));
const SKILL_TOOLS = ['skill', 'skill_search', 'skill_read'];

/** The tools this release can create; null when it has every tool the suite knows (1.71.0's set). */
export function releaseTools() {
  const names = [...toolNames(['FILESYSTEM', 'SANDBOX', 'SEARCH']), ...(has('createSkillTools') ? SKILL_TOOLS : [])];
  const known = ['read_file', 'write_file', 'edit_file', 'list_files', 'delete', 'file_stat', 'mkdir', 'grep',
    'ast_edit', 'execute_command', 'get_process_output', 'kill_process', 'search', 'index']
    .map(t => `mastra_workspace_${t}`).concat(SKILL_TOOLS);
  return known.every(t => names.includes(t)) ? null : names;
}

/** Capabilities whose machinery this release lacks (removed from a provider's list). */
export function missingCapabilities() {
  const missing = [];
  if (!has('createSkillTools') || !has('LocalSkillSource')) missing.push('skills');
  if (!has('searchTool') || !has('indexContentTool')) missing.push('bm25', 'vector');
  if (!toolNames(['FILESYSTEM']).includes('mastra_workspace_ast_edit')) missing.push('ast_edit');
  if (!has('detectIsolation')) missing.push('isolation_bwrap');
  if (!has('LocalSandbox')) missing.push('sandbox', 'processes');
  // The optional native walk()/grep() of a filesystem came with UnsupportedGrepPatternError (1.67.0).
  if (!has('UnsupportedGrepPatternError')) missing.push('native_fs');
  // The Workspace's LSP manager needs these two optional packages (upstream lsp/client.ts isLSPAvailable).
  if (!installedVersion('vscode-jsonrpc') || !installedVersion('vscode-languageserver-protocol')) missing.push('lsp');
  // Agent signals (@mastra/core/signals' TaskSignalProvider, with @mastra/core/memory's MockMemory).
  if (!SIGNALS.TaskSignalProvider || !MEMORY.MockMemory) missing.push('task_signals');
  return missing;
}

/**
 * What @mastra/core's tools and Workspace give over any filesystem provider (spec/capabilities.yaml):
 * the providers' modules name only what depends on the filesystem, and the bridge adds these.
 */
export const CORE_CAPABILITIES = [
  'tool_config',
  'tool_hooks',
  'console_warnings',
  'lifecycle',
  'tool_writer',
  'call_request_context',
  'concurrent_calls',
  'call_abort',
  'approval_fn',
  'clock_control',
  'process_handles',
  'runtime_dir',
  'context_probes',
  ...(AST_EDIT ? ['ast_edit'] : []),
];
