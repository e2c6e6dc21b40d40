// The @mastra/gcs provider (spec/protocol.md, "Runs on another filesystem provider").
//
// Selected by WSCONF_BRIDGE_FILESYSTEM=gcs: GCSFilesystem on a local GCS server (fake-gcs-server,
// started by the mastra-gcs adapter) through the filesystem's own `endpoint` option, with a fresh
// key prefix per session. The case's root folder is kept as a mirror of that prefix (lib/mirror.mjs).

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createMirror, sessionPrefix } from '../lib/mirror.mjs';

// @google-cloud/storage 7 takes this variable verbatim as its base URL (without /storage/v1) and
// prefers it to `endpoint`: set, every request misses. The endpoint option is what is tested.
delete process.env.STORAGE_EMULATOR_HOST;

const require = createRequire(import.meta.url);
const { GCSFilesystem } = await import('@mastra/gcs');

export const implementation = '@mastra/gcs';
export const version = JSON.parse(readFileSync(require.resolve('@mastra/gcs/package.json'), 'utf8')).version;

const ENDPOINT = process.env.WSCONF_GCS_ENDPOINT;
const BUCKET = process.env.WSCONF_GCS_BUCKET;
if (!ENDPOINT || !BUCKET) {
  throw new Error('WSCONF_BRIDGE_FILESYSTEM=gcs needs WSCONF_GCS_ENDPOINT and WSCONF_GCS_BUCKET');
}

/**
 * What this provider can represent (spec/capabilities.yaml). Left out, and why:
 * empty_dirs (mkdir writes nothing, so a folder exists only while an object is under it; a `dir/`
 * marker written by someone else is seen, but counts as content, so rmdir refuses it),
 * absolute_paths, containment, host_paths and local_identity (keys under a prefix: no absolute
 * paths, `..` or containment, not LocalFilesystem), symlinks and file_modes (objects
 * have neither), tilde_home, allowed_paths (LocalFilesystem options), sandbox/processes/isolation
 * (no sandbox is built on GCS) and nonroot.
 * media stays: stat() gives the object's contentType as mimeType, so read_file returns media.
 * bm25, vector and skills stay: they run on the filesystem's readdir/readFile, and their cases
 * were triaged here (conformance/expectations/mastra-gcs.yaml).
 */
export const capabilities = [
  'filesystem',
  'media',
  'read_only',
  'fs_interface',
  'posix_errors',
  'bm25',
  'vector',
  'skills',
];

// The mirror's own handle on the bucket: a GCSFilesystem without a prefix, so the harness's files
// are stored exactly as GCSFilesystem.writeFile stores them (contentType from the extension).
const admin = new GCSFilesystem({ bucket: BUCKET, endpoint: ENDPOINT });

/** The bucket's primitives, for lib/mirror.mjs. */
export const store = {
  name: 'gcs',
  lastModifiedStepMs: 1,  // `updated` has milliseconds

  async list(prefix) {
    const [files] = await admin.bucket.getFiles({ prefix, autoPaginate: true });
    // generation changes on every write, even of the same bytes (the etag may not)
    return files.map(f => ({
      key: f.name, etag: `${f.metadata.generation}:${f.metadata.etag}`, lastModified: new Date(f.metadata.updated),
    }));
  },

  async get(key) {
    return admin.readFile(key);
  },

  async put(key, body) {
    await admin.writeFile(key, body);
  },

  async remove(keys) {
    for (const key of keys) await admin.bucket.file(key).delete({ ignoreNotFound: true });
  },
};

/** The session's filesystem on a fresh prefix, and the mirror that keeps root in step with it. */
export function filesystem({ root, options }) {
  const prefix = sessionPrefix(root);
  const fs = new GCSFilesystem({ bucket: BUCKET, endpoint: ENDPOINT, prefix, ...options });
  return { filesystem: fs, mirror: createMirror(store, root, prefix) };
}
