// Capability `native_fs` (spec/protocol.md, "Native walk and grep"): a test provider that gives
// the session's filesystem the optional native methods walk() and grep() of the
// WorkspaceFilesystem interface, implemented over the same local folder, so a case can see what
// list_files and grep do with a provider that has them. `workspace.native` picks each method's
// variant: "local" (works), "phantom" (the local answer plus made-up entries), "empty" (grep only: no results), "throw" (throws an Error), "unsupported" (grep only: throws
// UnsupportedGrepPatternError), "notFound" (walk only: throws DirectoryNotFoundError). Each call
// is logged to the session's hook log as {hook: "fs.walk", path, options} / {hook: "fs.grep",
// options}. `workspace.logger: "record"` installs a logger that logs
// {hook: "logger.<level>", message, data?} for info, warn and error (debug is dropped).

// A namespace import: a release before 1.67.0 has no UnsupportedGrepPatternError (native_fs is not
// in its hello, lib/core.mjs), and a named import of it would stop the bridge from loading there.
import * as Workspace from '@mastra/core/workspace';
import { Fault, isPlainObject, toWire } from './wire.mjs';

const VARIANTS = {
  walk: ['local', 'phantom', 'throw', 'notFound'], grep: ['local', 'phantom', 'empty', 'throw', 'unsupported'],
  // Not native methods: the provider's own readFile/writeFile, logged ("logged"), or a readFile that
  // returns bytes whatever the encoding ("bytes"), as a provider without text decoding would.
  readFile: ['logged', 'bytes'], writeFile: ['logged'],
  // Nor this: the optional resolveAbsolutePath taken away ("missing") or throwing ("throw").
  resolveAbsolutePath: ['missing', 'throw'],
};

// What the "phantom" variants add after the local results: entries no readdir or readFile shows,
// so a case sees the tool use the native answer (and how it filters it).
const PHANTOM_WALK = [{ name: 'phantom.txt', type: 'file', size: 7, path: 'phantom.txt' }];
const PHANTOM_GREP = [
  { path: '.hid/h.txt', matches: [{ line: 1, column: 0, text: 'hidden' }] },
  { path: 'sub/.git/c.txt', matches: [{ line: 1, column: 0, text: 'in git' }] },
  { path: 'pic.png', matches: [{ line: 1, column: 0, text: 'binary' }] },
  { path: './ghost.txt', matches: [{ line: 3, column: 2, text: 'a ghost line', before: ['one', 'two'], after: ['four'] }] },
];

function join(dir, name) {
  return dir === '' ? name : `${dir}/${name}`;
}

function under(path, rel) {
  const base = path.replace(/\/+$/, '');
  return base === '' || base === '.' ? rel : `${base}/${rel}`;
}

/** Depth-first, in readdir order: each entry as readdir gives it, plus its path from the walk root. */
async function walkLocal(fs, path, options = {}) {
  const maxDepth = options.maxDepth ?? Infinity;
  const out = [];
  const visit = async (rel, depth) => {
    const entries = await fs.readdir(rel === '' ? path : under(path, rel));
    for (const entry of entries) {
      const hidden = entry.name.startsWith('.');
      const keep = !hidden || options.includeHidden || (options.includeGitignoreFiles && entry.name === '.gitignore');
      if (!keep) continue;
      const entryPath = join(rel, entry.name);
      out.push({ ...entry, path: entryPath });
      if (entry.type === 'directory' && !entry.isSymlink && depth + 1 < maxDepth) await visit(entryPath, depth + 1);
    }
  };
  await visit('', 0);
  return out;
}

async function grepLocal(fs, options) {
  const flags = options.caseSensitive === false ? 'i' : '';
  const regex = new RegExp(options.pattern, flags);
  const context = options.contextLines ?? 0;
  const files = (await walkLocal(fs, options.path, { includeHidden: options.includeHidden }))
    .filter(entry => entry.type === 'file');
  const results = [];
  let total = 0;
  for (const file of files) {
    if (options.maxTotalMatches !== undefined && total >= options.maxTotalMatches) break;
    const content = await fs.readFile(under(options.path, file.path), { encoding: 'utf-8' });
    const lines = String(content).split('\n');
    const matches = [];
    for (let i = 0; i < lines.length; i++) {
      const m = regex.exec(lines[i]);
      if (!m) continue;
      const match = { line: i + 1, column: m.index, text: lines[i] };
      if (context > 0) {
        match.before = lines.slice(Math.max(0, i - context), i);
        match.after = lines.slice(i + 1, i + 1 + context);
      }
      matches.push(match);
      total++;
      if (options.maxCountPerFile !== undefined && matches.length >= options.maxCountPerFile) break;
      if (options.maxTotalMatches !== undefined && total >= options.maxTotalMatches) break;
    }
    if (matches.length) results.push({ path: file.path, matches });
  }
  return results;
}

/** Add the native methods `spec` names ({walk?, grep?}) to a filesystem instance. */
export function withNative(fs, spec, session) {
  if (!isPlainObject(spec)) throw new Fault('workspace.native must be an object: {walk?, grep?}');
  for (const [method, variant] of Object.entries(spec)) {
    if (!VARIANTS[method]?.includes(variant)) {
      throw new Fault(`workspace.native.${method} must be one of ${(VARIANTS[method] ?? []).join(', ')}: ${JSON.stringify(variant)}`);
    }
  }
  if (spec.walk) {
    fs.walk = async (path, options) => {
      session.hookLog.push(toWire({ hook: 'fs.walk', path, options: options ?? null }));
      if (spec.walk === 'throw') throw new Error('native walk failed');
      if (spec.walk === 'notFound') throw new Workspace.DirectoryNotFoundError(path);
      const entries = await walkLocal(fs, path, options);
      return spec.walk === 'phantom' ? [...entries, ...PHANTOM_WALK] : entries;
    };
  }
  if (spec.grep) {
    fs.grep = async options => {
      session.hookLog.push(toWire({ hook: 'fs.grep', options }));
      if (spec.grep === 'throw') throw new Error('native grep failed');
      if (spec.grep === 'unsupported') throw new Workspace.UnsupportedGrepPatternError(options.pattern, 'test provider');
      if (spec.grep === 'empty') return [];
      const results = await grepLocal(fs, options);
      return spec.grep === 'phantom' ? [...results, ...PHANTOM_GREP] : results;
    };
  }
  if (spec.resolveAbsolutePath === 'missing') fs.resolveAbsolutePath = undefined;
  if (spec.resolveAbsolutePath === 'throw') {
    fs.resolveAbsolutePath = () => {
      throw new Error('resolveAbsolutePath failed');
    };
  }
  if (spec.readFile) {
    const readFile = fs.readFile.bind(fs);
    fs.readFile = async (path, options) => {
      session.hookLog.push(toWire({ hook: 'fs.readFile', path, options: options ?? null }));
      if (spec.readFile === 'bytes') return Buffer.from(await readFile(path));
      return readFile(path, options);
    };
  }
  if (spec.writeFile) {
    const writeFile = fs.writeFile.bind(fs);
    fs.writeFile = async (path, content, options) => {
      session.hookLog.push(toWire({ hook: 'fs.writeFile', path, content }));
      return writeFile(path, content, options);
    };
  }
  return fs;
}

/**
 * A logger that logs info, warn and error calls to the hook log; debug too when `withDebug`
 * (`workspace.logger: "recordDebug"`); trace is dropped.
 */
export function recordingLogger(session, withDebug = false) {
  const record = level => (message, data) => {
    const entry = { hook: `logger.${level}`, message: String(message) };
    if (data !== undefined) entry.data = toWire(data);
    session.hookLog.push(entry);
  };
  const drop = () => {};
  return {
    info: record('info'), warn: record('warn'), error: record('error'),
    debug: withDebug ? record('debug') : drop, trace: drop,
    child: () => recordingLogger(session, withDebug),
  };
}
