// A case's local root folder kept as a mirror of a session's key prefix in an object store
// (spec/protocol.md, "Runs on another filesystem provider"). The harness lays out and checks files
// in root as usual; the provider's filesystem only sees the bucket:
//   open     uploads root's files (and an empty directory as a `dir/` marker, as mkdir writes it)
//   before   each call/fs/workspace op: what changed in root since the last sync (the harness's
//            `host` steps) is pushed to the bucket
//   after    each such op: the prefix is pulled back into root (changed objects downloaded, files
//            and folders that are gone removed)
//   close    deletes the session's objects
// An object-store provider (providers/s3.mjs) gives only the store's primitives:
//   store = {
//     name,                     // for log lines ("s3 mirror: ...")
//     list(prefix),             // every object under prefix: [{key, etag, lastModified: Date}]
//     get(key),                 // the object's bytes, as a Buffer
//     put(key, body),
//     remove(keys),             // delete these keys (never called with none)
//     lastModifiedStepMs,       // resolution of lastModified (S3: whole seconds, 1000)
//   }

import { readdirSync, lstatSync, readFileSync, writeFileSync, mkdirSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { log } from './log.mjs';

let nextPrefix = 1;

/** A fresh key prefix for one session, named after the case's temp folder (no trailing slash). */
export function sessionPrefix(root) {
  return `wsconf/${basename(dirname(root))}-${process.pid}-${nextPrefix++}`;
}

/** The mirror state of one session: root <-> `${prefix}/` in the store. */
export function createMirror(store, root, prefix) {
  return { store, root, prefix: `${prefix}/`, local: new Map(), dirs: new Set(), remote: new Map() };
}

// --- the local side -----------------------------------------------------------------------------

/** root's files (rel -> "size:mtime") and folders; symlinks and other entries are left out. */
function scanLocal(root) {
  const files = new Map();
  const dirs = new Set();
  const walk = rel => {
    for (const entry of readdirSync(join(root, rel), { withFileTypes: true })) {
      const childRel = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        dirs.add(childRel);
        walk(childRel);
      } else if (entry.isFile()) {
        const st = lstatSync(join(root, childRel), { bigint: true });
        files.set(childRel, `${st.size}:${st.mtimeNs}`);
      }
    }
  };
  walk('');
  return { files, dirs };
}

/** Folders with nothing inside: the ones that need a marker object to exist in the store. */
function emptyDirs({ files, dirs }) {
  const parents = new Set();
  for (const rel of [...files.keys(), ...dirs]) {
    for (let i = rel.lastIndexOf('/'); i > 0; i = rel.lastIndexOf('/', i - 1)) parents.add(rel.slice(0, i));
  }
  return [...dirs].filter(d => !parents.has(d));
}

// --- the store side -----------------------------------------------------------------------------

/** Every object under the prefix: rel -> {etag, lastModified}; folder markers end in "/". */
async function listRemote({ store, prefix }) {
  const out = new Map();
  for (const obj of await store.list(prefix)) {
    const rel = obj.key.slice(prefix.length);
    if (rel) out.set(rel, { etag: obj.etag, lastModified: obj.lastModified });
  }
  return out;
}

async function put({ store, prefix }, rel, body) {
  await store.put(prefix + rel, body);
}

async function remove({ store, prefix }, rels) {
  if (rels.length) await store.remove(rels.map(rel => prefix + rel));
}

/** A key the local folder can hold: no empty, `.` or `..` segments. */
function representable(rel) {
  const parts = (rel.endsWith('/') ? rel.slice(0, -1) : rel).split('/');
  return parts.every(p => p !== '' && p !== '.' && p !== '..');
}

// --- syncing ------------------------------------------------------------------------------------

/** At open: every file of root becomes an object, every empty folder a `dir/` marker. */
export async function upload(mirror) {
  const local = scanLocal(mirror.root);
  for (const rel of local.files.keys()) await put(mirror, rel, readFileSync(join(mirror.root, rel)));
  for (const dir of emptyDirs(local)) await put(mirror, `${dir}/`, new Uint8Array(0));
  mirror.local = local.files;
  mirror.dirs = local.dirs;
  mirror.remote = await listRemote(mirror);
}

/** Before an op: what the harness changed in root since the last sync goes to the store. */
export async function push(mirror) {
  const local = scanLocal(mirror.root);
  let changed = local.files.size !== mirror.local.size || local.dirs.size !== mirror.dirs.size
    || [...local.dirs].some(d => !mirror.dirs.has(d));
  for (const [rel, print] of local.files) {
    if (mirror.local.get(rel) === print) continue;
    changed = true;
    // An external change happens later than what the provider saw: when the store's lastModified
    // is coarse (S3: whole seconds), a rewrite waits until its step is past the object's current
    // one (as the harness's `touch` moves the mtime 2 s on).
    const before = mirror.remote.get(rel)?.lastModified;
    if (before) {
      const step = mirror.store.lastModifiedStepMs ?? 1000;
      const wait = (Math.floor(before.getTime() / step) + 1) * step - Date.now();
      if (wait > 0) await new Promise(resolve => setTimeout(resolve, wait + 5));
    }
    await put(mirror, rel, readFileSync(join(mirror.root, rel)));
  }
  if (!changed) return;  // the usual case: no host step since the last sync
  const gone = [...mirror.local.keys()].filter(rel => !local.files.has(rel));
  const markers = new Set(emptyDirs(local));
  const staleMarkers = [...mirror.remote.keys()].filter(rel => rel.endsWith('/') && !local.dirs.has(rel.slice(0, -1)));
  await remove(mirror, [...gone, ...staleMarkers]);
  for (const dir of markers) if (!mirror.remote.has(`${dir}/`)) await put(mirror, `${dir}/`, new Uint8Array(0));
  mirror.local = local.files;
  mirror.dirs = local.dirs;
  mirror.remote = await listRemote(mirror);
}

/** After an op: root becomes what the prefix holds (objects that changed are downloaded). */
export async function pull(mirror) {
  const remote = await listRemote(mirror);
  const files = new Map();
  const dirs = new Set();
  for (const [rel, obj] of remote) {
    if (!representable(rel)) {
      log(`${mirror.store.name} mirror: key ${JSON.stringify(mirror.prefix + rel)} has no local path; not mirrored`);
      continue;
    }
    const parts = rel.split('/');
    for (let i = 1; i < parts.length; i++) dirs.add(parts.slice(0, i).join('/'));
    if (!rel.endsWith('/')) files.set(rel, obj);
  }
  // Remove what is gone (files first, then folders deepest first), then write what changed.
  const before = scanLocal(mirror.root);
  for (const rel of before.files.keys()) if (!files.has(rel) || dirs.has(rel)) rmSync(join(mirror.root, rel), { force: true });
  for (const rel of [...before.dirs].sort((a, b) => b.length - a.length)) {
    if (!dirs.has(rel)) rmSync(join(mirror.root, rel), { recursive: true, force: true });
  }
  for (const dir of [...dirs].sort((a, b) => a.length - b.length)) {
    if (files.has(dir)) continue;  // a key both a file and a folder prefix: the file wins locally
    const path = join(mirror.root, dir);
    try {
      if (!lstatSync(path).isDirectory()) rmSync(path, { force: true });
    } catch { /* absent */ }
    mkdirSync(path, { recursive: true });
  }
  for (const [rel, obj] of files) {
    const known = mirror.remote.get(rel);
    const path = join(mirror.root, rel);
    let present = false;
    try {
      present = lstatSync(path).isFile();
    } catch { /* absent */ }
    if (present && known && known.etag === obj.etag) continue;
    const body = await mirror.store.get(mirror.prefix + rel);
    try {
      if (lstatSync(path).isDirectory()) rmSync(path, { recursive: true, force: true });
    } catch { /* absent */ }
    try {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, body);
    } catch (err) {
      log(`${mirror.store.name} mirror: cannot write ${rel} locally (${err.code ?? err.message}); not mirrored`);
    }
  }
  const after = scanLocal(mirror.root);
  mirror.local = after.files;
  mirror.dirs = after.dirs;
  mirror.remote = remote;
}

/** At close: the session's objects are deleted. */
export async function clear(mirror) {
  await remove(mirror, [...(await listRemote(mirror)).keys()]);
}

/** An op of a session with a mirror: push before, pull after (also when the op faults). */
export function mirrored(op, getSession) {
  return async params => {
    const mirror = getSession(params).mirror;
    if (!mirror) return op(params);
    await push(mirror);
    try {
      return await op(params);
    } finally {
      await pull(mirror);
    }
  };
}
