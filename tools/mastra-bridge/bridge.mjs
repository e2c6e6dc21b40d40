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

const { log } = await import('./lib/log.mjs');

process.on('uncaughtException', err => {
  log('uncaught exception (ignored):', err?.stack ?? err);
});
process.on('unhandledRejection', err => {
  log('unhandled rejection (ignored):', err?.stack ?? err);
});

import { createInterface } from 'node:readline';

const PROTOCOL = 1;

const { Workspace, LocalSandbox, LocalSkillSource, createWorkspaceTools, createSkillTools } = await import('@mastra/core/workspace');
const { standardSchemaToJSONSchema, isStandardSchemaWithJSON, toStandardSchema } = await import('@mastra/core/schema');
const { RequestContext } = await import('@mastra/core/request-context');
const { makeCoreTool } = await import('@mastra/core/utils');
const HostSearch = await import('./lib/host-search.mjs');
const { hostFunction, isHostFunction, withHostFunctions } = await import('./lib/host-functions.mjs');
const { Fault, isPlainObject, needString, toWire, fromWire, errorResult, valueResult } = await import('./lib/wire.mjs');
const { CORE_VERSION } = await import('./lib/core.mjs');
const { provider } = await import('./lib/provider.mjs');
const Mirror = await import('./lib/mirror.mjs');

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
      ({ filesystem, mirror: pending.mirror } = provider.filesystem({ root, options: fsOpts, session: pending }));
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

  if (pending.mirror) await Mirror.upload(pending.mirror);  // a failure here is a fault
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
  if (session.mirror) await Mirror.clear(session.mirror);
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
  return { protocol: PROTOCOL, implementation: provider.implementation, version: provider.version, capabilities: provider.capabilities };
}

const OPS = {
  hello: opHello,
  open: opOpen,
  tools: opTools,
  // On an object store, the session's root folder is synced with its prefix around these (lib/mirror.mjs).
  call: provider.store ? Mirror.mirrored(opCall, getSession) : opCall,
  fs: provider.store ? Mirror.mirrored(opFs, getSession) : opFs,
  workspace: provider.store ? Mirror.mirrored(opWorkspace, getSession) : opWorkspace,
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
