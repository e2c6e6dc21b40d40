// Extension (capability process_handles, spec/protocol.md `workspace`): a spawned process's handle.
// `process.spawn` [command, options] calls sandbox.processes.spawn, answers the pid (a string, so a
// case captures it as {{pid}}) and keeps the handle by it, with
// its reader stream opened at once (nothing can arrive before this statement runs), so
// `process.reader` answers every stdout chunk the stream delivered once it has ended. The others
// are the handle's own members: wait, sendStdin, closeStdin, writerEnd (writer.end(data):
// resolved on 'finish', or the error the stream emits), and the stdout and stderr getters (the
// output retained so far).
import { Fault } from './wire.mjs';

function handleOf(session, pid) {
  const kept = session.handles?.get(pid);
  if (!kept) throw new Fault(`process.*: no process ${JSON.stringify(pid)} was spawned by process.spawn in this session`);
  return kept;
}

export async function processOp(session, member, args) {
  if (member === 'spawn') {
    const [command, options] = args;
    const handle = await session.workspace.sandbox.processes.spawn(command, options ?? {});
    const chunks = [];
    const reader = handle.reader;
    reader.on('data', chunk => chunks.push(chunk.toString()));
    const ended = new Promise(resolve => reader.on('end', resolve));
    session.handles ??= new Map();
    session.handles.set(handle.pid, { handle, chunks, ended });
    return handle.pid;
  }
  const kept = handleOf(session, args[0]);
  switch (member) {
    case 'wait':
      return kept.handle.wait();
    case 'sendStdin':
      return kept.handle.sendStdin(args[1]);
    case 'closeStdin':
      return kept.handle.closeStdin();
    case 'writerEnd':
      return new Promise((resolve, reject) => {
        const writer = kept.handle.writer;
        writer.once('error', reject);
        writer.once('finish', () => resolve(undefined));
        if (args.length > 1) writer.end(args[1]);
        else writer.end();
      });
    case 'stdout':
      return kept.handle.stdout;
    case 'stderr':
      return kept.handle.stderr;
    case 'reader':
      await kept.ended;
      return kept.chunks.join('');
    default:
      throw new Fault(`process.${member} is not a process_handles method`);
  }
}
