// Extension (capability clock_control, spec/protocol.md `workspace`): `clock.advance` [ms] moves
// Date.now() forward by ms for the rest of the session, so a case can pass the skills staleness
// cooldown (30 s) and glob re-resolve interval (5 s) of @mastra/core without waiting them out.
// Only Date.now() moves (what those intervals read); file times, timers and `new Date()` stay real.
import { Fault } from './wire.mjs';

const realNow = Date.now.bind(Date);
let offsetMs = 0;
Date.now = () => realNow() + offsetMs;

export function advanceClock(ms) {
  if (!Number.isInteger(ms) || ms < 0) throw new Fault('clock.advance takes a non-negative whole number of milliseconds');
  offsetMs += ms;
}

/** Back to the real clock (a session's close: the next case starts unmoved). */
export function resetClock() {
  offsetMs = 0;
}
