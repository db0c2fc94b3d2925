#!/usr/bin/env python3
"""Opens the grader's HTML reports in headless Chromium and says what a reader would find broken.

A small Chrome DevTools Protocol client, standard library only: Chromium is started with
`--remote-debugging-pipe`, which reads NUL-terminated JSON commands from file descriptor 3 and
writes replies and events to file descriptor 4 (no websocket needed). For each page (a file://
URL) it waits for the load event and for the network to go quiet, then collects:

  - page errors: uncaught exceptions (Runtime.exceptionThrown), console errors
    (Runtime.consoleAPICalled of type error or assert, Log.entryAdded of level error), and any
    alert/confirm/prompt dialog (dismissed: a report has no script, so one means injected markup);
  - resources that failed (Network.loadingFailed, or an HTTP status of 400 or more);
  - images that did not load (every <img> that is not complete or has naturalWidth 0, after the
    viewport is grown to the whole page so that loading="lazy" pictures load too) and CSS
    background images that do not load;
  - links (a[href]): a file:// link must name an existing file or folder inside the page's
    folder (a report is zipped and opened elsewhere: it must be self-contained), and its
    #fragment an existing id or name in the page it leads to; http(s) links are not followed;
    any other link (another scheme, a file outside the folder) is a problem.

It also saves a screenshot of each page (Page.captureScreenshot, captureBeyondViewport, 1200 px
wide), cropped to `max_height` CSS pixels when one is given.

The browser is found as $PMPP_CHROMIUM, else chromium, chromium-browser, google-chrome,
google-chrome-stable on PATH; run as root it gets --no-sandbox (Chromium refuses root otherwise).
Every wait has a timeout, and the browser's whole process group is killed at the end.

Command line (e.g. on a real batch's output, from the GPU machine):

    python3 grading/tests/browser.py build/grading/batch-subs --screenshots shots/
    python3 grading/tests/browser.py OUT/index.html OUT/students/ada/report.html \\
        --screenshots grading/docs --max-height 1500

A folder stands for its index.html and report.html and every students/*/report.html. Each page's
problems are printed; the exit status is 1 if any page has one, 2 for a bad command line or when
no browser can be started. Screenshots are named after the page: index.html is batch_index.png,
a report.html is student_report.png (student_report_<folder>.png when several are opened).
"""
from __future__ import annotations

import argparse
import base64
import fcntl
import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Dict, List, Optional
from urllib.parse import unquote, urlsplit
from urllib.request import pathname2url

CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
SCREENSHOT_WIDTH = 1200
VIEWPORT_HEIGHT = 900
TALLEST_VIEWPORT = 16384       # CSS pixels: larger pages are checked in their top part's viewport
COMMAND_TIMEOUT_S = 30.0
LOAD_TIMEOUT_S = 30.0
QUIET_NETWORK_S = 0.3          # no request in flight for this long: the network is idle
EXTERNAL_SCHEMES = ("http", "https")

# Run in the page: what its images, background images, links and anchors are. Background images
# are loaded again through Image objects: the DOM says nothing about whether they loaded.
PAGE_FACTS_JS = r"""
(async () => {
  // A lazy picture beyond the grown viewport (a very long page) is asked for now, and every
  // picture still loading is waited for (10 s at most): only then does naturalWidth tell.
  const settled = img => img.complete ? Promise.resolve() : new Promise(done => {
    img.addEventListener('load', done, {once: true});
    img.addEventListener('error', done, {once: true});
    setTimeout(done, 10000);
  });
  for (const img of document.images) if (img.loading === 'lazy') img.loading = 'eager';
  await Promise.all([...document.images].map(settled));
  const images = [...document.images].map(img => ({
    src: img.getAttribute('src'), url: img.currentSrc || img.src,
    complete: img.complete, naturalWidth: img.naturalWidth}));
  const backgrounds = new Set();
  for (const el of document.querySelectorAll('*')) {
    const bg = getComputedStyle(el).backgroundImage;
    if (bg && bg !== 'none')
      for (const m of bg.matchAll(/url\(\s*(["']?)(.*?)\1\s*\)/g)) backgrounds.add(new URL(m[2], document.baseURI).href);
  }
  const loads = url => new Promise(done => {
    const probe = new Image();
    probe.onload = () => done(probe.naturalWidth > 0);
    probe.onerror = () => done(false);
    probe.src = url;
  });
  const backgroundImages = [];
  for (const url of backgrounds) backgroundImages.push({url, loaded: await loads(url)});
  const links = [...document.querySelectorAll('a[href]')].map(a => ({href: a.getAttribute('href'), url: a.href}));
  const anchors = [...document.querySelectorAll('[id]')].map(e => e.id)
    .concat([...document.querySelectorAll('a[name]')].map(e => e.getAttribute('name')));
  return {images, backgroundImages, links, anchors, url: document.URL};
})()
"""


class BrowserError(RuntimeError):
    """The browser could not be started, or did not answer in time."""


def find_chromium() -> Optional[str]:
    """$PMPP_CHROMIUM if set (None when it names nothing runnable), else the first of
    CANDIDATES on PATH."""
    wanted = os.environ.get("PMPP_CHROMIUM")
    if wanted:
        return shutil.which(wanted)
    for name in CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    return None


@dataclass
class PageReport:
    """What one page showed: its problems (empty: the page is fine) and what was checked."""
    path: str
    problems: List[str] = field(default_factory=list)
    images: List[dict] = field(default_factory=list)          # every <img>: src, url, complete, naturalWidth
    loaded_images: int = 0
    links: List[str] = field(default_factory=list)            # every a[href] as written
    screenshot: Optional[str] = None


class _AnchorParser(HTMLParser):
    """The ids and a[name]s of another page a link's #fragment points into."""

    def __init__(self):
        super().__init__()
        self.anchors = set()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"):
            self.anchors.add(a["id"])
        if tag == "a" and a.get("name"):
            self.anchors.add(a["name"])


def _anchors_of(path: str) -> set:
    parser = _AnchorParser()
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            parser.feed(f.read())
    except OSError:
        pass
    return parser.anchors


def _inside(path: str, folder: str) -> bool:
    path, folder = os.path.realpath(path), os.path.realpath(folder)
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def link_problems(page_path: str, links: List[dict], page_anchors: List[str]) -> List[str]:
    """Problems of the page's links (each {href: as written, url: as the browser resolved it}):
    every file:// link names an existing file or folder inside the page's folder, and its
    fragment an anchor of the page it leads to; http(s) links are allowed; anything else is not."""
    folder = os.path.dirname(os.path.abspath(page_path))
    problems = []
    anchors_by_page: Dict[str, set] = {os.path.realpath(page_path): set(page_anchors)}
    for link in links:
        written, parts = link["href"], urlsplit(link["url"])
        if parts.scheme in EXTERNAL_SCHEMES:
            continue
        if parts.scheme != "file":
            problems.append(f"link {written!r}: a {parts.scheme or 'schemeless'} link (a report links its own files only)")
            continue
        target = unquote(parts.path)
        if not _inside(target, folder):
            problems.append(f"link {written!r} leads outside the report's folder ({target})")
        elif not os.path.exists(target):
            problems.append(f"link {written!r} names no file ({target})")
        elif parts.fragment:
            key = os.path.realpath(target)
            if key not in anchors_by_page:
                anchors_by_page[key] = _anchors_of(target) if os.path.isfile(target) else set()
            if unquote(parts.fragment) not in anchors_by_page[key]:
                problems.append(f"link {written!r}: no anchor {unquote(parts.fragment)!r} in {os.path.basename(target)}")
    return problems


class Browser:
    """One headless Chromium, driven through the DevTools pipe. Use as a context manager: the
    browser's process group is killed on leaving, whatever happened."""

    def __init__(self, executable: Optional[str] = None, timeout: float = COMMAND_TIMEOUT_S):
        self.executable = executable or find_chromium()
        if not self.executable:
            raise BrowserError("no Chromium found (looked for $PMPP_CHROMIUM, " + ", ".join(CANDIDATES) + ")")
        self.timeout = timeout
        self.process: Optional[subprocess.Popen] = None
        self.profile = tempfile.mkdtemp(prefix="pmpp-chromium-")
        self._next_id = 0
        self._buffer = b""
        self._events: List[dict] = []

    # -- the process and the pipe --

    def start(self) -> "Browser":
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()
        args = [self.executable, "--headless=new", "--disable-gpu", "--remote-debugging-pipe",
                f"--user-data-dir={self.profile}", "--no-first-run", "--no-default-browser-check",
                "--disable-extensions", "--disable-background-networking", "--disable-sync",
                "--disable-component-update", "--hide-scrollbars", "--mute-audio", "--force-color-profile=srgb",
                "about:blank"]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            args.insert(1, "--no-sandbox")  # Chromium will not start as root with its sandbox

        # The pipe's ends become the browser's fds 3 and 4: moved above 9 first, so that the
        # child's dup2 onto 3 and 4 cannot overwrite one end with the other.
        to_browser_r, from_browser_w = (self._above_9(to_browser_r), self._above_9(from_browser_w))

        def pipe_on_3_and_4():  # in the child, before exec; dup2 leaves the copies inheritable
            os.dup2(to_browser_r, 3)
            os.dup2(from_browser_w, 4)

        self.stderr = tempfile.TemporaryFile()
        # close_fds=False: Popen would close 3 and 4 after pipe_on_3_and_4; Python opens every
        # other descriptor non-inheritable, so nothing else leaks into the browser.
        self.process = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self.stderr,
                                        preexec_fn=pipe_on_3_and_4, close_fds=False, start_new_session=True)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self.call("Browser.getVersion")
        return self

    @staticmethod
    def _above_9(fd: int) -> int:
        high = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
        os.close(fd)
        return high

    def close(self) -> None:
        if self.process and self.process.poll() is None:
            try:
                self._send("Browser.close")
                self.process.wait(timeout=5)
            except (BrowserError, OSError, subprocess.TimeoutExpired):
                pass
        if self.process:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)  # the renderers and helpers it started
            except (ProcessLookupError, PermissionError):
                pass
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
        for fd in ("_to_browser", "_from_browser"):
            if hasattr(self, fd):
                try:
                    os.close(getattr(self, fd))
                except OSError:
                    pass
                delattr(self, fd)
        if getattr(self, "stderr", None):
            self.stderr.close()
            self.stderr = None
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self) -> "Browser":
        try:
            return self.start()
        except BaseException:
            self.close()
            raise

    def __exit__(self, *exc) -> None:
        self.close()

    def _browser_stderr(self) -> str:
        """The end of what the browser printed (why it exited)."""
        try:
            self.stderr.seek(0)
            return self.stderr.read()[-2000:].decode("utf-8", "replace")
        except (OSError, AttributeError):
            return ""

    def _send(self, method: str, params: Optional[dict] = None, session: Optional[str] = None) -> int:
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        data = json.dumps(message).encode() + b"\0"
        while data:
            data = data[os.write(self._to_browser, data):]
        return self._next_id

    def _read_message(self, deadline: float) -> dict:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError
            ready, _, _ = select.select([self._from_browser], [], [], left)
            if ready:
                chunk = os.read(self._from_browser, 1 << 20)
                if not chunk:
                    raise BrowserError("the browser closed its pipe (it exited?)\n" + self._browser_stderr())
                self._buffer += chunk
        message, _, self._buffer = self._buffer.partition(b"\0")
        return json.loads(message)

    def call(self, method: str, params: Optional[dict] = None, session: Optional[str] = None,
             timeout: Optional[float] = None) -> dict:
        """Sends a command and returns its result; events that arrive meanwhile are kept."""
        wanted = self._send(method, params, session)
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            try:
                message = self._read_message(deadline)
            except TimeoutError:
                raise BrowserError(f"no answer to {method} within {timeout or self.timeout:.0f} s") from None
            if message.get("id") == wanted:
                if "error" in message:
                    raise BrowserError(f"{method}: {message['error'].get('message')}")
                return message.get("result", {})
            if "method" in message:
                self._events.append(message)

    def events(self, until: float) -> List[dict]:
        """The events kept so far and those that arrive until the monotonic time `until`."""
        while True:
            try:
                self._events.append(self._read_message(until))
            except TimeoutError:
                break
        taken, self._events = self._events, []
        return taken

    # -- one page --

    def inspect(self, path: str, screenshot: Optional[str] = None, max_height: Optional[int] = None,
                from_id: Optional[str] = None) -> PageReport:
        """Opens `path` (an HTML file) in a new tab and returns its PageReport; with `screenshot`,
        writes a PNG of the page there (its top `max_height` CSS pixels when given)."""
        report = PageReport(path=path)
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        try:
            self._inspect(session, os.path.abspath(path), report, screenshot, max_height, from_id)
        finally:
            self.call("Target.closeTarget", {"targetId": target})
        return report

    def _inspect(self, session: str, path: str, report: PageReport, screenshot: Optional[str],
                 max_height: Optional[int], from_id: Optional[str] = None) -> None:
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.call(f"{domain}.enable", session=session)
        self._viewport(session, VIEWPORT_HEIGHT)
        self.call("Page.setLifecycleEventsEnabled", {"enabled": True}, session=session)
        watcher = _PageWatcher(session)
        navigated = self.call("Page.navigate", {"url": "file://" + pathname2url(path)}, session=session)
        if navigated.get("errorText"):
            report.problems.append(f"the page did not open: {navigated['errorText']}")
            return
        watcher.loader = navigated.get("loaderId")  # the load event of this navigation, not about:blank's
        if not self._settle(watcher, LOAD_TIMEOUT_S, need_load=True):
            report.problems.append(f"the page did not finish loading within {LOAD_TIMEOUT_S:.0f} s")
        # Grow the viewport to the whole page: pictures with loading="lazy" below the first
        # screen load only when they come into view, and an unloaded one would read as broken.
        height = self._content_height(session)
        self._viewport(session, min(max(height, VIEWPORT_HEIGHT), TALLEST_VIEWPORT))
        self._settle(watcher, LOAD_TIMEOUT_S)
        facts = self.call("Runtime.evaluate", {"expression": PAGE_FACTS_JS, "awaitPromise": True,
                                               "returnByValue": True}, session=session, timeout=LOAD_TIMEOUT_S)
        if "exceptionDetails" in facts:
            raise BrowserError(f"the page's facts could not be read: {facts['exceptionDetails'].get('text')}")
        facts = facts["result"]["value"]
        self._settle(watcher, LOAD_TIMEOUT_S)
        report.images = facts["images"]
        for img in facts["images"]:
            if img["complete"] and img["naturalWidth"] > 0:
                report.loaded_images += 1
            else:
                report.problems.append(f"image did not load: {img['src']!r}")
        for bg in facts["backgroundImages"]:
            if not bg["loaded"]:
                report.problems.append(f"background image did not load: {bg['url']}")
        report.links = [link["href"] for link in facts["links"]]
        report.problems += link_problems(path, facts["links"], facts["anchors"])
        if screenshot:
            report.screenshot = self._screenshot(session, screenshot, max_height, from_id)
        self._settle(watcher, LOAD_TIMEOUT_S)
        report.problems = list(dict.fromkeys(report.problems + watcher.problems))  # each once, in order

    def _settle(self, watcher: "_PageWatcher", timeout: float, need_load: bool = False) -> bool:
        """Feeds events to `watcher` until (with `need_load`, after the load event) no request has
        been in flight for QUIET_NETWORK_S; False if `timeout` passes first."""
        deadline = time.monotonic() + timeout
        quiet_since = time.monotonic()
        while True:
            for event in self.events(min(deadline, time.monotonic() + 0.05)):
                answer = watcher.see(event)
                if answer:
                    self.call(*answer)
            now = time.monotonic()
            if watcher.in_flight or (need_load and not watcher.loaded):
                quiet_since = now
            elif now - quiet_since >= QUIET_NETWORK_S:
                return True
            if now >= deadline:
                return False

    def _viewport(self, session: str, height: int) -> None:
        self.call("Emulation.setDeviceMetricsOverride", {"width": SCREENSHOT_WIDTH, "height": int(height),
                                                         "deviceScaleFactor": 1, "mobile": False}, session=session)

    def _content_height(self, session: str) -> int:
        metrics = self.call("Page.getLayoutMetrics", session=session)
        size = metrics.get("cssContentSize") or metrics.get("contentSize") or {}
        return int(size.get("height", VIEWPORT_HEIGHT)) + 1

    def _screenshot(self, session: str, path: str, max_height: Optional[int], from_id: Optional[str] = None) -> str:
        # The page's own height, not the viewport's (a short page would end in white space).
        bottom = self.call("Runtime.evaluate", {"returnByValue": True, "expression":
                           "Math.ceil(document.body.getBoundingClientRect().bottom"
                           " + parseFloat(getComputedStyle(document.body).marginBottom || 0))"}, session=session)
        height = min(self._content_height(session), max(int(bottom.get("result", {}).get("value") or 0), 1)
                     or VIEWPORT_HEIGHT)
        top = 0
        if from_id:  # from the element with this id down (a report's exercise: "p-04_circle_renderer")
            found = self.call("Runtime.evaluate", {"returnByValue": True, "expression":
                              f"(e => e ? Math.floor(e.getBoundingClientRect().top + window.scrollY) : 0)"
                              f"(document.getElementById({json.dumps(from_id)}))"}, session=session)
            top = max(0, min(int(found.get("result", {}).get("value") or 0), height - 1))
        height -= top
        if max_height:
            height = min(height, max_height)
        shot = self.call("Page.captureScreenshot", {
            "format": "png", "captureBeyondViewport": True, "fromSurface": True,
            "clip": {"x": 0, "y": top, "width": SCREENSHOT_WIDTH, "height": height, "scale": 1}},
            session=session, timeout=LOAD_TIMEOUT_S)
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        with open(path, "wb") as f:
            f.write(base64.b64decode(shot["data"]))
        return path


class _PageWatcher:
    """Reads one tab's events: the load event, the requests in flight, and every problem."""

    def __init__(self, session: str):
        self.session = session
        self.loader: Optional[str] = None      # the navigation's loaderId
        self.loaded = False
        self.requests: Dict[str, str] = {}     # request id -> URL, for the messages
        self.pending: set = set()
        self.problems: List[str] = []

    @property
    def in_flight(self) -> bool:
        return bool(self.pending)

    def see(self, event: dict):
        """Takes one event; returns a command to send in answer ((method, params, session)) or None."""
        if event.get("sessionId") != self.session:
            return None
        method, params = event["method"], event.get("params", {})
        if method == "Page.lifecycleEvent" and params.get("name") == "load" and params.get("loaderId") == self.loader:
            self.loaded = True
        elif method == "Network.requestWillBeSent":
            self.requests[params["requestId"]] = params["request"]["url"]
            self.pending.add(params["requestId"])
        elif method in ("Network.loadingFinished", "Network.loadingFailed"):
            self.pending.discard(params["requestId"])
            if method == "Network.loadingFailed" and not params.get("canceled"):
                self.problems.append(f"failed to load {self.requests.get(params['requestId'], '?')}: "
                                     f"{params.get('errorText') or params.get('blockedReason')}")
        elif method == "Network.responseReceived":
            status = params["response"].get("status") or 0
            if status >= 400:
                self.problems.append(f"HTTP {status} for {params['response'].get('url')}")
        elif method == "Runtime.exceptionThrown":
            details = params["exceptionDetails"]
            text = (details.get("exception") or {}).get("description") or details.get("text")
            self.problems.append(f"page error: {text}")
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            words = " ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", []))
            self.problems.append(f"console {params['type']}: {words}")
        elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
            entry = params["entry"]
            self.problems.append(f"console error ({entry.get('source')}): {entry.get('text')}"
                                 + (f" {entry['url']}" if entry.get("url") else ""))
        elif method == "Page.javascriptDialogOpening":
            self.problems.append(f"a script opened a dialog ({params.get('type')}): {params.get('message')!r}")
            return ("Page.handleJavaScriptDialog", {"accept": False}, self.session)
        return None


# ---- command line ---------------------------------------------------------------------------------

def pages_of(argument: str) -> List[str]:
    """An HTML file, or a report folder's index.html, report.html and students/*/report.html."""
    if not os.path.isdir(argument):
        return [argument]
    found = [os.path.join(argument, name) for name in ("index.html", "report.html")
             if os.path.isfile(os.path.join(argument, name))]
    students = os.path.join(argument, "students")
    if os.path.isdir(students):
        found += [os.path.join(students, name, "report.html") for name in sorted(os.listdir(students))
                  if os.path.isfile(os.path.join(students, name, "report.html"))]
    return found


def screenshot_names(pages: List[str]) -> Dict[str, str]:
    """Page -> PNG name: batch_index.png for an index.html, student_report.png for a report.html,
    any other page its own name; a name several pages would share gets _<folder> added."""
    def kind(page):
        base = os.path.basename(page)
        return {"index.html": "batch_index", "report.html": "student_report"}.get(base, os.path.splitext(base)[0])

    kinds = [kind(p) for p in pages]
    names = {}
    for page, k in zip(pages, kinds):
        folder = re.sub(r"[^A-Za-z0-9_.-]+", "_", os.path.basename(os.path.dirname(os.path.abspath(page))))
        names[page] = (f"{k}_{folder}" if kinds.count(k) > 1 else k) + ".png"
    return names


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("pages", nargs="+", metavar="REPORT_DIR_OR_HTML")
    parser.add_argument("--screenshots", metavar="DIR", help="write a PNG of each page into DIR")
    parser.add_argument("--max-height", metavar="PX", type=int, help="crop each screenshot to its top PX pixels")
    parser.add_argument("--from-id", metavar="ID", help="each screenshot from the element with this id down "
                        "(e.g. p-04_circle_renderer: that exercise's part of a report)")
    args = parser.parse_args(argv)
    pages = [p for a in args.pages for p in pages_of(a)]
    missing = [p for p in pages if not os.path.isfile(p)]
    if missing or not pages:
        print("browser.py: no such page: " + ", ".join(missing or args.pages), file=sys.stderr)
        return 2
    names = screenshot_names(pages)
    started = time.monotonic()
    bad = 0
    try:
        with Browser() as browser:
            for page in pages:
                shot = os.path.join(args.screenshots, names[page]) if args.screenshots else None
                report = browser.inspect(page, screenshot=shot, max_height=args.max_height, from_id=args.from_id)
                bad += bool(report.problems)
                verdict = "ok" if not report.problems else f"{len(report.problems)} problem(s)"
                print(f"{page}: {verdict} ({report.loaded_images}/{len(report.images)} images, "
                      f"{len(report.links)} links{', screenshot ' + shot if shot else ''})")
                for problem in report.problems:
                    print("    " + problem)
    except BrowserError as e:
        print(f"browser.py: {e}", file=sys.stderr)
        return 2
    print(f"{len(pages)} page(s), {bad} with problems, {time.monotonic() - started:.1f} s")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
