#!/usr/bin/env node
// wsconf adapter bridge for the real @mastra/core workspace tools: the entry point.
//
// Speaks spec/protocol.md: one JSON request per stdin line, one JSON response per stdout line.
// stdout carries protocol lines only; everything else (ours and Mastra's) goes to stderr.
// This file guards stdout, reads requests and dispatches them; the ops live in lib/session.mjs,
// the filesystem providers in providers/ (README.md, "Layout").

// Static imports run before any code of this file, so only a Node builtin is imported statically.
import { createInterface } from 'node:readline';
import path from 'node:path';

// --- keep stdout for the protocol ------------------------------------------------------------
// Grab the real writer first, then send every other stdout write (console.log, a logger, a
// stray process.stdout.write in a dependency) to stderr.
const protocolWrite = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, encoding, cb) => process.stderr.write(chunk, encoding, cb);
// console.error already targets stderr; the rest are routed there explicitly.
for (const level of ['log', 'info', 'debug', 'warn', 'trace', 'dir', 'table']) {
  console[level] = (...args) => console.error(...args);
}

// Everything else is imported only now, after stdout is guarded: a module may log as it loads.
const { log } = await import('./lib/log.mjs');

process.on('uncaughtException', err => {
  log('uncaught exception (ignored):', err?.stack ?? err);
});
process.on('unhandledRejection', err => {
  log('unhandled rejection (ignored):', err?.stack ?? err);
});

const { Fault, isPlainObject } = await import('./lib/wire.mjs');
const { CORE_CAPABILITIES, CORE_VERSION, dependencyVersions, missingCapabilities, releaseTools } = await import('./lib/core.mjs');
const { provider } = await import('./lib/provider.mjs');
const { toolNameOverrides } = await import('./lib/tool-names.mjs');
const { mirrored } = await import('./lib/mirror.mjs');
const Session = await import('./lib/session.mjs');

const PROTOCOL = 1;

// --- ops ---------------------------------------------------------------------------------------

let shuttingDown = false;

async function opShutdown() {
  shuttingDown = true;
  await Session.destroyAll();
  return null;
}

async function opHello(params) {
  if (params.protocol !== undefined && params.protocol !== PROTOCOL) {
    throw new Fault(`protocol ${params.protocol} is not spoken here (only ${PROTOCOL})`);
  }
  const dependencies = { ...dependencyVersions(), node: process.version.replace(/^v/, '') };
  if (provider.implementation !== '@mastra/core') dependencies[provider.implementation] = provider.version;
  // With Mastra Code's tool names in force (lib/tool-names.mjs), the run is of Mastra Code's tools.
  const implementation = toolNameOverrides ? 'Mastra Code' : provider.implementation;
  const version = toolNameOverrides ? toolNameOverrides.version : provider.version;
  if (toolNameOverrides) dependencies['@mastra/code-sdk'] = toolNameOverrides.version;
  const missing = missingCapabilities();
  const tools = releaseTools();
  return {
    protocol: PROTOCOL, implementation, version,
    capabilities: [...provider.capabilities, ...CORE_CAPABILITIES].filter(c => !missing.includes(c)), dependencies,
    // Capability runtime_dir: the folder of the runtime running LocalSandbox (bubblewrap.ts binds
    // path.dirname(process.execPath) when no default bind covers it).
    runtimeDir: path.dirname(process.execPath),
    ...(tools ? { tools } : {}),
    // The LocalFilesystem options the provider honours ({option: true | [values]}); absent: all.
    ...(provider.filesystemOptions ? { filesystemOptions: provider.filesystemOptions } : {}),
  };
}

// On an object store, the session's root folder is synced with its prefix around an op that can
// touch files (lib/mirror.mjs).
const synced = op => Session.inProcessCwd(provider.store ? mirrored(op, Session.getSession) : op);

const OPS = {
  hello: opHello,
  open: Session.opOpen,
  tools: Session.opTools,
  call: synced(Session.opCall),
  calls: synced(Session.opCalls),
  needsApproval: Session.opNeedsApproval,
  fs: synced(Session.opFs),
  workspace: synced(Session.opWorkspace),
  retool: Session.opRetool,
  hookLog: synced(Session.opHookLog), // synced too: a write still in flight when a group returned lands in the bucket later
  agent: synced(Session.opAgent),
  group: synced(Session.opGroup),
  close: Session.opClose,
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
  await Session.destroyAll();
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
