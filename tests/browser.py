"""Headless Chromium for the tests, driven over the DevTools protocol on a pipe
(--remote-debugging-pipe): no driver program, no port, no network. Every wait has a deadline; the
browser's process group is killed on close."""
from __future__ import annotations

import base64
import json
import os
import select
import shutil
import signal
import subprocess
import time
from pathlib import Path

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
MISSING = ("chromium is not installed (Debian: apt-get install -y chromium; .ci/run installs it): "
           "the site is not checked in a real browser here")
# No network here, and none wanted: nothing in the background may try to reach it.
QUIET = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
         "--no-default-browser-check", "--disable-background-networking", "--disable-component-update",
         "--disable-default-apps", "--disable-extensions", "--disable-sync", "--metrics-recording-only",
         "--disable-features=Translate,MediaRouter,OptimizationHints", "--mute-audio", "--hide-scrollbars"]


class BrowserError(AssertionError):
    pass


class Chromium:
    def __init__(self, profile: Path, width: int = 1400, height: int = 1000, deadline: float = 60.0):
        self.deadline = deadline
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()

        def pipes_as_3_and_4():  # the fds the protocol pipe uses; moved high first, so neither clobbers the other
            high = [os.dup2(fd, 100 + n) for n, fd in enumerate((to_browser_r, from_browser_w))]
            os.dup2(high[0], 3)  # dup2 makes them inheritable; every other fd of ours is close-on-exec
            os.dup2(high[1], 4)
        self.log = open(profile.parent / "chromium.log", "wb")
        self.proc = subprocess.Popen([CHROMIUM, *QUIET, "--remote-debugging-pipe", f"--user-data-dir={profile}",
                                      "about:blank"], stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log,
                                     preexec_fn=pipes_as_3_and_4, close_fds=False, start_new_session=True)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._buffer = b""
        self._next = 0
        self.events: list[dict] = []
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            self.call(f"{domain}.enable", session=True)
        self.call("Emulation.setDeviceMetricsOverride", session=True, width=width, height=height,
                  deviceScaleFactor=1, mobile=False)

    # -- the protocol -------------------------------------------------------------------------------

    def _send(self, message: dict) -> None:
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")

    def _receive(self, until: float) -> dict:
        while b"\0" not in self._buffer:
            left = until - time.monotonic()
            if left <= 0 or not select.select([self._from_browser], [], [], left)[0]:
                raise BrowserError(f"chromium did not answer within {self.deadline} s (its log: {self.log.name})")
            chunk = os.read(self._from_browser, 1 << 16)
            if not chunk:
                raise BrowserError(f"chromium closed the protocol pipe (its log: {self.log.name})")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method: str, session: bool = False, **params) -> dict:
        self._next += 1
        message = {"id": self._next, "method": method, "params": params}
        if session:
            message["sessionId"] = self.session
        self._send(message)
        until = time.monotonic() + self.deadline
        while True:
            answer = self._receive(until)
            if answer.get("id") == self._next:
                if "error" in answer:
                    raise BrowserError(f"{method}: {answer['error']}")
                return answer.get("result", {})
            self.events.append(answer)

    def wait_for(self, method: str) -> dict:
        until = time.monotonic() + self.deadline
        while True:
            for n, event in enumerate(self.events):
                if event.get("method") == method:
                    return self.events.pop(n)
            self.events.append(self._receive(until))

    # -- what the tests do --------------------------------------------------------------------------

    def open(self, url: str) -> None:
        self.events = [e for e in self.events if e.get("method") != "Page.loadEventFired"]
        self.call("Page.navigate", session=True, url=url)
        self.wait_for("Page.loadEventFired")

    def evaluate(self, expression: str):
        answer = self.call("Runtime.evaluate", session=True, expression=expression, returnByValue=True,
                           awaitPromise=True)
        if "exceptionDetails" in answer:
            raise BrowserError(f"{expression}: {answer['exceptionDetails']}")
        return answer["result"].get("value")

    def follow(self, selector: str) -> str:
        """Click the first element the selector finds (a link) and wait for the page it opens."""
        self.events = [e for e in self.events if e.get("method") != "Page.loadEventFired"]
        self.evaluate(f"document.querySelector({json.dumps(selector)}).click()")
        self.wait_for("Page.loadEventFired")
        return self.evaluate("location.href")

    def type_into(self, selector: str, text: str) -> None:
        """Set an input's value and fire its input event, as typing does."""
        self.evaluate(f"(() => {{const box=document.querySelector({json.dumps(selector)});box.value={json.dumps(text)};"
                      "box.dispatchEvent(new Event('input'))})()")

    def screenshot(self, path: Path) -> Path:
        data = self.call("Page.captureScreenshot", session=True, format="png")["data"]
        path.write_bytes(base64.b64decode(data))
        return path

    def problems(self) -> list[str]:
        """What went wrong in the pages so far: script exceptions, errors logged (a resource that did not load)."""
        out = []
        for event in self.events:
            params = event.get("params", {})
            if event.get("method") == "Runtime.exceptionThrown":
                out.append(json.dumps(params.get("exceptionDetails", {}))[:500])
            elif event.get("method") == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
                out.append(f"{params['entry'].get('text')} {params['entry'].get('url', '')}")
        return out

    def close(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait(timeout=30)
        for fd in (self._to_browser, self._from_browser):
            os.close(fd)
        self.log.close()
