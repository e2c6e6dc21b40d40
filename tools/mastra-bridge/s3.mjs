// S3 provider runs of the bridge (spec/protocol.md, "Runs on another filesystem provider: @mastra/s3").
//
// Started with WSCONF_BRIDGE_FILESYSTEM=s3, the bridge builds S3Filesystem from @mastra/s3 instead
// of LocalFilesystem. Each session gets its own key prefix in the bucket, and the session's local
// `root` folder is kept as a mirror of that prefix, so the harness lays out and checks files as
// usual:
//   open     uploads root's files (and an empty directory as a `dir/` marker, as mkdir writes it)
//   before   each call/fs/workspace op: what changed in root since the last sync (the harness's
//            `host` steps) is pushed to the bucket
//   after    each such op: the prefix is pulled back into root (changed objects downloaded, files
//            and folders that are gone removed)
//   close    deletes the session's objects
// Nothing else of the bridge changes; without the environment variable this file is not loaded.

import { readdirSync, lstatSync, readFileSync, writeFileSync, mkdirSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { S3Filesystem } = await import('@mastra/s3');
const {
  S3Client, ListObjectsV2Command, GetObjectCommand, PutObjectCommand, DeleteObjectsCommand,
} = await import('@aws-sdk/client-s3');

export const VERSION = JSON.parse(readFileSync(require.resolve('@mastra/s3/package.json'), 'utf8')).version;

const ENDPOINT = process.env.WSCONF_S3_ENDPOINT;
const BUCKET = process.env.WSCONF_S3_BUCKET;
const REGION = process.env.WSCONF_S3_REGION || 'us-east-1';
// Static test credentials: a local test server (moto) accepts any.
const CREDENTIALS = {
  accessKeyId: process.env.WSCONF_S3_ACCESS_KEY_ID || 'wsconf-test',
  secretAccessKey: process.env.WSCONF_S3_SECRET_ACCESS_KEY || 'wsconf-test',
};
if (!ENDPOINT || !BUCKET) {
  throw new Error('WSCONF_BRIDGE_FILESYSTEM=s3 needs WSCONF_S3_ENDPOINT and WSCONF_S3_BUCKET');
}

/**
 * What this provider can represent (spec/capabilities.yaml). Left out, and why:
 * local_paths (keys under a prefix, not a folder: no absolute paths, `..` or containment against a
 * base path), symlinks and file_modes (objects have neither), tilde_home (no home folder),
 * allowed_paths (a LocalFilesystem option), sandbox/processes/isolation_bwrap (no sandbox is
 * built on S3), nonroot (file permissions do not apply), bm25/skills/vector (search and skills
 * run on any filesystem, but their cases are not triaged for S3 yet), and media:
 * S3Filesystem.stat() gives no mimeType, and read_file decides media (and binary) from it, so it
 * never returns a media result.
 * empty_dirs stays: mkdir writes a `dir/` marker object and readdir/stat/isDirectory see it, so an
 * empty directory exists (the harness's empty setup folders are uploaded as such markers).
 */
export function capabilities(astEdit) {
  return [
    'filesystem',
    'empty_dirs',
    'read_only',
    'tool_config',
    'tool_hooks',
    'lifecycle',
    'fs_interface',
    'posix_errors',
    ...(astEdit ? ['ast_edit'] : []),
  ];
}

// The bridge's own client for setting up and mirroring (not the provider's, which the workspace owns).
const client = new S3Client({ region: REGION, endpoint: ENDPOINT, forcePathStyle: true, credentials: CREDENTIALS });

let nextPrefix = 1;

/** The provider for one session: a fresh prefix named after the case's temp folder. */
export function filesystem(root, options) {
  const prefix = `wsconf/${basename(dirname(root))}-${process.pid}-${nextPrefix++}`;
  const fs = new S3Filesystem({
    bucket: BUCKET, region: REGION, endpoint: ENDPOINT, forcePathStyle: true, ...CREDENTIALS, prefix, ...options,
  });
  return { fs, mirror: { root, prefix: `${prefix}/`, local: new Map(), remote: new Map() } };
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

/** Folders with nothing inside: the ones that need a marker object to exist in S3. */
function emptyDirs({ files, dirs }) {
  const parents = new Set();
  for (const rel of [...files.keys(), ...dirs]) {
    for (let i = rel.lastIndexOf('/'); i > 0; i = rel.lastIndexOf('/', i - 1)) parents.add(rel.slice(0, i));
  }
  return [...dirs].filter(d => !parents.has(d));
}

// --- the bucket side ----------------------------------------------------------------------------

/** Every object under the prefix: rel -> {etag, lastModified}; folder markers end in "/". */
async function listRemote(prefix) {
  const out = new Map();
  let token;
  do {
    const page = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix, ContinuationToken: token }));
    for (const obj of page.Contents ?? []) {
      const rel = obj.Key.slice(prefix.length);
      if (rel) out.set(rel, { etag: obj.ETag, lastModified: obj.LastModified });
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return out;
}

async function put(prefix, rel, body) {
  await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: prefix + rel, Body: body }));
}

async function remove(prefix, rels) {
  for (let i = 0; i < rels.length; i += 1000) {
    const batch = rels.slice(i, i + 1000);
    if (batch.length) await client.send(new DeleteObjectsCommand({ Bucket: BUCKET, Delete: { Objects: batch.map(rel => ({ Key: prefix + rel })) } }));
  }
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
  for (const rel of local.files.keys()) await put(mirror.prefix, rel, readFileSync(join(mirror.root, rel)));
  for (const dir of emptyDirs(local)) await put(mirror.prefix, `${dir}/`, new Uint8Array(0));
  mirror.local = local.files;
  mirror.dirs = local.dirs;
  mirror.remote = await listRemote(mirror.prefix);
}

/** Before an op: what the harness changed in root since the last sync goes to the bucket. */
export async function push(mirror) {
  const local = scanLocal(mirror.root);
  let changed = local.files.size !== mirror.local.size || local.dirs.size !== mirror.dirs.size
    || [...local.dirs].some(d => !mirror.dirs.has(d));
  for (const [rel, print] of local.files) {
    if (mirror.local.get(rel) === print) continue;
    changed = true;
    // An external change happens later than what the provider saw: S3's LastModified has whole
    // seconds, so a rewrite waits until its second is past the object's current one (as the
    // harness's `touch` moves the mtime 2 s on).
    const before = mirror.remote.get(rel)?.lastModified;
    if (before) {
      const wait = (Math.floor(before.getTime() / 1000) + 1) * 1000 - Date.now();
      if (wait > 0) await new Promise(resolve => setTimeout(resolve, wait + 5));
    }
    await put(mirror.prefix, rel, readFileSync(join(mirror.root, rel)));
  }
  if (!changed) return;  // the usual case: no host step since the last sync
  const gone = [...mirror.local.keys()].filter(rel => !local.files.has(rel));
  const markers = new Set(emptyDirs(local));
  const staleMarkers = [...mirror.remote.keys()].filter(rel => rel.endsWith('/') && !local.dirs.has(rel.slice(0, -1)));
  await remove(mirror.prefix, [...gone, ...staleMarkers]);
  for (const dir of markers) if (!mirror.remote.has(`${dir}/`)) await put(mirror.prefix, `${dir}/`, new Uint8Array(0));
  mirror.local = local.files;
  mirror.dirs = local.dirs;
  mirror.remote = await listRemote(mirror.prefix);
}

/** After an op: root becomes what the prefix holds (objects that changed are downloaded). */
export async function pull(mirror) {
  const remote = await listRemote(mirror.prefix);
  const files = new Map();
  const dirs = new Set();
  for (const [rel, obj] of remote) {
    if (!representable(rel)) {
      console.error(`[mastra-bridge] s3 mirror: key ${JSON.stringify(mirror.prefix + rel)} has no local path; not mirrored`);
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
    const got = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: mirror.prefix + rel }));
    const body = Buffer.from(await got.Body.transformToByteArray());
    try {
      if (lstatSync(path).isDirectory()) rmSync(path, { recursive: true, force: true });
    } catch { /* absent */ }
    try {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, body);
    } catch (err) {
      console.error(`[mastra-bridge] s3 mirror: cannot write ${rel} locally (${err.code ?? err.message}); not mirrored`);
    }
  }
  const after = scanLocal(mirror.root);
  mirror.local = after.files;
  mirror.dirs = after.dirs;
  mirror.remote = remote;
}

/** At close: the session's objects are deleted. */
export async function clear(mirror) {
  await remove(mirror.prefix, [...(await listRemote(mirror.prefix)).keys()]);
}

/** An op of a session with a mirror: push before, pull after (also when the op faults). */
export function mirrored(op, getSession) {
  return async params => {
    const mirror = getSession(params).s3mirror;
    if (!mirror) return op(params);
    await push(mirror);
    try {
      return await op(params);
    } finally {
      await pull(mirror);
    }
  };
}
