#!/usr/bin/env node
// Smoke test for bridge.mjs: starts it, sends a few protocol requests one at a time, prints each
// request and response (one JSON line each) with its round-trip time, and exits non-zero if the
// bridge misbehaves (no answer, wrong id, non-JSON line, a fault where none is expected).
//
//   node smoke.mjs            # the default script
//   node smoke.mjs --quiet    # only the summary
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';

const here = dirname(fileURLToPath(import.meta.url));
const quiet = process.argv.includes('--quiet');

const base = mkdtempSync(join(tmpdir(), 'wsconf-smoke-'));
const root = join(base, 'root');
const outside = join(base, 'outside');
mkdirSync(root);
mkdirSync(outside);
writeFileSync(join(root, 'a.txt'), 'one\ntwo\nthree\n');
// A 1x1 PNG.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
writeFileSync(join(root, 'pixel.png'), Buffer.from(PNG, 'base64'));

const started = performance.now();
const child = spawn(process.execPath, [join(here, 'bridge.mjs')], { stdio: ['pipe', 'pipe', 'pipe'] });
let stderr = '';
child.stderr.on('data', d => (stderr += d));
const lines = createInterface({ input: child.stdout });
const pending = [];
const waiting = [];
lines.on('line', line => (waiting.length ? waiting.shift()(line) : pending.push(line)));
const nextLine = ms =>
  new Promise((resolve, reject) => {
    if (pending.length) return resolve(pending.shift());
    const t = setTimeout(() => reject(new Error(`no response in ${ms} ms`)), ms);
    waiting.push(line => {
      clearTimeout(t);
      resolve(line);
    });
  });

let nextId = 1;
let failures = 0;
async function request(op, params, { expectFault = false } = {}) {
  const id = nextId++;
  const req = { id, op, params };
  const t0 = performance.now();
  child.stdin.write(JSON.stringify(req) + '\n');
  const line = await nextLine(30000);
  const ms = performance.now() - t0;
  let resp;
  try {
    resp = JSON.parse(line);
  } catch {
    failures++;
    console.log(`!! not JSON: ${line}`);
    return null;
  }
  if (resp.id !== id) {
    failures++;
    console.log(`!! id ${resp.id}, wanted ${id}`);
  }
  if (resp.ok === expectFault) {
    failures++;
    console.log(`!! ok=${resp.ok}, wanted ${!expectFault}`);
  }
  if (!quiet) {
    console.log(`>> ${JSON.stringify(req)}`);
    console.log(`<< (${ms.toFixed(1)} ms) ${JSON.stringify(resp)}`);
  }
  return { resp, ms };
}

try {
  const hello = await request('hello', { protocol: 1 });
  const startup = performance.now() - started;
  const t0 = performance.now();
  const open = await request('open', {
    root,
    outside,
    home: outside,
    workspace: { filesystem: { contained: true }, sandbox: null, tools: {} },
  });
  const session = open.resp.result.session;
  const first = await request('call', { session, tool: 'mastra_workspace_read_file', args: { path: 'a.txt' } });
  const closeTimed = await request('close', { session });
  const openCallClose = performance.now() - t0;

  const s2 = (await request('open', { root, outside, home: outside, workspace: {} })).resp.result.session;
  const tools = await request('tools', { session: s2 });
  if (quiet) console.log('tools:', tools.resp.result.map(t => t.name).join(', '));
  await request('call', { session: s2, tool: 'mastra_workspace_read_file', args: { path: 'a.txt' } });
  await request('call', { session: s2, tool: 'mastra_workspace_read_file', args: { path: 'missing.txt' } });
  await request('call', { session: s2, tool: 'mastra_workspace_read_file', args: {} });
  await request('call', { session: s2, tool: 'mastra_workspace_read_file', args: { path: 'pixel.png' } });
  await request('call', { session: s2, tool: 'mastra_workspace_write_file', args: {} });
  await request('call', { session: s2, tool: 'mastra_workspace_write_file', args: {}, via: 'agent' });
  await request('call', { session: s2, tool: 'mastra_workspace_read_file', args: { path: 'missing.txt' }, via: 'agent' });
  await request('fs', { session: s2, method: 'stat', args: ['a.txt'] });
  await request('fs', { session: s2, method: 'readFile', args: ['pixel.png'] });
  await request('fs', { session: s2, method: 'writeFile', args: ['b.bin', { $bytes: 'AAEC' }] });
  await request('fs', { session: s2, method: 'readFile', args: ['nope.txt'] });
  await request('nonsense', {}, { expectFault: true });
  await request('call', { session: 'nope', tool: 'x', args: {} }, { expectFault: true });
  await request('close', { session: s2 });

  const s3 = (await request('open', { root, outside, home: outside, workspace: { sandbox: {} } })).resp.result.session;
  const tools3 = await request('tools', { session: s3 });
  if (quiet) console.log('tools with sandbox:', tools3.resp.result.map(t => t.name).join(', '));
  await request('call', { session: s3, tool: 'mastra_workspace_execute_command', args: { command: 'echo hi; pwd' } });
  await request('close', { session: s3 });

  await request('shutdown', {});
  const code = await new Promise(resolve => child.on('exit', resolve));
  console.log(
    `summary: hello answered ${startup.toFixed(0)} ms after spawn; open+call+close ${openCallClose.toFixed(1)} ms ` +
      `(open ${open.ms.toFixed(1)}, first call ${first.ms.toFixed(1)}, close ${closeTimed.ms.toFixed(1)}); ` +
      `exit code ${code}; ${failures} failure(s); @mastra/core ${hello.resp.result.version}`,
  );
  if (code !== 0) failures++;
} catch (err) {
  failures++;
  console.log(`!! ${err.message}`);
  child.kill();
} finally {
  rmSync(base, { recursive: true, force: true });
}
if (failures) {
  console.log('--- bridge stderr ---\n' + stderr);
  process.exit(1);
}
