"""ProcessHandle (upstream `sandbox/process-manager/process-handle.ts`): one spawned process.

Its retained output (RetainedOutputBuffer), exit code (None while running), wait and kill. The
process counts as finished when it has exited *and* both pipes are closed (Node's `close` event),
so a grandchild that keeps a pipe open keeps it running.
"""
from __future__ import annotations

import codecs
import os
import signal
import subprocess
import threading
import time

from ...js.errors import JsRangeError
from ...js.strings import js_number

DEFAULT_MAX_RETAINED_BYTES = 1024 * 1024


TIMEOUT_MAX = 2 ** 31 - 1   # setTimeout's limit; anything outside [1, TIMEOUT_MAX] fires after 1 ms


def validate_max_retained_bytes(value) -> float:
    """`validateMaxRetainedProcessOutputBytes`: a non-negative integer, or Infinity."""
    if value == float("inf"):
        return value
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value or value < 0 \
            or int(value) != value:
        raise JsRangeError("maxRetainedBytes must be a non-negative integer or Infinity")
    return value


def _utf8_len(ch: str) -> int:
    cp = ord(ch)
    return 1 if cp < 0x80 else 2 if cp < 0x800 else 3 if cp < 0x10000 else 4


class RetainedOutput:
    """The newest `max_bytes` UTF-8 bytes of a stream, cut at code points (RetainedOutputBuffer)."""

    def __init__(self, max_bytes: float):
        self.max_bytes = max_bytes
        self.text = ""
        self.bytes = 0
        self.dropped = 0

    def append(self, data: str) -> None:
        size = len(data.encode("utf-8", "surrogatepass"))
        if size == 0:
            return
        if self.max_bytes == 0:
            self.dropped += size
            return
        self.text += data
        self.bytes += size
        if self.bytes > self.max_bytes:
            i = 0
            while self.bytes > self.max_bytes and i < len(self.text):
                n = _utf8_len(self.text[i])
                self.bytes -= n
                self.dropped += n
                i += 1
            self.text = self.text[i:]

    def __str__(self) -> str:
        return self.text


class ProcessHandle:
    """One spawned process: retained output, exit code (None while running), wait and kill."""

    def __init__(self, popen: subprocess.Popen, command: str, timeout_ms: float | None,
                 max_retained: float = DEFAULT_MAX_RETAINED_BYTES, on_stdout=None, on_stderr=None,
                 with_reader: bool = False):
        self.popen = popen
        self.pid = str(popen.pid)
        self.command = command
        self.exit_code: int | None = None
        self.started = time.monotonic()
        validate_max_retained_bytes(max_retained)
        self._stdout = RetainedOutput(max_retained)
        self._stderr = RetainedOutput(max_retained)
        self._lock = threading.Lock()
        self._done = threading.Event()
        self._timed_out = False
        self._killed_by_signal = False
        self._execution_ms: int | None = None  # set at the close, as upstream's result is (Date.now() - startTime)
        self._timer = None
        if timeout_ms:  # upstream: `options?.timeout ? setTimeout(...) : undefined`
            delay = timeout_ms if 1 <= timeout_ms <= TIMEOUT_MAX else 1
            self._timer = threading.Timer(delay / 1000, self._on_timeout)
            self._timer.daemon = True
            self._timer.start()
        self._timeout_ms = timeout_ms
        # The output listeners: spawn's onStdout / onStderr (called with each decoded chunk and the pid),
        # and those a wait() adds for its duration. The timeout notice goes to the stderr ones too.
        self._listeners: dict[str, list] = {"stdout": [], "stderr": []}
        if on_stdout is not None:
            self._listeners["stdout"].append(lambda data: on_stdout(data, self.pid))
        if on_stderr is not None:
            self._listeners["stderr"].append(lambda data: on_stderr(data, self.pid))
        # The reader stream: every stdout chunk from its opening, ended when the process has exited
        # (whatever is retained: maxRetainedBytes bounds the retained copy only).
        self.reader_chunks: list[str] | None = None
        if with_reader:
            self.reader_chunks = []
            self._listeners["stdout"].append(self.reader_chunks.append)
        self._readers = [threading.Thread(target=self._read, args=(popen.stdout, self._stdout, "stdout"), daemon=True),
                         threading.Thread(target=self._read, args=(popen.stderr, self._stderr, "stderr"), daemon=True)]
        for t in self._readers:
            t.start()
        threading.Thread(target=self._close_watch, daemon=True).start()

    # -- output --------------------------------------------------------------------------------

    def _emit(self, name: str, text: str) -> None:
        with self._lock:
            listeners = list(self._listeners[name])
        for listener in listeners:
            try:
                listener(text)
            except Exception:
                pass  # a failing listener does not stop the stream

    def _read(self, stream, sink: RetainedOutput, name: str) -> None:
        decoder = codecs.getincrementaldecoder("utf-8")("replace")
        fd = stream.fileno()
        try:
            while True:
                chunk = os.read(fd, 65536)
                if not chunk:
                    break
                text = decoder.decode(chunk)
                if text:
                    with self._lock:
                        sink.append(text)
                    self._emit(name, text)
        except OSError:
            pass
        tail = decoder.decode(b"", final=True)
        if tail:
            with self._lock:
                sink.append(tail)
            self._emit(name, tail)
        stream.close()

    @property
    def stdout(self) -> str:
        with self._lock:
            return str(self._stdout)

    @property
    def stderr(self) -> str:
        with self._lock:
            return str(self._stderr)

    def snapshot(self) -> tuple[int | None, str, str]:
        """Exit code, stdout and stderr read together, so a finishing process is seen whole."""
        with self._lock:
            return self.exit_code, str(self._stdout), str(self._stderr)

    # -- lifecycle -----------------------------------------------------------------------------

    def _close_watch(self) -> None:
        code = self.popen.wait()
        for t in self._readers:
            t.join()
        if self._timer is not None:
            self._timer.cancel()
        notice = None
        with self._lock:
            self._execution_ms = int((time.monotonic() - self.started) * 1000)
            self._killed_by_signal = code < 0  # upstream: killed = signal !== null, also after a timeout
            if self._timed_out:
                notice = f"\nProcess timed out after {js_number(self._timeout_ms)}ms"
                self._stderr.append(notice)
                self.exit_code = 124
            else:
                self.exit_code = 128 if code < 0 else code
        if notice is not None:  # emitStderr(timeoutMsg): the listeners see it
            self._emit("stderr", notice)
        self._done.set()

    def _on_timeout(self) -> None:
        self._timed_out = True
        self._signal_tree(signal.SIGTERM)

    def _signal_tree(self, sig) -> None:
        try:
            os.killpg(self.popen.pid, sig)
        except OSError:
            try:
                self.popen.send_signal(sig)
            except OSError:
                pass

    def on_exit(self, fn) -> None:
        """Run fn once the process has exited (at once if it already has)."""
        threading.Thread(target=lambda: (self._done.wait(), fn()), daemon=True).start()

    def wait(self, timeout: float | None = None, on_stdout=None, on_stderr=None, abort_signal=None) -> dict:
        """on_stdout / on_stderr listen to the output (each chunk) until the wait ends; an abort of
        abort_signal during the wait kills the process."""
        added = [(n, f) for n, f in (("stdout", on_stdout), ("stderr", on_stderr)) if f is not None]
        with self._lock:
            for name, listener in added:
                self._listeners[name].append(listener)
        if abort_signal is not None:
            abort_signal.add_listener(self.kill)
        try:
            self._done.wait(timeout)
        finally:
            if abort_signal is not None:
                abort_signal.remove_listener(self.kill)
            with self._lock:
                for name, listener in added:
                    self._listeners[name].remove(listener)
        exit_code, out, err = self.snapshot()
        return {"success": exit_code == 0, "exitCode": exit_code, "stdout": out, "stderr": err,
                "executionTimeMs": self._execution_ms,
                "killed": self._killed_by_signal, "timedOut": self._timed_out,
                "stdoutTruncated": self._stdout.dropped > 0, "stderrTruncated": self._stderr.dropped > 0,
                "stdoutDroppedBytes": self._stdout.dropped, "stderrDroppedBytes": self._stderr.dropped}

    def write(self, data: bytes) -> None:
        """Write to stdin (the handle's `writer`; its one user, the LSP client, spawns with stdin a
        pipe). A process that has gone away makes it a no-op, as the upstream LSP client swallows
        write errors."""
        stdin = self.popen.stdin
        try:
            stdin.write(data)
            stdin.flush()
        except (BrokenPipeError, ValueError, OSError):
            pass

    # -- stdin ---------------------------------------------------------------------------------

    def _stdin(self):
        if self.exit_code is not None:
            raise Exception(f"Process {self.pid} has already exited with code {self.exit_code}")
        if self.popen.stdin is None:
            raise Exception(f"Process {self.pid} does not have stdin available")
        return self.popen.stdin

    def send_stdin(self, data: str) -> None:
        stdin = self._stdin()
        stdin.write(data.encode("utf-8"))
        stdin.flush()

    def close_stdin(self) -> None:
        stdin = self._stdin()
        if not stdin.closed:
            stdin.close()

    def writer_end(self, data: str | None = None) -> None:
        """writer.end(data): the data to stdin, then stdin closed; the first failure is the stream's error."""
        if data is not None:
            self.send_stdin(data)
        self.close_stdin()

    def reader_text(self, timeout: float | None = None) -> str:
        """What the reader stream delivered, once it has ended (the process has exited)."""
        self._done.wait(timeout)
        with self._lock:
            return "".join(self.reader_chunks or [])

    def kill(self) -> bool:
        """SIGKILL to the whole process group; False when the process had already finished."""
        if self.exit_code is not None:
            return False
        self._signal_tree(signal.SIGKILL)
        return True
