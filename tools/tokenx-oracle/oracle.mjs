// Differential oracle for wsref.js.tokenx: the real tokenx 1.3.0 (pinned in
// package.json; byte-identical to the copy bundled in @mastra/core 1.71.0).
//
// Protocol: one JSON object per stdin line
//   {"text": str, "start": int|null|absent, "end": int|null|absent}
// and one JSON object per stdout line, in order:
//   {"count": estimateTokenCount(text),
//    "slice": sliceByTokens(text, start, end),
//    "safe":  sliceByTokensSafe(text, start, end)}
// null/absent start or end are passed as `undefined` (tokenx defaults).
// JSON.stringify escapes lone surrogates as \udXXX (well-formed JSON.stringify),
// which Python's json.loads reads back as lone surrogate code points.
import { createInterface } from 'node:readline';
import { estimateTokenCount, sliceByTokens } from 'tokenx';

// Same as @mastra/core src/utils/slice-by-tokens.ts
const UNPAIRED_SURROGATE_RE = /[\uD800-\uDFFF]/gu;
function sliceByTokensSafe(text, start, end) {
  return sliceByTokens(text, start, end).replace(UNPAIRED_SURROGATE_RE, '\uFFFD');
}

const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of rl) {
  if (!line.trim()) continue;
  let out;
  try {
    const req = JSON.parse(line);
    const text = req.text;
    const start = req.start ?? undefined;
    const end = req.end ?? undefined;
    out = {
      count: estimateTokenCount(text),
      slice: sliceByTokens(text, start, end),
      safe: sliceByTokensSafe(text, start, end),
    };
  } catch (err) {
    out = { error: String(err && err.stack ? err.stack : err) };
  }
  process.stdout.write(JSON.stringify(out) + '\n');
}
