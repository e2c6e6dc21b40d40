// Extension (capability tool_tracing, spec/protocol.md `call`): a recording parent span put in a
// tool call's context, so the WORKSPACE_ACTION child spans a tool starts (tools/tracing.ts
// startWorkspaceSpan) come back with the Result as plain records, in the order they were created.

import { errorResult } from './wire.mjs';

/** A parent span whose createChildSpan records {type, name, input, attributes} into `records`. */
export function recordingSpan(records) {
  return {
    createChildSpan(options = {}) {
      const record = { type: options.type, name: options.name, input: options.input, attributes: options.attributes };
      records.push(record);
      const children = [];
      const child = recordingSpan(children);
      const close = (kind, value) => {
        if (record.end !== undefined || record.error !== undefined) record.closedAgain = true;
        else record[kind] = value;
        if (children.length > 0) record.children = children;
      };
      child.end = (opts = {}) => close('end', { output: opts.output, attributes: opts.attributes });
      child.error = (opts = {}) => {
        const { name, message } = errorResult(opts.error);
        close('error', { error: { name, message }, attributes: opts.attributes });
      };
      return child;
    },
  };
}
