#!/usr/bin/env node
// One benchmark process for the upstream: @mastra/core's workspace tools called directly, no protocol.
//
//   node tools/bench/inside.mjs JOB.json
//
// The job format is tools/bench/worker.py's (mode "inside"). The workspace and its tools are built
// the way tools/mastra-bridge/bridge.mjs builds them (new LocalFilesystem({basePath: root, ...}),
// new LocalSandbox({workingDirectory: root, ...}), createWorkspaceTools), and each call is
// `tool.execute(args, context)` with the bridge's context. Only the calls are timed
// (process.hrtime around the whole list). One JSON line per job on stdout; Mastra's own logging
// goes to stderr.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const protocolWrite = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, encoding, cb) => process.stderr.write(chunk, encoding, cb);
for (const level of ['log', 'info', 'debug', 'warn', 'trace']) console[level] = (...a) => console.error(...a);

const core = new URL('../mastra-bridge/node_modules/@mastra/core/dist/', import.meta.url);
const { Workspace, LocalFilesystem, LocalSandbox, createWorkspaceTools } = await import(new URL('workspace/index.js', core));
const { RequestContext } = await import(new URL('request-context/index.js', core));

function statusKb(key) {
  try {
    const line = readFileSync('/proc/self/status', 'utf8').split('\n').find(l => l.startsWith(key + ':'));
    return line ? Number(line.split(/\s+/)[1]) : null;
  } catch {
    return null;
  }
}

function resetPeak() {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

function expand(value, i, root, cache) {
  if (Array.isArray(value)) return value.map(v => expand(v, i, root, cache));
  if (value && typeof value === 'object') {
    const keys = Object.keys(value);
    if (keys.length === 1 && keys[0] === '$fmt') return value.$fmt.replaceAll('{i}', String(i)).replaceAll('{j}', String(i + 1));
    if (keys.length === 1 && keys[0] === '$file') {
      if (!cache.has(value.$file)) cache.set(value.$file, readFileSync(join(root, value.$file), 'utf8'));
      return cache.get(value.$file);
    }
    return Object.fromEntries(keys.map(k => [k, expand(value[k], i, root, cache)]));
  }
  return value;
}

function plan(calls, root) {
  const cache = new Map();
  const out = [];
  for (const call of calls) {
    for (let i = 0; i < (call.repeat ?? 1); i++) out.push([call.tool, expand(call.args ?? {}, i, root, cache)]);
  }
  return out;
}

const textOf = out => (typeof out === 'string' ? out : JSON.stringify(out) ?? 'undefined');

async function runJob(job) {
  const ws = job.workspace ?? {};
  const config = {};
  if (ws.filesystem !== null) config.filesystem = new LocalFilesystem({ basePath: job.root, ...(ws.filesystem ?? {}) });
  if (ws.sandbox) config.sandbox = new LocalSandbox({ workingDirectory: job.root, ...ws.sandbox });
  if (ws.tools) config.tools = ws.tools;
  const workspace = new Workspace(config);
  const requestContext = new RequestContext([]);
  const tools = await createWorkspaceTools(workspace, { requestContext, workspace });
  let n = 0;
  const call = async (name, args) => {
    const context = { requestContext, workspace, agent: { agentId: 'bench', toolCallId: `bench-${n++}`, messages: [] } };
    try {
      const out = await tools[name].execute(args, context);
      if (out && typeof out === 'object' && out.error === true) return [false, textOf(out)];
      return [true, out];
    } catch (err) {
      return [false, `${err?.name}: ${err?.message ?? err}`];
    }
  };
  try {
    const warm = plan(job.warmup ?? [], job.root);
    const calls = plan(job.calls, job.root);
    for (const [name, args] of warm) await call(name, args);
    const rssBase = statusKb('VmRSS');
    const peakReset = resetPeak();
    let errors = 0;
    let firstError = null;
    let last;
    const t0 = process.hrtime.bigint();
    for (const [name, args] of calls) {
      const [ok, out] = await call(name, args);
      if (!ok) {
        errors++;
        firstError ??= out;
      }
      last = out;
    }
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    const rssPeak = peakReset ? statusKb('VmHWM') : process.resourceUsage().maxRSS;
    const text = textOf(last);
    return {
      ok: true, seconds, calls: calls.length, errors, first_error: firstError,
      digest: createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 16), head: text.slice(0, 160),
      rss_base_kb: rssBase, rss_peak_kb: rssPeak, peak_reset: peakReset, tracemalloc_peak: null,
    };
  } finally {
    await workspace.destroy();
  }
}

const spec = JSON.parse(readFileSync(process.argv[2], 'utf8'));
for (const job of spec.jobs ?? [spec]) {
  let result;
  try {
    result = await runJob(job);
  } catch (err) {
    result = { ok: false, fault: `${err?.name}: ${err?.message ?? err}` };
  }
  result.name = job.name ?? null;
  await new Promise(resolve => protocolWrite(JSON.stringify(result) + '\n', resolve));
}
process.exit(0);
