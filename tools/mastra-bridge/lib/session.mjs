// Sessions: a Workspace and its tools built from a case's workspace block (spec/protocol.md
// `open`), and the ops on them: tools, call, fs, workspace, retool, hookLog, close. The filesystem
// comes from the selected provider (lib/provider.mjs); the rest is the same on every provider.

import { Workspace, LocalFilesystem, LocalSandbox, LocalSkillSource, createWorkspaceTools, createSkillTools } from '@mastra/core/workspace';
import { standardSchemaToJSONSchema, isStandardSchemaWithJSON, toStandardSchema } from '@mastra/core/schema';
import { RequestContext } from '@mastra/core/request-context';
import { Mastra } from '@mastra/core/mastra';
import { makeCoreTool } from '@mastra/core/utils';
import * as HostSearch from './host-search.mjs';
import { hostFunction, isHostFunction, withHostFunctions } from './host-functions.mjs';
import { log } from './log.mjs';
import { withNative, recordingLogger } from './native-fs.mjs';
import { runAgent } from './agent.mjs';
import { recordingSpan } from './tracing.mjs';
import { advanceClock, resetClock } from './clock.mjs';
import { processOp } from './process-handles.mjs';
import { upload, clear } from './mirror.mjs';
import { provider, refuseUnhonoured } from './provider.mjs';
import { aliasesOf, exposedName, withToolNames } from './tool-names.mjs';
import { Fault, isPlainObject, needString, toWire, fromWire, errorResult, errorDetails, valueResult } from './wire.mjs';

// Extension (capability error_details): an error Result with `details` when the request asks.
function failure(err, params) {
  return params.errorDetails === true ? { ...errorResult(err), details: errorDetails(err) } : errorResult(err);
}

const sessions = new Map();
let nextSession = 1;
let nextCall = 1;

function setHome(session) {
  if (session.home) process.env.HOME = session.home;
}

/**
 * Capability process_cwd: an op run with the process's working directory at the session's
 * `processCwd` (a relative cwd is resolved against it upstream), restored afterwards: the case
 * folder is removed after the case, and a process whose cwd is gone cannot resolve paths.
 */
export function inProcessCwd(op) {
  return async params => {
    const session = typeof params?.session === 'string' ? sessions.get(params.session) : undefined;
    return inSessionProcess(session, () => op(params));
  };
}

/** fn run with the process's cwd, TMPDIR and PATH at the session's processCwd / processTmpdir /
 * processPath, if set. */
async function inSessionProcess(session, fn) {
  const cwd = session?.processCwd;
  const tmpdir = session?.processTmpdir;
  const pathVar = session?.processPath;
  if (cwd === undefined && tmpdir === undefined && pathVar === undefined) return fn();
  const previous = { cwd: process.cwd(), tmpdir: process.env.TMPDIR, path: process.env.PATH };
  if (cwd !== undefined) process.chdir(cwd);
  if (tmpdir !== undefined) process.env.TMPDIR = tmpdir;
  if (pathVar !== undefined) process.env.PATH = pathVar;
  try {
    return await fn();
  } finally {
    if (cwd !== undefined) process.chdir(previous.cwd);
    if (tmpdir !== undefined) {
      if (previous.tmpdir === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = previous.tmpdir;
    }
    if (pathVar !== undefined) {
      if (previous.path === undefined) delete process.env.PATH;
      else process.env.PATH = previous.path;
    }
  }
}

export function getSession(params) {
  const id = needString(params, 'session');
  const session = sessions.get(id);
  if (!session) throw new Fault(`no such session: ${id}`);
  return session;
}

async function buildTools(session) {
  const config = session.workspace.getToolsConfig?.();
  const requestContext = new RequestContext(Object.entries(session.requestContext ?? {}));
  const tools = await createWorkspaceTools(session.workspace, { requestContext, workspace: session.workspace },
    session.toolOptions);
  // With Mastra Code's names, the names this tool set has: kept until a build succeeds (a later
  // setToolsConfig does not rename the tools in use, nor does a rebuild that threw).
  session.toolAliases = aliasesOf(config);
  // With skills configured, the agent adds the skill tools (skill, skill_search, skill_read) next to them.
  const skills = session.workspace.skills;
  return skills ? { ...tools, ...createSkillTools(skills) } : tools;
}

/**
 * Capability process_cwd: the workspace is built with the process's working directory at the case's
 * `processCwd` too, so what the constructors resolve against process.cwd() (LocalSandbox's default
 * workingDirectory, process.cwd()/.sandbox) lands in the case's folder.
 */
export async function opOpen(params) {
  const ws = isPlainObject(params?.workspace) ? params.workspace : {};
  const processCwd = typeof ws.processCwd === 'string' ? ws.processCwd : undefined;
  // Capability process_path: PATH too (what detectIsolation's `which bwrap` looks through).
  const processPath = typeof ws.processPath === 'string' ? ws.processPath : undefined;
  return inSessionProcess(processCwd === undefined && processPath === undefined ? undefined
    : { processCwd, processPath }, () => openWorkspace(params));
}

async function openWorkspace(params) {
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
    // Capability process_cwd: the process's working directory during the session's requests.
    processCwd: typeof ws.processCwd === 'string' ? ws.processCwd : undefined,
    // Capability sandbox_mounts: the process's TMPDIR (os.tmpdir(), where LocalSandbox keeps its
    // mount markers) during the session's requests, so they stay inside the case's root.
    processTmpdir: typeof ws.processTmpdir === 'string' ? ws.processTmpdir : undefined,
    // Capability process_path: the process's PATH during the session's requests.
    processPath: typeof ws.processPath === 'string' ? ws.processPath : undefined,
    toolOptions: isPlainObject(ws.toolOptions) ? ws.toolOptions : undefined,
  };
  try {
    // The sandbox first: a provider built over a sandbox (providers/sandboxfs.mjs) shares the case's.
    let sandbox;
    if (isHostFunction(ws.sandbox)) {
      sandbox = hostFunction(ws.sandbox, pending, 'sandbox'); // a resolver
    } else if (ws.sandbox !== undefined && ws.sandbox !== null) {
      if (!isPlainObject(ws.sandbox)) throw new Fault('workspace.sandbox must be an object or null');
      const { foregroundOnly, ...sandboxOptions } = ws.sandbox;
      sandbox = new LocalSandbox({ workingDirectory: root, ...withHostFunctions(sandboxOptions, pending, 'sandbox') });
      // Capability foreground_sandbox: a sandbox with executeCommand and no process manager
      // (executeCommand keeps the manager it was built with).
      // destroy() lists the manager's processes, so close() hands it back first.
      if (foregroundOnly === true) {
        pending.foregroundOnly = { sandbox, processes: sandbox.processes };
        sandbox.processes = undefined;
      }
    }

    let filesystem;
    if (ws.filesystem === null) {
      filesystem = undefined;
    } else if (isHostFunction(ws.filesystem)) {
      filesystem = hostFunction(ws.filesystem, pending, 'filesystem'); // a resolver
    } else {
      const fsOpts = ws.filesystem ?? {};
      if (!isPlainObject(fsOpts)) throw new Fault('workspace.filesystem must be an object or null');
      refuseUnhonoured(fsOpts);
      // The selected provider's filesystem on root (lib/provider.mjs): an object store's comes with
      // root's mirror, a provider's own resources with `close`.
      ({ filesystem, mirror: pending.mirror, close: pending.providerClose } = provider.filesystem({
        root, options: fsOpts, session: pending, sandbox: sandbox instanceof LocalSandbox ? sandbox : undefined,
      }));
    }
    // Capability native_fs: the optional walk()/grep() methods (lib/native-fs.mjs).
    if (ws.native !== undefined) {
      if (!filesystem) throw new Fault('workspace.native needs a filesystem');
      withNative(filesystem, ws.native, pending);
    }

    // Capability sandbox_mounts: `mounts` {mountPath: LocalFilesystem options} and the onMount hook.
    let mounts;
    if (ws.mounts !== undefined) {
      if (!isPlainObject(ws.mounts)) throw new Fault('workspace.mounts must be an object {mountPath: filesystem options}');
      mounts = {};
      for (const [mountPath, options] of Object.entries(ws.mounts)) {
        if (!isPlainObject(options) || typeof options.basePath !== 'string') {
          throw new Fault(`workspace.mounts[${JSON.stringify(mountPath)}] must be LocalFilesystem options with a basePath`);
        }
        mounts[mountPath] = new LocalFilesystem(withHostFunctions(options, pending, 'filesystem'));
      }
    }

    if (ws.tools !== undefined && ws.tools !== null && !isPlainObject(ws.tools)) {
      throw new Fault('workspace.tools must be an object');
    }

    const config = {};
    // With mounts and no `filesystem` key, the mounts are the filesystem (the default one is dropped).
    if (filesystem && (ws.filesystem !== undefined || !mounts)) config.filesystem = filesystem;
    if (mounts) config.mounts = mounts;
    if (ws.onMount !== undefined) config.onMount = hostFunction(ws.onMount, pending, 'onMount');
    if (sandbox) config.sandbox = sandbox;
    // The case's tools block, with Mastra Code's names under it when they are in force (lib/tool-names.mjs).
    const toolsConfig = withToolNames(ws.tools ?? undefined);
    if (toolsConfig) config.tools = withHostFunctions(toolsConfig, pending);
    if (typeof ws.id === 'string') config.id = ws.id;
    if (typeof ws.name === 'string') config.name = ws.name;
    // Search, skills and timeout options (spec/protocol.md `open`), as given; stopwords as a Set.
    for (const key of ['bm25', 'autoIndexPaths', 'skills', 'searchIndexName', 'operationTimeout', 'lsp', 'checkSkillFileMtime']) {
      if (ws[key] !== undefined) config[key] = ws[key];
    }
    if (isHostFunction(ws.skills)) config.skills = hostFunction(ws.skills, pending, 'skills');
    if (isPlainObject(ws.skillSource) && ws.skillSource.published !== undefined) {
      config.skillSource = await publishedSkillSource(root, ws.skillSource);
    } else if (isPlainObject(ws.skillSource)) {
      config.skillSource = new LocalSkillSource(ws.skillSource);
    }
    if (ws.sandboxCacheKey !== undefined) config.sandboxCacheKey = withHostFunctions(ws.sandboxCacheKey, pending, 'sandboxCacheKey');
    if (isPlainObject(ws.instructions)) config.instructions = withHostFunctions(ws.instructions, pending, 'instructions');
    // Host search objects (spec/protocol.md): an in-memory vector store and a letter-count embedder.
    if (ws.vectorStore !== undefined) {
      if (ws.vectorStore?.$store !== 'memory') throw new Fault('workspace.vectorStore must be {"$store": "memory"}');
      config.vectorStore = HostSearch.memoryVectorStore(pending.hookLog, ws.vectorStore);
    }
    if (ws.embedder !== undefined) {
      if (ws.embedder?.$embedder !== 'letters') throw new Fault('workspace.embedder must be {"$embedder": "letters", ...}');
      config.embedder = HostSearch.letterEmbedder(ws.embedder, pending.hookLog);
    }
    if (Array.isArray(ws.bm25?.tokenize?.stopwords)) {
      config.bm25 = { ...ws.bm25, tokenize: { ...ws.bm25.tokenize, stopwords: new Set(ws.bm25.tokenize.stopwords) } };
    }
    // Capability console_warnings: the console.warn calls made while the workspace is built go to the
    // hook log (whichever way it is built), and console.warn is given back afterwards.
    if (ws.consoleWarn !== undefined && ws.consoleWarn !== 'record') throw new Fault('workspace.consoleWarn must be "record"');
    const warn = console.warn;
    if (ws.consoleWarn === 'record') {
      console.warn = (...args) => { pending.hookLog.push({ hook: 'console.warn', message: args.map(String).join(' ') }); };
    }
    try {
      if (ws.codingAgent === true) {
        // Capability coding_agent: the workspace createCodingAgent() builds by default, with the
        // process's working directory set to root while it is built (its basePath is process.cwd()).
        const { createCodingAgent } = await import('@mastra/core/coding-agent');
        const previous = process.cwd();
        process.chdir(root);
        try {
          const agent = createCodingAgent({ id: 'wsconf-coding', name: 'wsconf-coding', instructions: 'wsconf', model: 'openai/gpt-5' });
          workspace = await agent.getWorkspace({ requestContext: new RequestContext() });
        } finally {
          process.chdir(previous);
        }
      } else {
        workspace = new Workspace(config);
      }
    } finally {
      console.warn = warn;
    }
    pending.workspace = workspace;
    if (ws.logger !== undefined) {
      if (ws.logger !== 'record' && ws.logger !== 'recordDebug') {
        throw new Fault('workspace.logger must be "record" or "recordDebug"');
      }
      workspace.__setLogger(recordingLogger(pending, ws.logger === 'recordDebug'));
    }
    // One tool set per session: like one agent run, the read tracker and write lock are shared by
    // every call of the session (until a `retool`).
    tools = await buildTools(pending);
  } catch (err) {
    await pending.providerClose?.().catch(e => log('closing the provider after a failed open:', e?.stack ?? e));
    if (err instanceof Fault) throw err;
    return { error: errorResult(err) };
  }

  if (pending.mirror) await upload(pending.mirror);  // a failure here is a fault
  const id = `s${nextSession++}`;
  sessions.set(id, Object.assign(pending, { id, root, home, workspace, tools }));
  return { session: id };
}

// Capability published_skills: `skillSource: {published: DIR, versionCreatedAt: ISO}` is the skill
// in root/DIR published (publishSkillFromSource: its files hashed into an InMemoryBlobStore, a
// version tree naming them) and served back by a VersionedSkillSource, as a production agent reads
// a published version instead of the live files.
async function publishedSkillSource(root, spec) {
  const { published, versionCreatedAt, ...rest } = spec;
  if (typeof published !== 'string' || typeof versionCreatedAt !== 'string' || Object.keys(rest).length > 0) {
    throw new Fault('workspace.skillSource {published} must be {published: <folder in the root>, versionCreatedAt: <ISO time>}');
  }
  const { VersionedSkillSource, publishSkillFromSource } = await import('@mastra/core/workspace');
  const { InMemoryBlobStore } = await import('@mastra/core/storage');
  const blobStore = new InMemoryBlobStore();
  const { tree } = await publishSkillFromSource(new LocalSkillSource({ basePath: root }), published, blobStore);
  return new VersionedSkillSource(tree, blobStore, new Date(versionCreatedAt));
}

function inputJsonSchema(schema) {
  if (!schema) return null;
  const std = isStandardSchemaWithJSON(schema) ? schema : toStandardSchema(schema);
  return standardSchemaToJSONSchema(std, { io: 'input' });
}

export async function opTools(params) {
  const session = getSession(params);
  return Object.entries(session.tools).map(([name, tool]) => ({
    name,
    description: tool.description ?? '',
    inputSchema: inputJsonSchema(tool.inputSchema),
    requireApproval: tool.requireApproval === true,
  }));
}

export async function opCall(params) {
  const session = getSession(params);
  const toolName = exposedName(session.tools, session.toolAliases, needString(params, 'tool'));
  const tool = session.tools[toolName];
  if (!tool) throw new Fault(`no tool ${toolName} in session ${session.id} (has: ${Object.keys(session.tools).join(', ')})`);
  if (typeof tool.execute !== 'function') throw new Fault(`tool ${toolName} has no execute`);
  const args = params.args === undefined ? {} : params.args;
  const via = params.via ?? 'execute';
  if (via !== 'execute' && via !== 'agent') throw new Fault(`params.via must be "execute" or "agent", not ${JSON.stringify(via)}`);
  setHome(session);
  const toolCallId = `wsconf-call-${nextCall++}`;
  // Extension (capability tool_writer): a writer whose chunks come back with the Result, in order.
  const chunks = params.writer === true ? [] : null;
  const writer = chunks ? { custom: async chunk => { chunks.push(toWire(chunk)); } } : undefined;
  // Extension (capability tool_tracing): a recording parent span at context.tracing.currentSpan (or
  // context.tracingContext.currentSpan); the child spans the tool started come back as `spans`.
  const tracing = params.tracing;
  if (tracing !== undefined && tracing !== 'tracing' && tracing !== 'tracingContext') {
    throw new Fault(`params.tracing must be "tracing" or "tracingContext", not ${JSON.stringify(tracing)}`);
  }
  if (tracing && via === 'agent') throw new Fault('params.tracing is for via "execute" only');
  const spans = tracing ? [] : null;
  const withChunks = result => {
    const withWriter = chunks ? { ...result, chunks } : result;
    return spans ? { ...withWriter, spans: toWire(spans) } : withWriter;
  };
  // Extension (capability call_request_context): this call's own request context.
  // With shared_request_context, `{"$requestContext": NAME}` is the session's RequestContext of that
  // name, the very object `workspace` arguments name (what the workspace memoises resolution on).
  const callContext = isPlainObject(params.requestContext) ? params.requestContext : session.requestContext;
  const named = typeof callContext.$requestContext === 'string' ? withNamedContexts(callContext, session) : null;
  const requestContextOf = () => named ?? new RequestContext(Object.entries(callContext));
  let output;
  try {
    if (via === 'agent') {
      // Extension: through the agent loop's tool builder (makeCoreTool), which validates the input
      // itself before any workspace wrapper runs and wraps a thrown error in a MastraError.
      const core = makeCoreTool(tool, {
        name: toolName,
        description: tool.description,
        requestContext: requestContextOf(),
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
        requestContext: requestContextOf(),
        workspace: session.workspace,
        agent: { agentId: 'wsconf', toolCallId, messages: [] },
      };
      if (params.agentContext === false) delete context.agent; // no agent context: no toolCallId
      if (writer) context.writer = writer;
      if (spans) context[tracing] = { currentSpan: recordingSpan(spans) };
      // Extension (capability call_abort): the call's abortSignal fires n ms after the call starts,
      // also when the call has returned by then (as an agent run's signal outlives one tool call).
      if (typeof params.abortAfterMs === 'number') {
        const controller = new AbortController();
        setTimeout(() => controller.abort(), params.abortAfterMs).unref();
        context.abortSignal = controller.signal;
      }
      output = await tool.execute(args, context);
    }
  } catch (err) {
    return withChunks(failure(err, params));
  }
  return withChunks(await valueResult(output, tool));
}

// Extension (capability approval_fn): the tool's needsApprovalFn (set when requireApproval is a
// function) evaluated on these args: true/false, or null when the tool has none.
export async function opNeedsApproval(params) {
  const session = getSession(params);
  const toolName = exposedName(session.tools, session.toolAliases, needString(params, 'tool'));
  const tool = session.tools[toolName];
  if (!tool) throw new Fault(`no tool ${toolName} in session ${session.id}`);
  if (typeof tool.needsApprovalFn !== 'function') return { kind: 'value', value: null, model: null };
  try {
    const value = await tool.needsApprovalFn(params.args ?? {}, {
      requestContext: new RequestContext(Object.entries(session.requestContext)),
      workspace: session.workspace,
    });
    return { kind: 'value', value: toWire(value), model: null };
  } catch (err) {
    return errorResult(err);
  }
}

// Extension (capability concurrent_calls): several calls started together, in order (each runs up
// to its first await before the next starts), their Results in that order.
export async function opCalls(params) {
  const session = getSession(params);
  if (!Array.isArray(params.calls)) throw new Fault('params.calls must be a list');
  return Promise.all(params.calls.map(call => opCall({ ...call, session: session.id })));
}

export async function opFs(params) {
  const session = getSession(params);
  const method = needString(params, 'method');
  const fs = session.workspace.filesystem;
  if (!fs) throw new Fault(`session ${session.id} has no filesystem`);
  const fn = fs[method];
  // A method the provider lacks (an optional one: realpath) is what a caller meets: a TypeError.
  if (typeof fn !== 'function') return failure(new TypeError(`filesystem.${method} is not a function`), params);
  const args = params.args === undefined ? [] : params.args;
  if (!Array.isArray(args)) throw new Fault('params.args must be a list');
  setHome(session);
  let output;
  try {
    output = await fn.apply(fs, fromWire(args));
  } catch (err) {
    return failure(err, params);
  }
  return valueResult(output, null);
}

// Extension (not in protocol.md v1): the Workspace itself, for the lifecycle capability.
// params: {session, method: "init" | "stop" | "destroy" | "getInfo" | "status" | "sandbox.executeCommand" ..., args: [...]}
// `method` is a dotted path from the Workspace; a function is called (with its owner as this),
// anything else is returned as a value.
export async function opWorkspace(params) {
  const session = getSession(params);
  const path = needString(params, 'method').split('.');
  const args = params.args === undefined ? [] : params.args;
  if (!Array.isArray(args)) throw new Fault('params.args must be a list');
  setHome(session);
  let owner = null;
  let target = session.workspace;
  if (path.join('.') === 'clock.advance') {
    advanceClock(args[0]);
    return valueResult(undefined, null);
  }
  if (path[0] === 'process') {
    let output;
    try {
      output = await processOp(session, path.slice(1).join('.'), fromWire(args));
    } catch (err) {
      if (err instanceof Fault) throw err;
      return failure(err, params);
    }
    return valueResult(output, null);
  }
  if (path.join('.') === 'sandbox.mount') {
    // Capability sandbox_mounts: sandbox.mount(filesystem, mountPath), the filesystem named by its
    // path among the workspace's mounts (the CompositeFilesystem's mounts.get(path)).
    const [fsPath, mountPath] = fromWire(args);
    const filesystem = session.workspace.filesystem?.mounts?.get?.(fsPath);
    if (!filesystem) throw new Fault(`sandbox.mount: the workspace has no mount ${JSON.stringify(fsPath)}`);
    let output;
    try {
      output = await session.workspace.sandbox.mount(filesystem, mountPath);
    } catch (err) {
      return failure(err, params);
    }
    return valueResult(output, null);
  }
  if (path.join('.') === 'sandbox.mounts.entries') {
    // Capability sandbox_mounts: the sandbox's mount table (MountManager.entries, a Map), each entry
    // {filesystem, state, config, error} with the filesystem as its id (the instance has private
    // fields) and without its configHash (a hash of the config, whose basePath is in the case's
    // root: the marker file holds it); an undefined field is left out.
    const entries = session.workspace.sandbox?.mounts?.entries;
    if (!entries) throw new Fault('workspace has no sandbox.mounts.entries');
    return valueResult(Object.fromEntries([...entries].map(([p, { configHash, ...e }]) =>
      [p, { ...e, filesystem: e.filesystem?.id }])), null);
  }
  if (path[0] === 'mastra') {
    // Capability mastra_registry: a Mastra instance the workspace is registered with (built on first use).
    session.mastra ??= new Mastra({ workspace: session.workspace, logger: false });
    target = { mastra: session.mastra };
  }
  for (const part of path) {
    if (target === null || target === undefined) throw new Fault(`workspace has no ${path.join('.')}`);
    owner = target;
    try {
      target = target[part];
    } catch (err) {
      return failure(err, params); // a getter that throws (workspace.skills after destroy()) answers so
    }
  }
  let output;
  try {
    const callArgs = withHostFunctions(withNamedContexts(fromWire(args), session), session);
    output = typeof target === 'function' ? await target.apply(owner, callArgs) : target;
  } catch (err) {
    if (err instanceof Fault) throw err;
    return failure(err, params);
  }
  // Capability instance_identity: which object the answer is, not its (private) fields.
  if (params.identity === true) return { kind: 'value', value: instanceLabel(session, output), model: null };
  return valueResult(output, null);
}

// Capability shared_request_context: `{"$requestContext": NAME, "values"?: {...}}` is the session's
// one RequestContext of that name, made from `values` on its first use, so a case can hand the
// same object to several calls (the workspace memoises resolvers per RequestContext instance).
function withNamedContexts(value, session) {
  if (Array.isArray(value)) return value.map(v => withNamedContexts(v, session));
  if (!isPlainObject(value)) return value;
  if (typeof value.$requestContext === 'string') {
    const { $requestContext: name, values, ...rest } = value;
    if (Object.keys(rest).length > 0) throw new Fault(`$requestContext ${name}: unknown keys ${Object.keys(rest).join(', ')}`);
    if (values !== undefined && !isPlainObject(values)) throw new Fault(`$requestContext ${name}: values must be an object`);
    session.namedContexts ??= new Map();
    const known = session.namedContexts.get(name);
    if (known) {
      if (values !== undefined) throw new Fault(`$requestContext ${name}: values are given on its first use only`);
      return known;
    }
    const made = new RequestContext(Object.entries(values ?? {}));
    session.namedContexts.set(name, made);
    return made;
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withNamedContexts(v, session)]));
}

// Capability instance_identity: `{"$instance": n}`, n numbering the distinct objects a session's
// `identity` answers have shown, from 1 in order of first appearance; undefined/null is null.
function instanceLabel(session, value) {
  if (value === undefined || value === null) return null;
  session.instances ??= new Map();
  if (!session.instances.has(value)) session.instances.set(value, session.instances.size + 1);
  return { $instance: session.instances.get(value) };
}

// A new agent interaction: the tool set is built again from the workspace's current tools
// config (after setToolsConfig), with a fresh read tracker and write lock.
export async function opRetool(params) {
  const session = getSession(params);
  setHome(session);
  try {
    session.tools = await buildTools(session);
  } catch (err) {
    return errorResult(err);
  }
  return { kind: 'value', value: Object.keys(session.tools), model: null };
}

export async function opHookLog(params) {
  const session = getSession(params);
  return toWire(session.hookLog);
}

async function destroySession(session) {
  sessions.delete(session.id);
  resetClock();
  await inSessionProcess(session, () => destroyProviders(session));
}

async function destroyProviders(session) {
  if (session.foregroundOnly) session.foregroundOnly.sandbox.processes = session.foregroundOnly.processes;
  await session.workspace.destroy();
  for (const sandbox of session.resolvedSandboxes ?? []) {
    if (sandbox.wsconfProcesses) sandbox.processes = sandbox.wsconfProcesses;
    await sandbox.destroy().catch(() => {});
  }
  if (session.mirror) await clear(session.mirror);
  await session.providerClose?.();  // what the provider made for the session (a private sandbox)
}

export async function opClose(params) {
  const session = getSession(params);
  try {
    await destroySession(session);
  } catch (err) {
    throw new Fault(`workspace.destroy() threw: ${err?.message ?? err}`);
  }
  return null;
}

export async function destroyAll() {
  for (const session of [...sessions.values()]) {
    try {
      await destroySession(session);
    } catch (err) {
      log(`destroying session ${session.id} failed:`, err?.stack ?? err);
    }
  }
}

// Capability agent_loop: a real Agent over the session's workspace with a scripted model (lib/agent.mjs).
export async function opAgent(params) {
  const session = getSession(params);
  setHome(session);
  return runAgent(session, params);
}

// Capability concurrent_calls: several `call`s issued together; each answer is a Result, in order.
export async function opGroup(params) {
  const calls = params.calls;
  if (!Array.isArray(calls) || calls.length === 0) throw new Fault('params.calls must be a non-empty list of {tool, args}');
  const session = getSession(params);
  return Promise.all(calls.map(call => opCall({ session: session.id, tool: call?.tool, args: call?.args })));
}
