"""A small Chrome DevTools Protocol client over a pipe, for the browser tests (standard library only).

Chromium started with ``--remote-debugging-pipe`` reads commands from file descriptor 3
and writes replies and events to descriptor 4, each message JSON terminated by a NUL
byte. :class:`Browser` starts headless Chromium that way, opens one page, and offers the
few calls the tests need: navigate and wait for the load event, evaluate JavaScript,
click at a point with real mouse events, type text, and capture a PNG of the page.
Events the page raises (uncaught exceptions, console errors, JavaScript dialogs such as
``alert``) are collected in :attr:`Browser.problems`.
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--no-default-browser-check",
    "--hide-scrollbars",
    "--remote-debugging-pipe",
)
TIMEOUT = 60.0  # seconds for any one reply


class BrowserError(RuntimeError):
    """Chromium is missing, died, or did not answer in time."""


def find_chromium() -> str:
    """Return the Chromium executable (``$CHROMIUM``, else ``chromium`` or ``chromium-browser`` on the PATH)."""
    for name in (os.environ.get("CHROMIUM"), "chromium", "chromium-browser"):
        if name and (path := shutil.which(name)):
            return path
    raise BrowserError("Chromium not found: install Debian's chromium package (apt-get install -y chromium)")


class Browser:
    """Headless Chromium with one page, driven over the DevTools pipe."""

    def __init__(self, width: int = 1280, height: int = 900) -> None:
        """Start Chromium with a fresh profile and open a page of ``width`` x ``height`` CSS pixels."""
        self.profile = tempfile.mkdtemp(prefix="balance-chromium-")
        to_chrome_r, self._to_chrome = os.pipe()
        self._from_chrome, from_chrome_w = os.pipe()

        def wire() -> None:  # in the child: the pipe ends become descriptors 3 and 4
            high_r = fcntl.fcntl(to_chrome_r, fcntl.F_DUPFD, 10)
            high_w = fcntl.fcntl(from_chrome_w, fcntl.F_DUPFD, 10)
            os.dup2(high_r, 3)
            os.dup2(high_w, 4)

        args = [find_chromium(), *FLAGS, f"--user-data-dir={self.profile}", "about:blank"]
        self.proc = subprocess.Popen(
            args, pass_fds=(3, 4), preexec_fn=wire, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._buffer = b""
        self._next = 0
        self.events: list[dict[str, Any]] = []
        self.problems: list[str] = []
        try:
            target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
            self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
            for domain in ("Page", "Runtime", "Log"):
                self.call(f"{domain}.enable", page=True)
            self.call(
                "Emulation.setDeviceMetricsOverride",
                {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
                page=True,
            )
        except Exception:
            self.close()
            raise

    # -- protocol ---------------------------------------------------------------------------
    def _send(self, message: dict[str, Any]) -> None:
        os.write(self._to_chrome, json.dumps(message).encode() + b"\0")

    def _receive(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._from_chrome], [], [], left)[0]:
                raise BrowserError("Chromium did not answer in time")
            chunk = os.read(self._from_chrome, 1 << 20)
            if not chunk:
                raise BrowserError(f"Chromium closed the pipe (exit code {self.proc.poll()})")
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        message: dict[str, Any] = json.loads(raw)
        return message

    def _note(self, event: dict[str, Any]) -> None:
        self.events.append(event)
        method, params = event.get("method"), event.get("params", {})
        if method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            self.problems.append(f"uncaught exception: {details.get('exception', {}).get('description') or details}")
        elif method == "Page.javascriptDialogOpening":
            self.problems.append(f"a {params.get('type')} dialog opened: {params.get('message')!r}")
            reply = {"id": -1, "method": "Page.handleJavaScriptDialog", "params": {"accept": True}}
            self._send({**reply, "sessionId": event["sessionId"]} if "sessionId" in event else reply)
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            self.problems.append(f"console {params.get('type')}: {params.get('args')}")
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
            self.problems.append(f"log error: {params['entry'].get('text')}")

    def call(self, method: str, params: dict[str, Any] | None = None, *, page: bool = False) -> dict[str, Any]:
        """Send one command (to the page's session when ``page``) and return its result."""
        self._next += 1
        message: dict[str, Any] = {"id": self._next, "method": method, "params": params or {}}
        if page:
            message["sessionId"] = self.session
        self._send(message)
        deadline = time.monotonic() + TIMEOUT
        while True:
            reply = self._receive(deadline)
            if reply.get("id") == self._next:
                if "error" in reply:
                    raise BrowserError(f"{method}: {reply['error']}")
                result: dict[str, Any] = reply.get("result", {})
                return result
            if "method" in reply:
                self._note(reply)

    def wait_for(self, event: str, timeout: float = TIMEOUT) -> dict[str, Any]:
        """Return the first ``event`` not yet consumed, reading more messages until it arrives."""
        deadline = time.monotonic() + timeout
        while True:
            for i, seen in enumerate(self.events):
                if seen.get("method") == event:
                    return self.events.pop(i)
            message = self._receive(deadline)
            if "method" in message:
                self._note(message)

    # -- what the tests use -----------------------------------------------------------------
    def open(self, path: Path) -> None:
        """Load a local file and wait for its load event."""
        self.events.clear()
        self.call("Page.navigate", {"url": path.resolve().as_uri()}, page=True)
        self.wait_for("Page.loadEventFired")

    def js(self, expression: str) -> Any:
        """Evaluate ``expression`` in the page and return its value (JSON-able values only)."""
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True}, page=True)
        if "exceptionDetails" in result:
            raise BrowserError(f"script failed: {result['exceptionDetails'].get('text')}: {expression[:120]}")
        return result.get("result", {}).get("value")

    def click(self, selector: str) -> None:
        """Scroll the first element matching ``selector`` into view and click its centre with the mouse."""
        box = self.js(
            f"(function () {{ var e = document.querySelector({json.dumps(selector)}); if (!e) return null;"
            " e.scrollIntoView({block: 'center'}); var r = e.getBoundingClientRect();"
            " return [r.left + r.width / 2, r.top + r.height / 2]; })()"
        )
        if box is None:
            raise BrowserError(f"nothing matches {selector!r}")
        for kind in ("mousePressed", "mouseReleased"):
            self.call(
                "Input.dispatchMouseEvent",
                {"type": kind, "x": box[0], "y": box[1], "button": "left", "clickCount": 1},
                page=True,
            )

    def type(self, selector: str, text: str) -> None:
        """Focus the element matching ``selector``, select its content and type ``text`` (replacing it)."""
        self.js(f"(function () {{ var e = document.querySelector({json.dumps(selector)}); e.focus(); e.select(); }})()")
        if text:
            self.call("Input.insertText", {"text": text}, page=True)
        else:
            for kind in ("keyDown", "keyUp"):
                self.call(
                    "Input.dispatchKeyEvent",
                    {"type": kind, "key": "Backspace", "code": "Backspace", "windowsVirtualKeyCode": 8},
                    page=True,
                )

    def screenshot(
        self, path: Path, *, full: bool = True, clip: tuple[float, float, float, float] | None = None
    ) -> Path:
        """Save a PNG of the page (the whole page when ``full``, else the viewport or ``clip`` = x, y, w, h)."""
        params: dict[str, Any] = {"format": "png"}
        if clip is not None:
            x, y, w, h = clip
            params |= {"clip": {"x": x, "y": y, "width": w, "height": h, "scale": 1}, "captureBeyondViewport": True}
        elif full:
            size = self.call("Page.getLayoutMetrics", page=True)["cssContentSize"]
            params |= {
                "clip": {"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1},
                "captureBeyondViewport": True,
            }
        data = self.call("Page.captureScreenshot", params, page=True)["data"]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(data))
        return path

    def close(self) -> None:
        """Close Chromium (politely, then by force) and remove its profile."""
        try:
            if self.proc.poll() is None:
                self._send({"id": 0, "method": "Browser.close"})
                self.proc.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()
        finally:
            for fd in (self._to_chrome, self._from_chrome):
                with contextlib.suppress(OSError):
                    os.close(fd)
            shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self) -> Browser:
        """Return the browser."""
        return self

    def __exit__(self, *exc: object) -> None:
        """Close the browser."""
        self.close()
