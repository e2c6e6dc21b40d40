// Capability `agent_loop` (spec/protocol.md, "Agent runs"): a real Agent over the session's
// workspace, driven by a scripted model (@mastra/core's MastraLanguageModelV2Mock), so a case sees
// what only an agent run shows: the stream's chunks, the message list, the system message, what
// the model is shown of each tool result, the agent-level hooks and the approval flow.

import { Agent } from '@mastra/core/agent';
import { Mastra } from '@mastra/core/mastra';
import { InMemoryStore } from '@mastra/core/storage';
import { RequestContext } from '@mastra/core/request-context';
import { register } from 'node:module';
import { Fault, isPlainObject, toWire } from './wire.mjs';

// @mastra/core 1.54.0 to 1.69.0 ship dist/test-utils/llm-mock.js with a bare `import "vitest"` its
// bundler left behind (a side-effect import: nothing of vitest is used), and a release install has
// no vitest. For that importer only, the import resolves to an empty module.
const VITEST_HOOK = `export async function resolve(specifier, context, next) {
  if (specifier === 'vitest' && (context.parentURL ?? '').includes('/@mastra/core/dist/test-utils/')) {
    return { url: 'data:text/javascript,', shortCircuit: true };
  }
  return next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(VITEST_HOOK)}`, import.meta.url);
const { MastraLanguageModelV2Mock } = await import('@mastra/core/test-utils/llm-mock');

export const INSTRUCTIONS = 'You are the wsconf test agent.';
const USAGE = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };
// Chunks that only frame the run (ids, timings, usage): left out of the result.
const FRAMING = new Set(['start', 'step-start', 'step-finish', 'finish', 'text-start', 'text-end', 'raw', 'response-metadata',
  'reasoning-start', 'reasoning-end']);

function checkTurns(turns) {
  if (!Array.isArray(turns) || turns.length === 0) throw new Fault('params.turns must be a non-empty list');
  for (const [i, turn] of turns.entries()) {
    if (!isPlainObject(turn)) throw new Fault(`params.turns[${i}] must be an object {calls?, text?}`);
    for (const key of Object.keys(turn)) if (key !== 'calls' && key !== 'text') throw new Fault(`params.turns[${i}]: unknown key ${key}`);
    if (turn.calls !== undefined && (!Array.isArray(turn.calls) || turn.calls.some(c => !isPlainObject(c) || typeof c.tool !== 'string'))) {
      throw new Fault(`params.turns[${i}].calls must be a list of {tool, args}`);
    }
  }
}

/** The scripted model: model call n streams turn n (its tool calls, then its text). */
function scriptedModel(turns, prompts, offered, callPrefix = 'call') {
  let n = 0;
  return new MastraLanguageModelV2Mock({
    doStream: async options => {
      prompts.push(options.prompt);
      offered.push((options.tools ?? []).map(tool => tool.name));
      const turn = turns[n] ?? { text: '' };
      n++;
      const parts = [{ type: 'stream-start', warnings: [] }];
      const calls = turn.calls ?? [];
      if (turn.text !== undefined) {
        parts.push({ type: 'text-start', id: `text-${n}` }, { type: 'text-delta', id: `text-${n}`, delta: turn.text },
          { type: 'text-end', id: `text-${n}` });
      }
      calls.forEach((call, i) => parts.push({
        type: 'tool-call', toolCallId: `${callPrefix}-${n}-${i + 1}`, toolName: call.tool, input: JSON.stringify(call.args ?? {}),
      }));
      parts.push({ type: 'finish', finishReason: calls.length ? 'tool-calls' : 'stop', usage: USAGE });
      return {
        stream: new ReadableStream({ start(c) { for (const p of parts) c.enqueue(p); c.close(); } }),
        rawCall: { rawPrompt: null, rawSettings: {} },
      };
    },
  });
}

function errorMessage(error) {
  if (error === undefined || error === null) return null;
  return String(error.message ?? error);
}

/** One chunk as a case sees it: its type and the parts that do not vary between runs. */
function chunkView(chunk) {
  const p = chunk.payload ?? {};
  switch (chunk.type) {
    case 'tool-call': return { type: chunk.type, toolCallId: p.toolCallId, toolName: p.toolName, args: p.args };
    case 'tool-result': return { type: chunk.type, toolCallId: p.toolCallId, toolName: p.toolName, result: p.result };
    case 'tool-error': return { type: chunk.type, toolCallId: p.toolCallId, toolName: p.toolName, error: errorMessage(p.error) };
    case 'tool-call-approval': return { type: chunk.type, toolCallId: p.toolCallId, toolName: p.toolName, args: p.args };
    case 'text-delta': return { type: chunk.type, text: p.text };
    default: {
      const view = { type: chunk.type };
      const data = chunk.data ?? p;
      if (data?.toolName !== undefined) view.toolName = data.toolName;
      if (data?.toolCallId !== undefined) view.toolCallId = data.toolCallId;
      if (chunk.type === 'data-workspace-metadata') return view; // the rest is ids and timestamps
      if (chunk.type.startsWith('data-') || chunk.type === 'tool-output') {
        view.data = data ?? {}; // the chunk's data as the UI gets it; cases name its timings {{int}}
      }
      if (chunk.type === 'error') view.error = errorMessage(p.error ?? chunk.error);
      return view;
    }
  }
}

/** The messages of a prompt after its last assistant message (what the previous step added). */
function sinceLastAssistant(prompt) {
  let i = prompt.length;
  while (i > 0 && prompt[i - 1].role !== 'assistant') i--;
  return prompt.slice(i);
}

/** The tool results model call n (n >= 1) was shown: the tool messages after its last assistant message. */
function shown(prompt) {
  const out = [];
  for (const message of sinceLastAssistant(prompt)) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type === 'tool-result') out.push({ toolCallId: part.toolCallId, toolName: part.toolName, output: part.output });
    }
  }
  return out;
}

/** Capability task_signals: the texts of the user messages after the last assistant message (the state signals). */
function signalsShown(prompt) {
  const out = [];
  for (const message of sinceLastAssistant(prompt)) {
    if (message.role !== 'user') continue;
    for (const part of message.content) if (part.type === 'text') out.push(part.text);
  }
  return out;
}

// Capability task_signals: @mastra/core/signals (TaskSignalProvider) is newer than the oldest
// releases the matrix runs, so it is looked up here and the capability left out where it is absent.
const { TaskSignalProvider } = await import('@mastra/core/signals').catch(() => ({}));
const { MockMemory } = await import('@mastra/core/memory').catch(() => ({}));
const SIGNALS = { tasks: () => new TaskSignalProvider() };

/** Capability task_signals: a prompt's messages but the system ones, each {role, content}: its text
 * parts as strings, its tool calls and results as {toolCall | toolResult: id, toolName}. */
function promptView(prompt) {
  return prompt.filter(m => m.role !== 'system').map(m => ({
    role: m.role,
    content: (typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content).map(part => {
      if (part.type === 'text') return part.text;
      if (part.type === 'tool-call') return { toolCall: part.toolCallId, toolName: part.toolName };
      if (part.type === 'tool-result') return { toolResult: part.toolCallId, toolName: part.toolName };
      return { type: part.type };
    }),
  }));
}

/** Capability task_signals: params.signals (names of signal providers) and params.memory ("mock"). */
function signalOptions(params) {
  const options = {};
  if (params.signals !== undefined) {
    if (!Array.isArray(params.signals) || params.signals.some(name => !Object.hasOwn(SIGNALS, name))) {
      throw new Fault(`params.signals must be a list of signal providers (${Object.keys(SIGNALS).join(', ')})`);
    }
    options.signals = params.signals.map(name => SIGNALS[name]());
  }
  if (params.memory !== undefined) {
    if (params.memory !== 'mock') throw new Fault('params.memory must be "mock"');
    options.memory = 'mock';
  }
  // The tool call ids' prefix (default "call"): a thread's runs give their calls ids of their own,
  // as a real model does; the same id in the history and in the run would be one invocation.
  if (params.callPrefix !== undefined) {
    if (typeof params.callPrefix !== 'string' || !/^[a-z0-9]+$/.test(params.callPrefix)) {
      throw new Fault('params.callPrefix must be lowercase letters and digits');
    }
    options.callPrefix = params.callPrefix;
  }
  return options;
}

/** Each tool invocation of the message list (AI SDK v5 UI parts), once, in order: its state and output or errorText. */
function invocations(messageList) {
  const byId = new Map();
  for (const message of messageList.get.all.aiV5.ui()) {
    for (const part of message.parts ?? []) {
      if (typeof part.type !== 'string' || !part.type.startsWith('tool-') || part.toolCallId === undefined) continue;
      const view = { toolCallId: part.toolCallId, toolName: part.type.slice(5), state: part.state };
      if (part.output !== undefined) view.output = part.output;
      if (part.errorText !== undefined) view.errorText = part.errorText;
      byId.set(part.toolCallId, view);
    }
  }
  return [...byId.values()];
}

function recordingHooks(session) {
  return {
    beforeToolCall: ctx => {
      session.hookLog.push(toWire({ hook: 'agent.beforeToolCall', toolName: ctx.toolName, input: ctx.input }));
    },
    afterToolCall: ctx => {
      session.hookLog.push(toWire({
        hook: 'agent.afterToolCall', toolName: ctx.toolName, input: ctx.input,
        output: ctx.output === undefined ? null : ctx.output, error: errorMessage(ctx.error),
      }));
    },
  };
}

/**
 * params: {turns: [{calls?: [{tool, args}], text?}], prompt?, hooks?: true, approvals?: [bool ...],
 * abortAfterMs?}. result: a value Result {system, chunks, shown, invocations, text}.
 */
export async function runAgent(session, params) {
  const turns = params.turns;
  checkTurns(turns);
  const approvals = params.approvals ?? [];
  if (!Array.isArray(approvals) || approvals.some(a => typeof a !== 'boolean')) throw new Fault('params.approvals must be a list of booleans');
  const prompts = [];
  const offered = [];
  if (params.thread !== undefined && (typeof params.thread !== 'string' || params.thread === '')) {
    throw new Fault('params.thread must be a non-empty string');
  }
  const extra = signalOptions(params);
  // A Mastra instance with in-memory storage: an approval suspends the run, and resuming it
  // loads the run's snapshot from storage. The storage is the session's, so a later run on the
  // same thread finds what an earlier one kept there (capability agent_threads: the read tracker).
  session.agentStorage ??= new InMemoryStore();
  const agent0 = new Agent({
    id: 'wsconf-agent', name: 'wsconf-agent', instructions: INSTRUCTIONS,
    model: scriptedModel(turns, prompts, offered, extra.callPrefix), workspace: session.workspace,
    ...(params.hooks ? { hooks: recordingHooks(session) } : {}),
    // Capability task_signals: the signal providers, and a MockMemory over the session's storage.
    ...(extra.signals ? { signals: extra.signals } : {}),
    ...(extra.memory ? { memory: new MockMemory({ storage: session.agentStorage }) } : {}),
  });
  const mastra = new Mastra({ agents: { wsconf: agent0 }, storage: session.agentStorage, logger: false });
  const agent = mastra.getAgent('wsconf');
  const controller = new AbortController();
  let timer;
  if (params.abortAfterMs !== undefined) {
    if (typeof params.abortAfterMs !== 'number') throw new Fault('params.abortAfterMs must be a number');
    timer = setTimeout(() => controller.abort(), params.abortAfterMs);
  }
  const chunks = [];
  let output;
  try {
    output = await agent.stream(params.prompt ?? 'go', {
      maxSteps: turns.length + 1,
      requestContext: new RequestContext(Object.entries(session.requestContext ?? {})),
      abortSignal: controller.signal,
      // Capability agent_threads: the run's thread (no Memory on the agent: only the thread id).
      ...(params.thread !== undefined ? { memory: { thread: params.thread, resource: 'wsconf' } } : {}),
    });
    let pending = [];
    for await (const chunk of output.fullStream) {
      if (chunk.type === 'tool-call-approval') pending.push(chunk.payload.toolCallId);
      if (!FRAMING.has(chunk.type)) chunks.push(chunkView(chunk));
    }
    let answered = 0;
    while (pending.length) {
      const toolCallId = pending.shift();
      if (answered >= approvals.length) break; // no answer scripted: the run stays suspended
      const approve = approvals[answered++];
      chunks.push({ type: approve ? 'wsconf-approve' : 'wsconf-decline', toolCallId });
      output = approve
        ? await agent.approveToolCall({ runId: output.runId, toolCallId })
        : await agent.declineToolCall({ runId: output.runId, toolCallId });
      for await (const chunk of output.fullStream) {
        if (chunk.type === 'tool-call-approval') pending.push(chunk.payload.toolCallId);
        if (!FRAMING.has(chunk.type)) chunks.push(chunkView(chunk));
      }
    }
  } finally {
    clearTimeout(timer);
  }
  const system = (prompts[0] ?? []).filter(m => m.role === 'system').map(m => m.content);
  const value = {
    system,
    chunks,
    shown: prompts.slice(1).map(shown),
    invocations: invocations(output.messageList),
    modelCalls: prompts.length,
  };
  if (extra.signals) {
    // Capability task_signals: the tools the first model call was offered, and what each later
    // model call was shown besides the tool results (the state signals' messages).
    value.offered = offered[0] ?? [];
    value.history = promptView(prompts[0] ?? []);
    value.signals = prompts.slice(1).map(signalsShown);
  }
  return { kind: 'value', value: toWire(value), model: null };
}
