#!/usr/bin/env node
// A small port of two Mastra workspace tools (read_file, write_file) in plain JavaScript, with no
// @mastra/core: what a first port looks like when it joins wsconf over spec/protocol.md.
// One JSON request per stdin line, one JSON response per stdout line; logs go to stderr.

import { createInterface } from 'node:readline';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, extname, isAbsolute, relative, resolve } from 'node:path';

const READ = 'mastra_workspace_read_file';
const WRITE = 'mastra_workspace_write_file';
const TEXT_EXTENSIONS = new Set(['.txt', '.md', '.json', '.js', '.mjs', '.ts', '.tsx', '.py', '.yaml', '.yml',
  '.toml', '.css', '.html', '.csv', '.sh', '.xml', '.ini', '.cfg', '.log', '']);

const TOOLS = [
  {
    name: READ,
    description: 'Read a file from the workspace filesystem. Text files come back as text — use offset/limit to read a line range from large files. Supported media files come back as a native file part you can view directly. Other binary files return only their metadata (path, size, mime type) since their raw contents are not useful to read.',
    inputSchema: { type: 'object', properties: { path: { type: 'string' }, offset: { type: 'integer' }, limit: { type: 'integer' } }, required: ['path'] },
    requireApproval: false,
  },
  {
    name: WRITE,
    description: 'Write content to a file in the workspace filesystem. Creates parent directories if needed.',
    inputSchema: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' }, overwrite: { type: 'boolean' } }, required: ['path', 'content'] },
    requireApproval: false,
  },
];

const sessions = new Map();
let nextSession = 0;

class ToolError extends Error {
  constructor(name, message, code) { super(message); this.name = name; this.code = code; }
}

function inside(root, path) {
  const full = resolve(root, path);
  const rel = relative(root, full);
  if (rel.startsWith('..') || isAbsolute(rel)) {
    throw new ToolError('PermissionError', `Permission denied: access (path is outside the workspace; use a path relative to the workspace root, without a leading "/") ${path}`, 'EACCES');
  }
  return full;
}

function readTool(root, { path, offset, limit }) {
  const full = inside(root, path);
  let data;
  try {
    data = readFileSync(full);
  } catch (err) {
    if (err.code === 'ENOENT') throw new ToolError('FileNotFoundError', `File not found: ${path}`, 'ENOENT');
    throw err;
  }
  const header = `${path} (${data.length} bytes)`;
  if (!TEXT_EXTENSIONS.has(extname(path).toLowerCase())) return `${header} — binary file not readable as text.`;
  const lines = data.toString('utf8').split('\n');
  const start = Math.max(1, offset ?? 1);
  const end = Math.min(lines.length, limit ? start + limit - 1 : lines.length);
  const rows = [];
  for (let n = start; n <= end; n++) rows.push(`${String(n).padStart(6)}→${lines[n - 1]}`);
  return `${header}\n${rows.join('\n')}`;
}

function writeTool(root, { path, content, overwrite = true }) {
  const full = inside(root, path);
  let exists = true;
  try { statSync(full); } catch { exists = false; }
  if (exists && !overwrite) throw new ToolError('FileExistsError', `File already exists: ${path}`, 'EEXIST');
  mkdirSync(dirname(full), { recursive: true });
  writeFileSync(full, content, 'utf8');
  return `Wrote ${Buffer.byteLength(content, 'utf8')} bytes to ${path}`;
}

function call(session, tool, args) {
  try {
    const value = tool === READ ? readTool(session.root, args) : tool === WRITE ? writeTool(session.root, args) : null;
    if (value === null) return { kind: 'error', message: `Tool ${tool} not found`, code: null, name: null };
    return { kind: 'text', value, model: null };
  } catch (err) {
    return { kind: 'error', message: err.message, code: err.code ?? null, name: err.name === 'Error' ? null : err.name };
  }
}

const OPS = {
  hello: () => ({ protocol: 1, implementation: 'example-node-port', version: '0.1.0',
    capabilities: ['filesystem'], tools: ['read_file', 'write_file'], dependencies: { node: process.versions.node } }),
  open: ({ root, workspace }) => {
    const id = `s${++nextSession}`;
    sessions.set(id, { root, hasFilesystem: workspace?.filesystem !== null });
    return { session: id };
  },
  tools: ({ session }) => (sessions.get(session).hasFilesystem ? TOOLS : []),
  call: ({ session, tool, args }) => call(sessions.get(session), tool, args ?? {}),
  close: ({ session }) => { sessions.delete(session); return null; },
  shutdown: () => null,
};

const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on('line', line => {
  let request;
  try { request = JSON.parse(line); } catch { return reply({ id: null, ok: false, fault: 'request is not JSON' }); }
  const op = OPS[request.op];
  if (!op) return reply({ id: request.id, ok: false, fault: `unknown op ${request.op}` });
  if (request.params?.session !== undefined && !sessions.has(request.params.session) && request.op !== 'open') {
    return reply({ id: request.id, ok: false, fault: `no session ${request.params.session}` });
  }
  try {
    reply({ id: request.id, ok: true, result: op(request.params ?? {}) });
  } catch (err) {
    reply({ id: request.id, ok: false, fault: String(err?.stack ?? err) });
  }
  if (request.op === 'shutdown') process.exit(0);
});

function reply(message) {
  process.stdout.write(JSON.stringify(message) + '\n');
}
