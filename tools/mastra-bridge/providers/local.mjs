// The default provider: @mastra/core's LocalFilesystem on the case's root folder. The bridge
// selects a provider by WSCONF_BRIDGE_FILESYSTEM (unset: this one); see README.md for the
// interface every file in providers/ exports.

import { existsSync } from 'node:fs';
import { LocalFilesystem } from '@mastra/core/workspace';
import { CORE_VERSION } from '../lib/core.mjs';
import { withHostFunctions } from '../lib/host-functions.mjs';

export const implementation = '@mastra/core';
export const version = CORE_VERSION;

export function bwrapInstalled() {
  const dirs = (process.env.PATH ?? '').split(':').filter(Boolean);
  return process.platform === 'linux' && dirs.some(dir => existsSync(`${dir}/bwrap`));
}

/** Everything the suite can check (spec/capabilities.yaml): the files are real local files. */
export const capabilities = [
  'filesystem',
  'absolute_paths',
  'containment',
  'host_paths',
  'local_identity',
  'symlinks',
  'file_modes',
  'empty_dirs',
  'tilde_home',
  'media',
  'read_only',
  'allowed_paths',
  'sandbox',
  'processes',
  'host_processes', // LocalSandbox runs its processes here, as children of this bridge
  'fs_interface',
  'posix_errors',
  'bm25',
  'vector',
  'skills',
  'native_fs',
  'lsp', // the LSP manager spawns its servers through the LocalSandbox's process manager
  'agent_loop',
  'foreground_sandbox',
  'coding_agent',
  'mastra_registry',
  // The extensions whose cases build their providers from LocalFilesystem / LocalSandbox on the root.
  'instance_identity',
  'shared_request_context',
  'process_cwd',
  'process_path',
  'sandbox_mounts',
  'published_skills',
  'tool_tracing',
  'error_details',
  'agent_threads',
  'task_signals',
  // bwrap isolation can only be checked where bwrap is installed; where it is not, the refusal can.
  ...(bwrapInstalled() ? ['isolation_bwrap'] : ['bwrap_absent']),
];

/** The session's filesystem: `workspace.filesystem` options as given, host functions resolved. */
export function filesystem({ root, options, session }) {
  return { filesystem: new LocalFilesystem({ basePath: root, ...withHostFunctions(options, session, 'filesystem') }) };
}
