// Host functions (spec/protocol.md, "Host functions"). JSON cannot carry functions, so a case's
// workspace block names them from a closed vocabulary: hooks that record or skip, and predicates
// on the request context or the call's arguments. They are turned into real functions here.

import { LocalFilesystem, LocalSandbox } from '@mastra/core/workspace';
import { contextValue, contextValueFn, filesystemResolver, plainContext, sandboxResolver } from './host-providers.mjs';
import { Fault, isPlainObject, toWire } from './wire.mjs';

/**
 * A sandbox lifecycle hook (onStart, onStop, onDestroy): logs {hook: label, sandboxId, status,
 * outcome}, waits delayMs (awaited by the sandbox), runs `run` through the sandbox it was handed and
 * logs {hook: label + '.ran', exitCode, stdout}, logs {hook: label + '.done'}; the first `failTimes`
 * calls then throw new Error(message).
 */
function lifecycleHook(spec, session, where) {
  const label = spec.label ?? where;
  let calls = 0;
  return async args => {
    calls += 1;
    const entry = { hook: label, sandboxId: args?.sandbox?.id, status: args?.sandbox?.status, outcome: args?.outcome };
    // the session's workspace, as the hook runs (set once the workspace is built)
    if (spec.workspaceStatus === true) entry.workspaceStatus = session.workspace?.status ?? null;
    session.hookLog.push(entry);
    if (spec.delayMs) await new Promise(resolve => setTimeout(resolve, Math.min(Number(spec.delayMs) || 0, 10000)));
    if (typeof spec.run === 'string') {
      const result = await args.sandbox.executeCommand(spec.run);
      session.hookLog.push({ hook: `${label}.ran`, exitCode: result.exitCode, stdout: result.stdout });
    }
    session.hookLog.push({ hook: `${label}.done` });
    if (calls <= (Number(spec.failTimes) || 0)) throw new Error(spec.message ?? `${label} failed`);
  };
}

/** The function a spec names. `where` is the config key it sits under: the hook name in the log. */
export function hostFunction(spec, session, where) {
  const kind = spec.$hook ?? spec.$fn;
  if (spec.$hook !== undefined) {
    if (kind === 'record') {
      return ctx => {
        const entry = { hook: where, toolName: ctx.toolName, workspaceToolName: ctx.workspaceToolName, input: ctx.input };
        if (where === 'afterToolCall') {
          entry.output = ctx.output === undefined ? null : ctx.output;
          entry.error = ctx.error ? String(ctx.error.message ?? ctx.error) : null;
        }
        if (spec.context === true) {
          // capability context_probes: the keys the hook was handed, in order, and its context's request context
          entry.keys = Object.keys(ctx);
          const rc = ctx.context?.requestContext;
          entry.requestContext = rc === undefined ? null : toWire(plainContext(rc));
        }
        session.hookLog.push(entry);
        return undefined;
      };
    }
    if (kind === 'skip') {
      return ctx => {
        session.hookLog.push({ hook: where, toolName: ctx.toolName, workspaceToolName: ctx.workspaceToolName, input: ctx.input });
        return { proceed: false, output: spec.output };
      };
    }
    if (kind === 'throw') {
      return () => {
        throw new Error(spec.message ?? 'hook failed');
      };
    }
    if (kind === 'sleep') {
      // Logs like `record`, then holds the call for `ms` milliseconds (inside the write lock).
      return async ctx => {
        session.hookLog.push({ hook: where, toolName: ctx.toolName, workspaceToolName: ctx.workspaceToolName, input: ctx.input });
        // pathMs: {path: ms} overrides ms for a call whose input.path is that string.
        const ms = isPlainObject(spec.pathMs) && typeof ctx.input?.path === 'string' && Object.hasOwn(spec.pathMs, ctx.input.path)
          ? spec.pathMs[ctx.input.path] : spec.ms;
        await new Promise(resolve => setTimeout(resolve, Math.min(Number(ms) || 0, 10000)));
        return undefined;
      };
    }
  } else {
    if (kind === 'const') return () => spec.value;
    if (kind === 'contextEquals') return ({ requestContext }) => contextValue(requestContext, spec.key) === spec.value;
    if (kind === 'argStartsWith') return ({ args }) => typeof args?.[spec.arg] === 'string' && args[spec.arg].startsWith(spec.prefix);
    if (kind === 'mergeEnv') return env => ({ ...env, ...spec.env });
    if (kind === 'omitEnv') return env => Object.fromEntries(Object.entries(env).filter(([k]) => !spec.keys.includes(k)));
    if (kind === 'startsWith') return value => typeof value === 'string' && value.startsWith(spec.prefix);
    if (kind === 'recordContext') {
      // capability context_probes: logs the keys a config function is handed, its request context
      // (a plain object) and its workspace's id, and returns `value`
      return (arg = {}) => {
        session.hookLog.push({ hook: where, keys: Object.keys(arg ?? {}),
          requestContext: arg?.requestContext === undefined ? null : toWire(plainContext(arg.requestContext)),
          workspace: arg?.workspace?.id ?? null });
        return spec.value;
      };
    }
    if (kind === 'contextValue') {
      const fn = contextValueFn(spec);
      if (spec.log !== true) return fn;
      // `log`: each call logs whether it got a request context, and which
      return (arg = {}) => {
        session.hookLog.push(arg.requestContext === undefined ? { hook: where, requestContext: null }
          : { hook: where, requestContext: plainContext(arg.requestContext) });
        return fn(arg);
      };
    }
    if (kind === 'appendItems') return prev => [...prev, ...spec.items];
    if (kind === 'async') return async () => spec.value;
    if (kind === 'lifecycleHook') return lifecycleHook(spec, session, where);
    if (kind === 'classRef') {
      // the provider class itself (not an instance): the mistake Workspace guards against
      const classes = { LocalFilesystem, LocalSandbox };
      if (!classes[spec.class]) throw new Fault(`classRef.class must be LocalFilesystem or LocalSandbox`);
      return classes[spec.class];
    }
    if (kind === 'composeStart') {
      // setOnStart's updater: logs whether it was handed a previous hook, then returns a hook that
      // runs the previous one first (previous: "before") or ignores it (previous: "ignore").
      const hook = lifecycleHook(spec.hook ?? {}, session, spec.hook?.label ?? 'onStart');
      return previous => {
        session.hookLog.push({ hook: 'setOnStart', hadPrevious: typeof previous === 'function' });
        return async args => {
          if (spec.previous === 'before' && previous) await previous(args);
          await hook(args);
        };
      };
    }
    if (kind === 'extendInstructions') {
      return ({ defaultInstructions, requestContext }) => defaultInstructions + spec.text + (spec.key === undefined ? ''
        : requestContext === undefined ? '(no requestContext)' : String(contextValue(requestContext, spec.key)));
    }
    if (kind === 'recordCall') {
      return (...args) => {
        session.hookLog.push({ hook: where, args: toWire(args) });
        return undefined;
      };
    }
    if (kind === 'onMount') {
      // Capability sandbox_mounts: logs the hook's arguments, returns `results[mountPath]` (absent:
      // undefined, the default mount).
      return ({ filesystem, mountPath, config, sandbox, workspace }) => {
        session.hookLog.push({ hook: 'onMount', mountPath, filesystem: filesystem.id, provider: filesystem.provider,
          config: toWire(config), sandbox: sandbox?.id ?? null, workspace: workspace?.id ?? null });
        const results = isPlainObject(spec.results) ? spec.results : {};
        return Object.hasOwn(results, mountPath) ? results[mountPath] : undefined;
      };
    }
    if (kind === 'filesystemResolver') return filesystemResolver(spec, session, LocalFilesystem);
    if (kind === 'sandboxResolver') return sandboxResolver(spec, session, LocalSandbox);
    if (kind === 'throw') {
      return () => {
        throw new Error(spec.message ?? 'config function failed');
      };
    }
  }
  throw new Fault(`unknown host function ${JSON.stringify(spec)} at ${where}`);
}

export function isHostFunction(v) {
  return isPlainObject(v) && (v.$hook !== undefined || v.$fn !== undefined);
}

/** A config value with every host-function spec in it, at any depth, replaced by its function. */
export function withHostFunctions(value, session, where = 'tools') {
  if (isHostFunction(value)) return hostFunction(value, session, where);
  if (Array.isArray(value)) return value.map(v => withHostFunctions(v, session, where));
  if (isPlainObject(value)) {
    const out = {};
    for (const [k, v] of Object.entries(value)) out[k] = withHostFunctions(v, session, k);
    return out;
  }
  return value;
}
