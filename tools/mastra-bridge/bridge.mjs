#!/usr/bin/env node
// wsconf adapter bridge for the real @mastra/core workspace tools.
//
// Speaks spec/protocol.md: one JSON request per stdin line, one JSON response per stdout line.
// stdout carries protocol lines only; everything else (ours and Mastra's) goes to stderr.

// --- keep stdout for the protocol ------------------------------------------------------------
// Grab the real writer first, then send every other stdout write (console.log, a logger, a
// stray process.stdout.write in a dependency) to stderr.
const protocolWrite = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, encoding, cb) => process.stderr.write(chunk, encoding, cb);
// console.error already targets stderr; the rest are routed there explicitly.
for (const level of ['log', 'info', 'debug', 'warn', 'trace', 'dir', 'table']) {
  console[level] = (...args) => console.error(...args);
}

function log(...args) {
  console.error('[mastra-bridge]', ...args);
}

process.on('uncaughtException', err => {
  log('uncaught exception (ignored):', err?.stack ?? err);
});
process.on('unhandledRejection', err => {
  log('unhandled rejection (ignored):', err?.stack ?? err);
});

import { createRequire } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const PROTOCOL = 1;

const { Workspace, LocalFilesystem, LocalSandbox, LocalSkillSource, createWorkspaceTools, createSkillTools } = await import('@mastra/core/workspace');
const { standardSchemaToJSONSchema, isStandardSchemaWithJSON, toStandardSchema } = await import('@mastra/core/schema');
const { RequestContext } = await import('@mastra/core/request-context');
const { makeCoreTool } = await import('@mastra/core/utils');
const HostSearch = await import('./host-search.mjs');
const HostProviders = await import('./host-providers.mjs');

const require = createRequire(import.meta.url);
const CORE_VERSION = JSON.parse(readFileSync(require.resolve('@mastra/core/package.json'), 'utf8')).version;

// Extension: WSCONF_BRIDGE_FILESYSTEM=s3 runs on @mastra/s3's S3Filesystem instead (s3.mjs, and
// spec/protocol.md "Runs on another filesystem provider"); unset, nothing below changes.
const S3 = process.env.WSCONF_BRIDGE_FILESYSTEM === 's3' ? await import('./s3.mjs') : null;

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

function bwrapInstalled() {
  const dirs = (process.env.PATH ?? '').split(':').filter(Boolean);
  return process.platform === 'linux' && dirs.some(dir => existsSync(`${dir}/bwrap`));
}

const CAPABILITIES = [
  'filesystem',
  'local_paths',
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
  'tool_config',
  'tool_hooks',
  'lifecycle',
  'fs_interface',
  'posix_errors',
  'bm25',
  'vector',
  'skills',
  ...(astGrepAvailable() ? ['ast_edit'] : []),
  // bwrap isolation can only be checked where bwrap is installed; where it is not, the refusal can.
  ...(bwrapInstalled() ? ['isolation_bwrap'] : ['bwrap_absent']),
];

// --- faults ------------------------------------------------------------------------------------

class Fault extends Error {}

function isPlainObject(v) {
  return v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype;
}

function needString(params, key) {
  const v = params[key];
  if (typeof v !== 'string' || v === '') throw new Fault(`params.${key} must be a non-empty string`);
  return v;
}

// --- value conversion --------------------------------------------------------------------------

/** JS value -> JSON value: Buffers as {$bytes}, Dates as {$date}, undefined as null. */
function toWire(value, seen = new WeakSet()) {
  if (value === undefined || value === null) return null;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : String(value);
    case 'bigint':
      return value.toString();
    case 'function':
    case 'symbol':
      return null;
  }
  if (Buffer.isBuffer(value)) return { $bytes: value.toString('base64') };
  if (value instanceof Uint8Array) return { $bytes: Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64') };
  if (value instanceof ArrayBuffer) return { $bytes: Buffer.from(value).toString('base64') };
  if (value instanceof Date) return { $date: Number.isNaN(value.getTime()) ? null : value.toISOString() };
  if (seen.has(value)) return '[Circular]';
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map(v => toWire(v, seen));
    if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [String(k), toWire(v, seen)]));
    if (value instanceof Set) return [...value].map(v => toWire(v, seen));
    if (value instanceof Error) return { name: value.name, message: value.message, code: value.code ?? null };
    if (typeof value.toJSON === 'function') return toWire(value.toJSON(), seen);
    const out = {};
    for (const [k, v] of Object.entries(value)) {
      // Like JSON.stringify: an undefined (or function) property is left out of an object.
      if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
      out[k] = toWire(v, seen);
    }
    return out;
  } finally {
    seen.delete(value);
  }
}

/** JSON value -> JS value: {$bytes} becomes a Buffer, {$date} a Date (for fs arguments). */
function fromWire(value) {
  if (Array.isArray(value)) return value.map(fromWire);
  if (isPlainObject(value)) {
    const keys = Object.keys(value);
    if (keys.length === 1 && keys[0] === '$bytes' && typeof value.$bytes === 'string') return Buffer.from(value.$bytes, 'base64');
    if (keys.length === 1 && keys[0] === '$date' && typeof value.$date === 'string') return new Date(value.$date);
    return Object.fromEntries(keys.map(k => [k, fromWire(value[k])]));
  }
  return value;
}

function errorResult(err) {
  if (err instanceof Error || (err !== null && typeof err === 'object')) {
    const code = err.code;
    let name = typeof err.name === 'string' && err.name ? err.name : null;
    if (!name || name === 'Error') {
      const ctor = err.constructor?.name;
      if (ctor && ctor !== 'Object') name = ctor;
    }
    return {
      kind: 'error',
      message: typeof err.message === 'string' ? err.message : String(err),
      code: code === undefined || code === null ? null : typeof code === 'string' ? code : String(code),
      name: name ?? null,
    };
  }
  return { kind: 'error', message: String(err), code: null, name: null };
}

function isMedia(v) {
  return v !== null && typeof v === 'object' && v.__workspaceMedia === true;
}

async function valueResult(output, tool) {
  let model = null;
  if (tool && typeof tool.toModelOutput === 'function') {
    try {
      const m = await tool.toModelOutput(output);
      model = m === undefined ? null : toWire(m);
    } catch (err) {
      log('toModelOutput threw:', err?.stack ?? err);
      model = { type: 'bridge-error', value: `toModelOutput threw: ${err?.message ?? err}` };
    }
  }
  if (typeof output === 'string') return { kind: 'text', value: output, model };
  if (isMedia(output)) {
    const { __workspaceMedia, ...rest } = output;
    return {
      kind: 'media',
      value: { text: toWire(rest.text), mediaType: toWire(rest.mediaType), data: toWire(rest.data) },
      model,
    };
  }
  return { kind: 'value', value: toWire(output), model };
}

// --- sessions ----------------------------------------------------------------------------------

const sessions = new Map();
let nextSession = 1;
let nextCall = 1;

function setHome(session) {
  if (session.home) process.env.HOME = session.home;
}

function getSession(params) {
  const id = needString(params, 'session');
  const session = sessions.get(id);
  if (!session) throw new Fault(`no such session: ${id}`);
  return session;
}

// --- host functions --------------------------------------------------------------------------
// JSON cannot carry functions, so the tools config names them from a closed vocabulary
// (spec/protocol.md, "Host functions"): hooks that record or skip, and predicates on the request
// context or the call's arguments. They are turned into real functions here.

function hostFunction(spec, session, where) {
  const kind = spec.$hook ?? spec.$fn;
  if (spec.$hook !== undefined) {
    if (kind === 'record') {
      return ctx => {
        const entry = { hook: where, toolName: ctx.toolName, workspaceToolName: ctx.workspaceToolName, input: ctx.input };
        if (where === 'afterToolCall') {
          entry.output = ctx.output === undefined ? null : ctx.output;
          entry.error = ctx.error ? String(ctx.error.message ?? ctx.error) : null;
        }
        session.hookLog.push(entry);
        return undefined;
      };
    }
    if (kind === 'skip') {
      return ctx => {
        session.hookLog.push({ hook: where, toolName: ctx.toolName, workspaceToolName: ctx.workspaceToolName, input: ctx.input });
        return { proceed: false, output: spec.output };
      };
    }
    if (kind === 'throw') {
      return () => {
        throw new Error(spec.message ?? 'hook failed');
      };
    }
  } else {
    if (kind === 'const') return () => spec.value;
    if (kind === 'contextEquals') return ({ requestContext }) => contextGet(requestContext, spec.key) === spec.value;
    if (kind === 'argStartsWith') return ({ args }) => typeof args?.[spec.arg] === 'string' && args[spec.arg].startsWith(spec.prefix);
    if (kind === 'mergeEnv') return env => ({ ...env, ...spec.env });
    if (kind === 'startsWith') return value => typeof value === 'string' && value.startsWith(spec.prefix);
    if (kind === 'contextValue') return HostProviders.contextValueFn(spec);
    if (kind === 'recordCall') {
      return (...args) => {
        session.hookLog.push({ hook: where, args: toWire(args) });
        return undefined;
      };
    }
    if (kind === 'filesystemResolver') return HostProviders.filesystemResolver(spec, session, LocalFilesystem);
    if (kind === 'sandboxResolver') return HostProviders.sandboxResolver(spec, session, LocalSandbox);
    if (kind === 'throw') {
      return () => {
        throw new Error(spec.message ?? 'config function failed');
      };
    }
  }
  throw new Fault(`unknown host function ${JSON.stringify(spec)} at ${where}`);
}

function contextGet(requestContext, key) {
  if (!requestContext) return undefined;
  if (typeof requestContext.get === 'function') return requestContext.get(key);
  return requestContext[key];
}

function isHostFunction(v) {
  return isPlainObject(v) && (v.$hook !== undefined || v.$fn !== undefined);
}

function withHostFunctions(value, session, where = 'tools') {
  if (isHostFunction(value)) return hostFunction(value, session, where);
  if (Array.isArray(value)) return value.map(v => withHostFunctions(v, session, where));
  if (isPlainObject(value)) {
    const out = {};
    for (const [k, v] of Object.entries(value)) out[k] = withHostFunctions(v, session, k);
    return out;
  }
  return value;
}

async function buildTools(session) {
  const requestContext = new RequestContext(Object.entries(session.requestContext ?? {}));
  const tools = await createWorkspaceTools(session.workspace, { requestContext, workspace: session.workspace },
    session.toolOptions);
  // With skills configured, the agent adds the skill tools (skill, skill_search, skill_read) next to them.
  const skills = session.workspace.skills;
  return skills ? { ...tools, ...createSkillTools(skills) } : tools;
}

async function opOpen(params) {
  const root = needString(params, 'root');
  const ws = params.workspace ?? {};
  if (!isPlainObject(ws)) throw new Fault('params.workspace must be an object');
  const home = typeof params.home === 'string' ? params.home : typeof ws.home === 'string' ? ws.home : null;
  if (home) process.env.HOME = home;

  // Building the workspace can throw (a bad option, two tools with one name, a missing isolation
  // backend): that is the implementation's answer, returned as a result, not a protocol fault.
  let workspace;
  let tools;
  const pending = {
    hookLog: [],
    root,
    resolvedSandboxes: [], // from a sandbox resolver: not the workspace's, destroyed on close
    requestContext: isPlainObject(ws.requestContext) ? ws.requestContext : {},
    toolOptions: isPlainObject(ws.toolOptions) ? ws.toolOptions : undefined,
  };
  try {
    let filesystem;
    if (ws.filesystem === null) {
      filesystem = undefined;
    } else if (isHostFunction(ws.filesystem)) {
      filesystem = hostFunction(ws.filesystem, pending, 'filesystem'); // a resolver
    } else {
      const fsOpts = ws.filesystem ?? {};
      if (!isPlainObject(fsOpts)) throw new Fault('workspace.filesystem must be an object or null');
      if (S3) ({ fs: filesystem, mirror: pending.s3mirror } = S3.filesystem(root, fsOpts));
      else filesystem = new LocalFilesystem({ basePath: root, ...withHostFunctions(fsOpts, pending, 'filesystem') });
    }

    let sandbox;
    if (isHostFunction(ws.sandbox)) {
      sandbox = hostFunction(ws.sandbox, pending, 'sandbox'); // a resolver
    } else if (ws.sandbox !== undefined && ws.sandbox !== null) {
      if (!isPlainObject(ws.sandbox)) throw new Fault('workspace.sandbox must be an object or null');
      sandbox = new LocalSandbox({ workingDirectory: root, ...withHostFunctions(ws.sandbox, pending, 'sandbox') });
    }

    if (ws.tools !== undefined && ws.tools !== null && !isPlainObject(ws.tools)) {
      throw new Fault('workspace.tools must be an object');
    }

    const config = {};
    if (filesystem) config.filesystem = filesystem;
    if (sandbox) config.sandbox = sandbox;
    if (ws.tools) config.tools = withHostFunctions(ws.tools, pending);
    if (typeof ws.id === 'string') config.id = ws.id;
    if (typeof ws.name === 'string') config.name = ws.name;
    // Search, skills and timeout options (spec/protocol.md `open`), as given; stopwords as a Set.
    for (const key of ['bm25', 'autoIndexPaths', 'skills', 'searchIndexName', 'operationTimeout']) {
      if (ws[key] !== undefined) config[key] = ws[key];
    }
    if (isHostFunction(ws.skills)) config.skills = hostFunction(ws.skills, pending, 'skills');
    if (isPlainObject(ws.skillSource)) config.skillSource = new LocalSkillSource(ws.skillSource);
    if (ws.sandboxCacheKey !== undefined) config.sandboxCacheKey = withHostFunctions(ws.sandboxCacheKey, pending, 'sandboxCacheKey');
    if (isPlainObject(ws.instructions)) config.instructions = withHostFunctions(ws.instructions, pending, 'instructions');
    // Host search objects (spec/protocol.md): an in-memory vector store and a letter-count embedder.
    if (ws.vectorStore !== undefined) {
      if (ws.vectorStore?.$store !== 'memory') throw new Fault('workspace.vectorStore must be {"$store": "memory"}');
      config.vectorStore = HostSearch.memoryVectorStore(pending.hookLog);
    }
    if (ws.embedder !== undefined) {
      if (ws.embedder?.$embedder !== 'letters') throw new Fault('workspace.embedder must be {"$embedder": "letters", ...}');
      config.embedder = HostSearch.letterEmbedder(ws.embedder, pending.hookLog);
    }
    if (Array.isArray(ws.bm25?.tokenize?.stopwords)) {
      config.bm25 = { ...ws.bm25, tokenize: { ...ws.bm25.tokenize, stopwords: new Set(ws.bm25.tokenize.stopwords) } };
    }
    workspace = new Workspace(config);
    pending.workspace = workspace;
    // One tool set per session: like one agent run, the read tracker and write lock are shared by
    // every call of the session (until a `retool`).
    tools = await buildTools(pending);
  } catch (err) {
    if (err instanceof Fault) throw err;
    return { error: errorResult(err) };
  }

  if (pending.s3mirror) await S3.upload(pending.s3mirror);  // a failure here is a fault
  const id = `s${nextSession++}`;
  sessions.set(id, Object.assign(pending, { id, root, home, workspace, tools }));
  return { session: id };
}

function inputJsonSchema(schema) {
  if (!schema) return null;
  const std = isStandardSchemaWithJSON(schema) ? schema : toStandardSchema(schema);
  return standardSchemaToJSONSchema(std, { io: 'input' });
}

async function opTools(params) {
  const session = getSession(params);
  return Object.entries(session.tools).map(([name, tool]) => ({
    name,
    description: tool.description ?? '',
    inputSchema: inputJsonSchema(tool.inputSchema),
    requireApproval: tool.requireApproval === true,
  }));
}

async function opCall(params) {
  const session = getSession(params);
  const toolName = needString(params, 'tool');
  const tool = session.tools[toolName];
  if (!tool) throw new Fault(`no tool ${toolName} in session ${session.id} (has: ${Object.keys(session.tools).join(', ')})`);
  if (typeof tool.execute !== 'function') throw new Fault(`tool ${toolName} has no execute`);
  const args = params.args === undefined ? {} : params.args;
  const via = params.via ?? 'execute';
  if (via !== 'execute' && via !== 'agent') throw new Fault(`params.via must be "execute" or "agent", not ${JSON.stringify(via)}`);
  setHome(session);
  const toolCallId = `wsconf-call-${nextCall++}`;
  let output;
  try {
    if (via === 'agent') {
      // Extension: through the agent loop's tool builder (makeCoreTool), which validates the input
      // itself before any workspace wrapper runs and wraps a thrown error in a MastraError.
      const core = makeCoreTool(tool, {
        name: toolName,
        description: tool.description,
        requestContext: new RequestContext(Object.entries(session.requestContext)),
        workspace: session.workspace,
        agentName: 'wsconf',
        runId: 'wsconf',
      });
      output = await core.execute(args, { toolCallId, messages: [] });
    } else {
      // The tool's own execute: the workspace wrappers, then createTool's input validation.
      // The context is what the agent loop's builder hands a tool (agent branch), minus the
      // model/stream parts (no writer, so no workspace-metadata chunks are emitted).
      const context = {
        requestContext: new RequestContext(Object.entries(session.requestContext)),
        workspace: session.workspace,
        agent: { agentId: 'wsconf', toolCallId, messages: [] },
      };
      output = await tool.execute(args, context);
    }
  } catch (err) {
    return errorResult(err);
  }
  return valueResult(output, tool);
}

async function opFs(params) {
  const session = getSession(params);
  const method = needString(params, 'method');
  const fs = session.workspace.filesystem;
  if (!fs) throw new Fault(`session ${session.id} has no filesystem`);
  const fn = fs[method];
  if (typeof fn !== 'function') throw new Fault(`the filesystem has no method ${method}`);
  const args = params.args === undefined ? [] : params.args;
  if (!Array.isArray(args)) throw new Fault('params.args must be a list');
  setHome(session);
  let output;
  try {
    output = await fn.apply(fs, fromWire(args));
  } catch (err) {
    return errorResult(err);
  }
  return valueResult(output, null);
}

// Extension (not in protocol.md v1): the Workspace itself, for the lifecycle capability.
// params: {session, method: "init" | "stop" | "destroy" | "getInfo" | "status" | "sandbox.executeCommand" ..., args: [...]}
// `method` is a dotted path from the Workspace; a function is called (with its owner as this),
// anything else is returned as a value.
async function opWorkspace(params) {
  const session = getSession(params);
  const path = needString(params, 'method').split('.');
  const args = params.args === undefined ? [] : params.args;
  if (!Array.isArray(args)) throw new Fault('params.args must be a list');
  setHome(session);
  let owner = null;
  let target = session.workspace;
  for (const part of path) {
    if (target === null || target === undefined) throw new Fault(`workspace has no ${path.join('.')}`);
    owner = target;
    target = target[part];
  }
  let output;
  try {
    const callArgs = withHostFunctions(fromWire(args), session);
    output = typeof target === 'function' ? await target.apply(owner, callArgs) : target;
  } catch (err) {
    return errorResult(err);
  }
  return valueResult(output, null);
}

// A new agent interaction: the tool set is built again from the workspace's current tools
// config (after setToolsConfig), with a fresh read tracker and write lock.
async function opRetool(params) {
  const session = getSession(params);
  setHome(session);
  try {
    session.tools = await buildTools(session);
  } catch (err) {
    return errorResult(err);
  }
  return { kind: 'value', value: Object.keys(session.tools), model: null };
}

async function opHookLog(params) {
  const session = getSession(params);
  return toWire(session.hookLog);
}

async function destroySession(session) {
  sessions.delete(session.id);
  await session.workspace.destroy();
  for (const sandbox of session.resolvedSandboxes ?? []) await sandbox.destroy().catch(() => {});
  if (session.s3mirror) await S3.clear(session.s3mirror);
}

async function opClose(params) {
  const session = getSession(params);
  try {
    await destroySession(session);
  } catch (err) {
    throw new Fault(`workspace.destroy() threw: ${err?.message ?? err}`);
  }
  return null;
}

async function destroyAll() {
  for (const session of [...sessions.values()]) {
    try {
      await destroySession(session);
    } catch (err) {
      log(`destroying session ${session.id} failed:`, err?.stack ?? err);
    }
  }
}

let shuttingDown = false;

async function opShutdown() {
  shuttingDown = true;
  await destroyAll();
  return null;
}

async function opHello(params) {
  if (params.protocol !== undefined && params.protocol !== PROTOCOL) {
    throw new Fault(`protocol ${params.protocol} is not spoken here (only ${PROTOCOL})`);
  }
  if (S3) return { protocol: PROTOCOL, implementation: '@mastra/s3', version: S3.VERSION, capabilities: S3.capabilities(CAPABILITIES.includes('ast_edit')) };
  return { protocol: PROTOCOL, implementation: '@mastra/core', version: CORE_VERSION, capabilities: CAPABILITIES };
}

const OPS = {
  hello: opHello,
  open: opOpen,
  tools: opTools,
  // With S3, the session's root folder is synced with its prefix around these (s3.mjs).
  call: S3 ? S3.mirrored(opCall, getSession) : opCall,
  fs: S3 ? S3.mirrored(opFs, getSession) : opFs,
  workspace: S3 ? S3.mirrored(opWorkspace, getSession) : opWorkspace,
  retool: opRetool,
  hookLog: opHookLog,
  close: opClose,
  shutdown: opShutdown,
};

// --- framing -----------------------------------------------------------------------------------

function send(obj) {
  let line;
  try {
    line = JSON.stringify(obj);
  } catch (err) {
    line = JSON.stringify({ id: obj.id ?? null, ok: false, fault: `response not serialisable: ${err?.message ?? err}` });
  }
  return new Promise(resolve => protocolWrite(line + '\n', () => resolve()));
}

async function handleLine(line) {
  if (!line.trim()) return;
  let req;
  try {
    req = JSON.parse(line);
  } catch (err) {
    await send({ id: null, ok: false, fault: `request is not JSON: ${err.message}` });
    return;
  }
  const id = isPlainObject(req) && Number.isInteger(req.id) ? req.id : null;
  if (!isPlainObject(req) || typeof req.op !== 'string') {
    await send({ id, ok: false, fault: 'request must be an object with an integer id and a string op' });
    return;
  }
  const op = OPS[req.op];
  if (!op || !Object.hasOwn(OPS, req.op)) {
    await send({ id, ok: false, fault: `unknown op: ${req.op}` });
    return;
  }
  const params = req.params === undefined ? {} : req.params;
  if (!isPlainObject(params)) {
    await send({ id, ok: false, fault: 'params must be an object' });
    return;
  }
  try {
    const result = await op(params);
    await send({ id, ok: true, result: result === undefined ? null : result });
  } catch (err) {
    if (!(err instanceof Fault)) log(`op ${req.op} failed:`, err?.stack ?? err);
    const message = err instanceof Fault ? err.message : `${req.op} failed: ${err?.name ?? 'Error'}: ${err?.message ?? err}`;
    await send({ id, ok: false, fault: message });
  }
}

async function exit(code) {
  await destroyAll();
  process.exit(code);
}

// Strictly one request at a time, in order: lines are queued and handled by a single loop.
const queue = [];
let wake = null;
let inputEnded = false;

const rl = createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
rl.on('line', line => {
  queue.push(line);
  wake?.();
});
rl.on('close', () => {
  inputEnded = true;
  wake?.();
});

log(`ready: @mastra/core ${CORE_VERSION}, node ${process.version}, pid ${process.pid}`);

for (;;) {
  if (queue.length === 0) {
    if (inputEnded) break;
    await new Promise(resolve => (wake = resolve));
    wake = null;
    continue;
  }
  const line = queue.shift();
  try {
    await handleLine(line);
  } catch (err) {
    log('internal error:', err?.stack ?? err);
  }
  if (shuttingDown) break;
}

await exit(0);
