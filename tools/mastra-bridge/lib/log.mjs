// The bridge's own log lines. They go to stderr, because stdout carries protocol lines only.

export function log(...args) {
  console.error('[mastra-bridge]', ...args);
}
