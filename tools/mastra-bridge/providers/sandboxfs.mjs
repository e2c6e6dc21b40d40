// Mastra Code's SandboxFilesystem (@mastra/code-sdk, dist/agents/sandbox-filesystem.js), a provider
// over a sandbox rather than a store: every operation is a shell command (sh -c, readlink -f,
// stat -c, ls, rm, base64) run through a WorkspaceSandbox, here @mastra/core's own LocalSandbox.
//
// Selected by WSCONF_BRIDGE_FILESYSTEM=sandboxfs. Built as Mastra Code builds its sandbox
// workspaces (dist/agents/workspace.js: `new SandboxFilesystem({ sandbox, workdir })`, then
// `new Workspace({ filesystem, sandbox, ... })`): workdir is the case's root, so the files are the
// root's own and need no mirror. With a `sandbox` in the case's workspace block the filesystem runs
// on that very sandbox (shared with the workspace); without one, on a private LocalSandbox that
// the workspace is not given (its tool inventory stays the case's) and that close destroys.

import { LocalSandbox } from '@mastra/core/workspace';
import { bwrapInstalled } from './local.mjs';
import { vendored } from '../lib/vendor.mjs';

const sdk = vendored('@mastra/code-sdk');
const { SandboxFilesystem } = await import(sdk.url('dist/agents/sandbox-filesystem.js'));

export const implementation = '@mastra/code-sdk';
export const version = sdk.version;

/**
 * What this provider can represent (spec/capabilities.yaml). Left out, and why:
 * absolute_paths (resolve() strips a leading `/`, so an absolute path is workdir-relative; no
 * contained: false), host_paths (its errors name the path as typed, never the folder's own path),
 * local_identity (it is not LocalFilesystem: its own id, provider "sandbox", instructions), tilde_home (`~` is a plain name), allowed_paths and read_only
 * (LocalFilesystem options it has no equivalent of: see filesystemOptions), file_modes (stat() gives
 * no mode), posix_errors (every error is a plain Error naming the path or the shell command's exit,
 * no ENOENT/EISDIR code), media (stat() gives no mimeType, so read_file never returns media),
 * native_fs (a test provider over LocalFilesystem), sandbox_mounts and coding_agent (their cases
 * build LocalFilesystems of their own, so the provider would not be what runs), nonroot.
 * Kept: containment (resolve() refuses a path whose `..` leaves the workdir, and readlink -f
 * refuses one whose link leads out of it), symlinks (real links in a real folder, checked with readlink -f), empty_dirs (mkdir makes a
 * real folder), sandbox, processes, host_processes, foreground_sandbox and isolation_bwrap (the
 * case's LocalSandbox is the workspace's, as in Mastra Code), the workspace features that run on
 * any filesystem's readFile/readdir (bm25, vector, skills, published_skills, lsp), and the bridge's
 * extensions that work on any provider (the agent loop and its threads and signals, the Mastra
 * registry, process cwd and PATH, instance identity, request contexts, tracing, error details).
 */
export const capabilities = [
  'filesystem',
  'containment',
  'symlinks',
  'empty_dirs',
  'fs_interface',
  'sandbox',
  'processes',
  'host_processes',
  'foreground_sandbox',
  'bm25',
  'vector',
  'skills',
  'lsp',
  'agent_loop',
  'agent_threads',
  'task_signals',
  'mastra_registry',
  'process_cwd',
  'process_path',
  'published_skills',
  'instance_identity',
  'shared_request_context',
  'tool_tracing',
  'error_details',
  // the case's LocalSandbox: bwrap isolation where bwrap is installed, its refusal where not
  ...(bwrapInstalled() ? ['isolation_bwrap'] : ['bwrap_absent']),
];

/**
 * The LocalFilesystem options a case may pass in `workspace.filesystem`, and how each maps here
 * (hello's `filesystemOptions`, spec/protocol.md): `true` for any value, a list for the values that
 * mean something here. Every other option (readOnly, allowedPaths, instructions, contained: false,
 * ...) has no equivalent, so a case using it is unsupported, naming the option.
 */
export const filesystemOptions = {
  basePath: true,     // the workdir
  id: true,           // SandboxFilesystem's own `id` option
  contained: [true],  // always contained: a lexical check, then readlink -f of the path and its parent
};

/** The session's filesystem: workdir on the case's sandbox, or on a private one closed with it. */
export function filesystem({ root, options, sandbox }) {
  const own = sandbox ? undefined : new LocalSandbox({ workingDirectory: root });
  const fs = new SandboxFilesystem({ sandbox: sandbox ?? own, workdir: options.basePath ?? root, id: options.id });
  return { filesystem: fs, close: own ? () => own.destroy() : undefined };
}
