// The @mastra/s3 provider (spec/protocol.md, "Runs on another filesystem provider").
//
// Selected by WSCONF_BRIDGE_FILESYSTEM=s3: S3Filesystem instead of LocalFilesystem, with static
// test credentials, the server's endpoint, and a fresh key prefix per session so cases stay
// independent and run in parallel. The case's root folder is kept as a mirror of that prefix
// (lib/mirror.mjs); this file gives the mirror the bucket's primitives.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createMirror, sessionPrefix } from '../lib/mirror.mjs';

const require = createRequire(import.meta.url);
const { S3Filesystem } = await import('@mastra/s3');
const {
  S3Client, ListObjectsV2Command, GetObjectCommand, PutObjectCommand, DeleteObjectsCommand,
} = await import('@aws-sdk/client-s3');

export const implementation = '@mastra/s3';
export const version = JSON.parse(readFileSync(require.resolve('@mastra/s3/package.json'), 'utf8')).version;

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
 * absolute_paths, containment, host_paths and local_identity (keys under a prefix, not a folder
 * of this machine: no absolute paths, `..` or containment against a base path), symlinks and file_modes (objects have neither), tilde_home (no home folder),
 * allowed_paths (a LocalFilesystem option), sandbox/processes/isolation_bwrap (no sandbox is
 * built on S3), nonroot (file permissions do not apply), bm25/skills/vector (search and skills
 * run on any filesystem, but their cases are not triaged for S3 yet), and media:
 * S3Filesystem.stat() gives no mimeType, and read_file decides media (and binary) from it, so it
 * never returns a media result.
 * empty_dirs stays: mkdir writes a `dir/` marker object and readdir/stat/isDirectory see it, so an
 * empty directory exists (the harness's empty setup folders are uploaded as such markers).
 */
export const capabilities = [
  'filesystem',
  'empty_dirs',
  'read_only',
  'fs_interface',
  'posix_errors',
];

// The bridge's own client for setting up and mirroring (not the provider's, which the workspace owns).
const client = new S3Client({ region: REGION, endpoint: ENDPOINT, forcePathStyle: true, credentials: CREDENTIALS });

/** The bucket's primitives, for lib/mirror.mjs. */
export const store = {
  name: 's3',
  lastModifiedStepMs: 1000,  // S3's LastModified has whole seconds

  async list(prefix) {
    const out = [];
    let token;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix, ContinuationToken: token }));
      for (const obj of page.Contents ?? []) out.push({ key: obj.Key, etag: obj.ETag, lastModified: obj.LastModified });
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return out;
  },

  async get(key) {
    const got = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
    return Buffer.from(await got.Body.transformToByteArray());
  },

  async put(key, body) {
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: body }));
  },

  async remove(keys) {
    // DeleteObjects takes at most 1000 keys.
    for (let i = 0; i < keys.length; i += 1000) {
      const batch = keys.slice(i, i + 1000);
      await client.send(new DeleteObjectsCommand({ Bucket: BUCKET, Delete: { Objects: batch.map(Key => ({ Key })) } }));
    }
  },
};

/**
 * The session's filesystem on a fresh prefix, and the mirror that keeps root in step with it.
 * `workspace.filesystem` options are passed as given: host functions in them are not resolved
 * (the one case with any also needs a sandbox, so it is unsupported here).
 */
export function filesystem({ root, options }) {
  const prefix = sessionPrefix(root);
  const fs = new S3Filesystem({
    bucket: BUCKET, region: REGION, endpoint: ENDPOINT, forcePathStyle: true, ...CREDENTIALS, prefix, ...options,
  });
  return { filesystem: fs, mirror: createMirror(store, root, prefix) };
}
