// Host provider resolvers for the wsconf bridge (spec/protocol.md, "Host functions").
//
// A resolver-backed filesystem or sandbox is a function of the request context; a case names one
// and the bridge builds it here. Each call is logged to the session's hook log and returns a new
// LocalFilesystem / LocalSandbox on the case's root (or on a folder below it named by a request
// context value). Resolved sandboxes are remembered so the session can destroy them on close:
// the workspace does not own them.

import { join } from 'node:path';

/** A RequestContext (or a plain object) as a plain object, for the log. */
export function plainContext(requestContext) {
  if (!requestContext) return {};
  if (typeof requestContext.entries === 'function') return Object.fromEntries(requestContext.entries());
  return { ...requestContext };
}

export function contextValue(requestContext, key) {
  if (!requestContext) return undefined;
  if (typeof requestContext.get === 'function') return requestContext.get(key);
  return requestContext[key];
}

function below(root, requestContext, key) {
  return key === undefined ? root : join(root, String(contextValue(requestContext, key)));
}

/** `{"$fn": "filesystemResolver", "options"?: {...}, "basePathKey"?: K}` */
export function filesystemResolver(spec, session, LocalFilesystem) {
  return asyncIf(spec, ({ requestContext }) => {
    session.hookLog.push({ hook: 'filesystemResolver', requestContext: plainContext(requestContext) });
    if (spec.returnsNothing === true) return undefined; // a resolver with no filesystem for this request
    return new LocalFilesystem({ basePath: below(session.root, requestContext, spec.basePathKey), ...(spec.options ?? {}) });
  });
}

/** `"async": true`: the resolver returns a Promise of its provider. */
function asyncIf(spec, resolve) {
  return spec.async === true ? async context => resolve(context) : resolve;
}

/** `{"$fn": "sandboxResolver", "options"?: {...}, "workingDirectoryKey"?: K}` */
export function sandboxResolver(spec, session, LocalSandbox) {
  const memo = new Map(); // with `memoize: true`: one sandbox per working directory
  return asyncIf(spec, ({ requestContext }) => {
    session.hookLog.push({ hook: 'sandboxResolver', requestContext: plainContext(requestContext) });
    if (spec.returnsNothing === true) return undefined; // a resolver with no sandbox for this request
    const { foregroundOnly, ...options } = spec.options ?? {};
    const workingDirectory = below(session.root, requestContext, spec.workingDirectoryKey);
    if (spec.memoize === true && memo.has(workingDirectory)) return memo.get(workingDirectory);
    const sandbox = new LocalSandbox({ workingDirectory, ...options });
    // foregroundOnly (capability foreground_sandbox): no process manager; close hands it back.
    if (foregroundOnly === true) {
      sandbox.wsconfProcesses = sandbox.processes;
      sandbox.processes = undefined;
    }
    session.resolvedSandboxes.push(sandbox);
    if (spec.memoize === true) memo.set(workingDirectory, sandbox);
    return sandbox;
  });
}

/** `{"$fn": "contextValue", "key": K}`: `({requestContext}) => requestContext.get(K)`. */
export function contextValueFn(spec) {
  // `default`: the value when the context is missing or has no such key
  return ({ requestContext } = {}) => contextValue(requestContext, spec.key) ?? spec.default;
}
