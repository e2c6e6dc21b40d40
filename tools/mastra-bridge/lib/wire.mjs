// What crosses the wire (spec/protocol.md): JS values <-> JSON values, the Result shapes a call
// answers with, and Fault, the error that becomes a protocol fault instead of a Result.

import { log } from './log.mjs';

// --- faults ------------------------------------------------------------------------------------

/** The bridge could not carry out the request (bad params, no such session ...): `{ok: false, fault}`. */
export class Fault extends Error {}

export function isPlainObject(v) {
  return v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype;
}

export function needString(params, key) {
  const v = params[key];
  if (typeof v !== 'string' || v === '') throw new Fault(`params.${key} must be a non-empty string`);
  return v;
}

// --- value conversion --------------------------------------------------------------------------

/** JS value -> JSON value: Buffers as {$bytes}, Dates as {$date}, undefined as null. */
export function toWire(value, seen = new WeakSet()) {
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
export function fromWire(value) {
  if (Array.isArray(value)) return value.map(fromWire);
  if (isPlainObject(value)) {
    const keys = Object.keys(value);
    if (keys.length === 1 && keys[0] === '$bytes' && typeof value.$bytes === 'string') return Buffer.from(value.$bytes, 'base64');
    if (keys.length === 1 && keys[0] === '$date' && typeof value.$date === 'string') return new Date(value.$date);
    return Object.fromEntries(keys.map(k => [k, fromWire(value[k])]));
  }
  return value;
}

export function errorResult(err) {
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

/**
 * Extension (capability error_details): what an error is beyond message, code and name: the
 * constructor names along its prototype chain (its class up to Error), and its own enumerable
 * properties other than name, message, stack and code (path, operation, expectedMtime ...).
 */
export function errorDetails(err) {
  const classes = [];
  for (let proto = Object.getPrototypeOf(err ?? {}); proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    const name = proto.constructor?.name;
    if (name) classes.push(name);
  }
  const fields = {};
  if (err !== null && typeof err === 'object') {
    for (const [key, value] of Object.entries(err)) {
      if (['name', 'message', 'stack', 'code'].includes(key) || value === undefined) continue;
      fields[key] = toWire(value);
    }
  }
  return { classes, fields };
}

function isMedia(v) {
  return v !== null && typeof v === 'object' && v.__workspaceMedia === true;
}

export async function valueResult(output, tool) {
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
