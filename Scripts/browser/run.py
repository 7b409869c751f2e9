#!/usr/bin/env python3
"""Real browsers against `demo broker`: headless Chromium driven through the DevTools protocol
(the test venv's `websockets` speaks it; no browser driver), and optionally headless Firefox
through WebDriver BiDi.

    swift build -c release --product demo
    .build-testenv/venv/bin/python Scripts/browser/run.py --demo .build/release/demo \\
        [--browser chromium] [--firefox firefox-esr] [--screenshot Docs/images/web-chat.png]

Checks, each printed with its result:
  chat        two pages and one `demo chat` in one room: every line is seen by the other two
  hostile     a name and a line full of HTML are shown as text, and nothing of them runs
  reconnect   the broker restarts on the same port: the pages see 1001, reconnect by themselves
              and the room works again
  http        the browser's fetch: /health-check 200 (HEAD too), other paths 404, POST 405
  pings       the page's client answers protocol 1's #1 with #2, protocol 2's empty frame in kind
  deflate     permessage-deflate negotiated with `--deflate` (and not without); messages of
              125 B, 64 KiB and 4 MiB published and received back intact
  close       close codes both ways: the browser's 4321 and reason reach the broker, the broker's
              4009 reaches the browser
With --firefox, a shorter round in headless Firefox (driven through WebDriver BiDi): a Firefox
page and `demo chat` (with a hostile name) in one room, hostile text, fetch, deflate and the three
message sizes, close codes.
Exit status 1 when a check fails (what was expected and what was seen are printed); every wait
is bounded, and the whole run is stopped after --deadline seconds. Loopback only."""
import argparse, asyncio, base64, json, os, shutil, signal, socket, subprocess, sys, tempfile, time

from websockets.asyncio.client import connect

ROOM = "browsers"


class Failure(Exception):
    pass


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Process:
    """A child process whose output is gathered by a thread-free asyncio reader."""

    def __init__(self, name, argv):
        self.name, self.argv, self.output = name, argv, ""

    async def start(self, stdin=False):
        self.proc = await asyncio.create_subprocess_exec(
            *self.argv, stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        self.reader = asyncio.create_task(self._read())
        return self

    async def _read(self):
        while True:
            chunk = await self.proc.stdout.read(4096)
            if not chunk:
                return
            self.output += chunk.decode("utf-8", "replace")

    async def wait_for(self, text, timeout=15):
        deadline = time.monotonic() + timeout
        while text not in self.output:
            if time.monotonic() > deadline or (self.proc.returncode is not None and self.reader.done()):
                raise Failure("%s never printed %r; its output:\n%s" % (self.name, text, self.output[-3000:]))
            await asyncio.sleep(0.05)

    def type(self, text):
        self.proc.stdin.write(text.encode())

    async def stop(self, sig=signal.SIGINT, timeout=10):
        if self.proc.returncode is None:
            self.proc.send_signal(sig)
            try:
                await asyncio.wait_for(self.proc.wait(), timeout)
            except asyncio.TimeoutError:
                self.proc.kill()
                await self.proc.wait()
        await self.reader
        return self.proc.returncode


class RemoteConnection:
    """A browser's remote-control WebSocket: answers are matched to calls by id."""

    async def _open(self, url):
        self.ws = await connect(url, max_size=None, ping_interval=None)
        self.next_id, self.waiting = 0, {}
        self.dispatcher = asyncio.create_task(self._dispatch())

    async def _dispatch(self):
        try:
            async for text in self.ws:
                message = json.loads(text)
                future = self.waiting.pop(message.get("id"), None)
                if future is not None and not future.done():
                    future.set_result(message)
        except Exception as error:  # the browser went away: every call still waiting fails
            for future in self.waiting.values():
                if not future.done():
                    future.set_exception(Failure("the browser's remote connection ended: %s" % error))

    async def _exchange(self, method, params, timeout, **extra):
        """Sends one command and returns its answer (the protocol's own error check is the caller's)."""
        self.next_id += 1
        future = asyncio.get_running_loop().create_future()
        self.waiting[self.next_id] = future
        await self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params or {}, **extra}))
        return await asyncio.wait_for(future, timeout)


class Browser(RemoteConnection):
    """One headless Chromium and its DevTools connection; pages are targets attached in flat mode."""

    def __init__(self, executable):
        self.executable = executable

    async def start(self):
        self.profile = tempfile.mkdtemp(prefix="browser-test-")
        argv = [self.executable, "--headless=new", "--remote-debugging-port=0", "--remote-debugging-address=127.0.0.1",
                "--user-data-dir=" + self.profile, "--no-first-run", "--no-default-browser-check", "--disable-gpu",
                "--disable-extensions", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--disable-features=Translate,MediaRouter,OptimizationHints",
                "--hide-scrollbars", "--mute-audio", "--lang=en-US", "about:blank"]
        if os.geteuid() == 0:
            argv.insert(1, "--no-sandbox")  # Chromium refuses to run its sandbox as root
        self.process = await Process("browser", argv).start()
        port_file = os.path.join(self.profile, "DevToolsActivePort")
        deadline = time.monotonic() + 30
        while not (os.path.exists(port_file) and len(open(port_file).read().split("\n")) >= 2):
            if time.monotonic() > deadline:
                raise Failure("the browser did not open its DevTools port; its output:\n" + self.process.output[-3000:])
            await asyncio.sleep(0.1)
        port, path = open(port_file).read().split("\n")[:2]
        await self._open("ws://127.0.0.1:%s%s" % (port, path))
        self.version = (await self.call("Browser.getVersion"))["product"]
        return self

    async def call(self, method, params=None, session=None, timeout=30):
        answer = await self._exchange(method, params, timeout, **({"sessionId": session} if session else {}))
        if "error" in answer:
            raise Failure("%s failed: %s" % (method, answer["error"]))
        return answer["result"]

    async def page(self, url, name):
        target = (await self.call("Target.createTarget", {"url": "about:blank"}))["targetId"]
        session = (await self.call("Target.attachToTarget", {"targetId": target, "flatten": True}))["sessionId"]
        page = Page(self, session, name)
        await page.call("Runtime.enable")
        await page.call("Page.enable")
        # Background targets would otherwise count as unfocused, with throttled timers.
        await page.call("Emulation.setFocusEmulationEnabled", {"enabled": True})
        await page.call("Emulation.setDeviceMetricsOverride", {"width": 820, "height": 560, "deviceScaleFactor": 1, "mobile": False})
        await page.call("Page.navigate", {"url": url})
        await page.wait_until("document.readyState === 'complete'", "the page to load")
        return page

    async def stop(self):
        try:
            await self.call("Browser.close", timeout=5)
        except Exception:
            pass
        await self.process.stop(signal.SIGTERM)
        shutil.rmtree(self.profile, ignore_errors=True)


class PageChecks:
    """What the checks ask of a page, whatever protocol drives it: `eval` is the driver's."""

    async def lines(self):
        return await self.eval("Array.from(document.querySelectorAll('#log li'), li => li.textContent)")

    async def wait_until(self, expression, what, timeout=15):
        deadline = time.monotonic() + timeout
        while not await self.eval(expression):
            if time.monotonic() > deadline:
                raise Failure("%s: waited %ds for %s; its log:\n  %s" % (
                    self.name, timeout, what, "\n  ".join(await self.eval(
                        "Array.from(document.querySelectorAll('#log li'), li => li.textContent)") or [])))
            await asyncio.sleep(0.05)

    async def wait_for_line(self, text, timeout=15):
        await self.wait_until("Array.from(document.querySelectorAll('#log li')).some(li => li.textContent.includes(%s))"
                              % json.dumps(text), "a line with %r" % text, timeout)


class Page(PageChecks):
    """A Chromium page, through the DevTools protocol."""

    def __init__(self, browser, session, name):
        self.browser, self.session, self.name = browser, session, name

    async def call(self, method, params=None, timeout=30):
        return await self.browser.call(method, params, self.session, timeout)

    async def eval(self, expression, timeout=30):
        result = await self.call("Runtime.evaluate", {"expression": expression, "awaitPromise": True, "returnByValue": True}, timeout)
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            raise Failure("%s: %s threw %s" % (self.name, expression[:80], details.get("exception", {}).get("description", details)))
        return result["result"].get("value")

    async def close(self):
        await self.call("Page.close")

    async def type_line(self, text):
        """Types into the focused element as a person would, then presses Enter."""
        await self.call("Input.insertText", {"text": text})
        for kind in ("keyDown", "keyUp"):
            await self.call("Input.dispatchKeyEvent", {"type": kind, "key": "Enter", "code": "Enter",
                                                       "windowsVirtualKeyCode": 13, "text": "\r" if kind == "keyDown" else ""})

    async def screenshot(self, path):
        data = (await self.call("Page.captureScreenshot", {"format": "png"}))["data"]
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))


class Firefox(RemoteConnection):
    """One headless Firefox and its WebDriver BiDi session (Firefox's remote protocol)."""

    def __init__(self, executable):
        self.executable = executable

    async def start(self):
        self.profile = tempfile.mkdtemp(prefix="browser-test-")
        port = free_port()
        self.process = await Process("firefox", [
            self.executable, "--headless", "--no-remote", "--profile", self.profile,
            "--remote-debugging-port", str(port), "about:blank"]).start()
        await self.process.wait_for("WebDriver BiDi listening on ws://", timeout=60)
        await self._open("ws://127.0.0.1:%d/session" % port)
        capabilities = (await self.call("session.new", {"capabilities": {}}))["capabilities"]
        self.version = "%s %s" % (capabilities.get("browserName", "firefox"), capabilities.get("browserVersion", "?"))
        return self

    async def call(self, method, params=None, timeout=30):
        answer = await self._exchange(method, params, timeout)
        if answer.get("type") == "error":
            raise Failure("%s failed: %s %s" % (method, answer.get("error"), answer.get("message")))
        return answer["result"]

    async def page(self, url, name):
        context = (await self.call("browsingContext.create", {"type": "tab"}))["context"]
        await self.call("browsingContext.navigate", {"context": context, "url": url, "wait": "complete"})
        return FirefoxPage(self, context, name)

    async def stop(self):
        try:
            await self.call("session.end", timeout=5)
        except Exception:
            pass
        await self.process.stop(signal.SIGTERM)
        shutil.rmtree(self.profile, ignore_errors=True)


class FirefoxPage(PageChecks):
    """A Firefox tab, through WebDriver BiDi."""

    def __init__(self, firefox, context, name):
        self.firefox, self.context, self.name = firefox, context, name

    async def eval(self, expression, timeout=30):
        # Values come back as JSON text: BiDi's own serialization of objects is a tree of pairs.
        result = await self.firefox.call("script.evaluate", {
            "expression": "(async () => JSON.stringify(await (%s)))()" % expression,
            "target": {"context": self.context}, "awaitPromise": True, "resultOwnership": "none"}, timeout)
        if result.get("type") == "exception":
            raise Failure("%s: %s threw %s" % (self.name, expression[:80], result["exceptionDetails"].get("text")))
        value = result["result"]
        return json.loads(value["value"]) if value.get("type") == "string" else None

    async def type_line(self, text):
        """Key presses into the focused element, then Enter."""
        await self.firefox.call("browsingContext.activate", {"context": self.context})
        keys = []
        for key in list(text) + ["\ue007"]:
            keys += [{"type": "keyDown", "value": key}, {"type": "keyUp", "value": key}]
        await self.firefox.call("input.performActions", {
            "context": self.context, "actions": [{"type": "key", "id": "keyboard", "actions": keys}]})

    async def close(self):
        await self.firefox.call("browsingContext.close", {"context": self.context})


async def start_broker(demo, port, *extra):
    broker = await Process("demo broker", [demo, "broker", "--port", str(port), *extra]).start()
    await broker.wait_for("web chat on http://127.0.0.1:%d/" % port)
    return broker


def check(condition, message):
    if not condition:
        raise Failure(message)


async def chat_and_reconnect(browser, demo, screenshot):
    port = free_port()
    broker = await start_broker(demo, port)
    base = "http://127.0.0.1:%d/" % port
    chat = None
    try:
        alice = await browser.page(base + "?name=alice&room=" + ROOM, "page alice")
        await alice.wait_for_line("connected to 127.0.0.1:%d as alice, room %s" % (port, ROOM))
        check(await alice.eval("document.activeElement && document.activeElement.id") == "message",
              "page alice: the message field is not focused after joining from the link")
        bob = await browser.page(base + "?name=bob&room=" + ROOM, "page bob")
        await bob.wait_for_line("connected to")
        await alice.wait_for_line("bob joined")
        await bob.wait_for_line("alice is here")
        chat = await Process("demo chat", [demo, "chat", "--url", "ws://127.0.0.1:%d/socketcluster/" % port,
                                           "--name", "tom", "--room", ROOM]).start(stdin=True)
        await chat.wait_for("* connected to")
        for page in (alice, bob):
            await page.wait_for_line("tom joined")
        await chat.wait_for("* alice is here")
        await chat.wait_for("* bob is here")

        conversation = [
            (alice, "alice", "Hi both! The broker serves this page itself."),
            (bob, "bob", "Works here: Chromium on one side, WireKit on the other."),
            ("tom", "tom", "And I am in demo chat, in a terminal."),
            (alice, "alice", "Same room, same messages. Try <b>bold</b>: it stays text."),
        ]
        for sender, name, text in conversation:
            if sender == "tom":
                # The first keys send a typing notice; the rest of the line follows it.
                chat.type(text[:3])
                for page in (alice, bob):
                    await page.wait_until("document.getElementById('typing').textContent.includes('tom is typing')",
                                          "tom's typing notice")
                chat.type(text[3:] + "\n")
                for page in (alice, bob):
                    await page.wait_for_line(text)
            else:
                await sender.type_line(text)
                for other in (alice, bob):
                    await other.wait_for_line(text)
                await chat.wait_for("<%s> %s" % (name, text))
        # Each page shows its own lines once and the others' once, with the sender's name.
        for page, me in ((alice, "alice"), (bob, "bob")):
            shown = await page.eval("Array.from(document.querySelectorAll('#log li.message'), li => "
                                    "[li.querySelector('.name').textContent, li.querySelector('.text').textContent])")
            expected = [[name, text] for _, name, text in conversation]
            check(shown[-4:] == expected, "%s shows %r, expected %r" % (page.name, shown, expected))
        print("  chat: alice and bob (Chromium) and tom (demo chat) each saw all %d lines of the others" % len(conversation))
        if screenshot:
            # Bob half-way through a line, tom typing: the page as a person sees it.
            chat.type("Ok")
            await bob.wait_until("document.getElementById('typing').textContent.includes('tom is typing')",
                                 "tom's typing notice")
            await bob.call("Input.insertText", {"text": "See you after the restart"})
            await bob.call("Emulation.setDeviceMetricsOverride", {"width": 820, "height": 400, "deviceScaleFactor": 1, "mobile": False})
            await bob.screenshot(screenshot)
            await bob.eval("document.getElementById('message').value = ''")
            chat.type("ay\n")
            await alice.wait_for_line("Okay")
            print("  screenshot: %s" % screenshot)

        # Hostile text: a name and a line made of HTML, shown as text; nothing of them runs.
        hostile_name = '<img src=x onerror="window.pwned=1">'
        hostile_line = "<script>window.pwned=2</script><b onmouseover=alert(1)>hi</b>"
        mallory = await browser.page(base + "?" + "&".join(["name=" + _quote(hostile_name), "room=" + ROOM]), "page mallory")
        await mallory.wait_for_line("connected to")
        await mallory.type_line(hostile_line)
        for page in (alice, bob):
            await page.wait_for_line(hostile_name + " joined")
            await page.wait_for_line(hostile_line)
            elements = await page.eval("document.querySelectorAll('#log img, #log script, #log b').length")
            pwned = await page.eval("window.pwned === undefined ? null : window.pwned")
            check(elements == 0 and pwned is None,
                  "%s turned peer text into HTML: %d elements, window.pwned = %r" % (page.name, elements, pwned))
        await chat.wait_for("<%s> %s" % (hostile_name, hostile_line))
        await mallory.close()
        print("  hostile: a name and a line of HTML were shown as text on both pages and in demo chat; nothing ran")

        # The broker restarts on the same port: the pages reconnect by themselves.
        await broker.stop()
        for page in (alice, bob):
            await page.wait_for_line("connection lost (1001", timeout=10)
        broker = await start_broker(demo, port)
        for page in (alice, bob):
            await page.wait_for_line("reconnected", timeout=25)
        await chat.wait_for("* reconnected", timeout=25)
        await alice.type_line("Back after the restart.")
        await bob.wait_for_line("Back after the restart.")
        await chat.wait_for("<alice> Back after the restart.")
        print("  reconnect: both pages saw 1001 when the broker stopped, reconnected to the new broker and chat again")

        # Plain HTTP from the browser itself.
        answers = await alice.eval("""(async () => {
            const answer = async (path, init) => { const r = await fetch(path, init); return [r.status, await r.text()]; };
            return [await answer('/health-check'), await answer('/health-check', {method: 'HEAD'}),
                    await answer('/nowhere'), await answer('/', {method: 'POST', body: 'x'})];
        })()""")
        check(answers == [[200, "OK"], [200, ""], [404, "Not Found\n"], [405, "Method Not Allowed\n"]],
              "fetch answers: %r" % answers)
        print("  http: fetch /health-check 200 OK (HEAD 200, no body), /nowhere 404, POST / 405")
        # The page's client answers both ping protocols (demo broker speaks protocol 2 only, so
        # protocol 1's "#1" is fed to the page's own client object here).
        pongs = await alice.eval("""(() => {
            const sent = [], client = new SocketClusterClient('ws://unused', {});
            client.ws = {send: (text) => sent.push(text), close() {}};
            client.receive('#1'); client.receive(''); clearTimeout(client.pingTimer);
            return sent;
        })()""")
        check(pongs == ["#2", ""], "the page answered the pings #1 and '' with %r" % pongs)
        print("  pings: the page's client answers #1 with #2 and an empty frame with an empty frame")
        # Without --deflate, no permessage-deflate.
        extensions = await alice.eval("""new Promise((resolve, reject) => {
            const ws = new WebSocket(`ws://${location.host}/socketcluster/`);
            ws.onopen = () => { resolve(ws.extensions); ws.close(1000); };
            ws.onerror = () => reject(new Error('no connection'));
        })""")
        check(extensions == "", "permessage-deflate negotiated without --deflate: %r" % extensions)
        chat.type("/quit\n")
        check(await asyncio.wait_for(chat.proc.wait(), 10) == 0, "demo chat did not leave cleanly:\n" + chat.output)
        for page in (alice, bob):
            await page.wait_for_line("tom left")
            await page.close()
    finally:
        if chat and chat.proc.returncode is None:
            await chat.stop()
        await broker.stop()


def _quote(text):
    from urllib.parse import quote
    return quote(text, safe="")


# In the page's context: a raw SocketCluster connection with the page's origin.
SIZES_SCRIPT = r"""(async () => {
  const ws = new WebSocket(`ws://${location.host}/socketcluster/`);
  const queue = [], waiters = [];
  ws.onmessage = (event) => {
    if (event.data === '' || event.data === '#1') { ws.send(event.data === '' ? '' : '#2'); return; }
    const waiter = waiters.shift(); if (waiter) waiter(event.data); else queue.push(event.data);
  };
  const next = () => queue.length ? Promise.resolve(queue.shift()) : new Promise((resolve) => waiters.push(resolve));
  await new Promise((resolve, reject) => { ws.onopen = resolve; ws.onerror = () => reject(new Error('no connection')); });
  ws.send(JSON.stringify({event: '#handshake', data: {authToken: null}, cid: 1}));
  await next();
  ws.send(JSON.stringify({event: '#subscribe', data: {channel: 'echo'}, cid: 2}));
  await next();
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const results = [];
  for (const size of [125, 65536, 4194304]) {
    const prefix = '{"event":"#publish","data":{"channel":"echo","data":"', suffix = '"}}';
    // Pseudo-random letters (xorshift32 from a random seed): compressible only as text is.
    let state = crypto.getRandomValues(new Uint32Array(1))[0] | 1;
    const letters = new Array(size - prefix.length - suffix.length);
    for (let i = 0; i < letters.length; i++) {
      state ^= state << 13; state ^= state >>> 17; state ^= state << 5;
      letters[i] = alphabet[(state >>> 0) % alphabet.length];
    }
    const payload = letters.join('');
    const frame = prefix + payload + suffix;
    ws.send(frame);
    const echo = await next();
    let intact = false;
    try { const packet = JSON.parse(echo); intact = packet.event === '#publish' && packet.data.channel === 'echo' && packet.data.data === payload; } catch {}
    results.push({size: frame.length, received: echo.length, intact});
  }
  const extensions = ws.extensions;
  ws.close(1000);
  return {extensions, results};
})()"""

CLOSE_SCRIPT = r"""(async () => {
  const open = () => new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://${location.host}/socketcluster/`);
    ws.onopen = () => resolve(ws); ws.onerror = () => reject(new Error('no connection'));
  });
  const closed = (ws) => new Promise((resolve) => { ws.onclose = (e) => resolve({code: e.code, reason: e.reason, wasClean: e.wasClean}); });
  // The browser closes: after the handshake, with its own code and reason.
  const mine = await open();
  const answered = new Promise((resolve) => { mine.onmessage = (e) => { if (e.data !== '') resolve(e.data); }; });
  mine.send(JSON.stringify({event: '#handshake', data: {authToken: null}, cid: 1}));
  const handshake = JSON.parse(await answered);
  const mineClosed = closed(mine);
  mine.close(4321, 'bye from the browser');
  const browserClose = await mineClosed;
  // The broker closes: anything but #handshake first is refused with 4009.
  const theirs = await open();
  const theirsClosed = closed(theirs);
  theirs.send('not a handshake');
  return {socketId: handshake.data.id, browserClose, brokerClose: await theirsClosed};
})()"""


async def deflate_sizes_and_close_codes(browser, demo):
    port = free_port()
    broker = await start_broker(demo, port, "--deflate")
    try:
        page = await browser.page("http://127.0.0.1:%d/" % port, "page (no chat)")
        outcome = await page.eval(SIZES_SCRIPT, timeout=60)
        check(outcome["extensions"].startswith("permessage-deflate"),
              "permessage-deflate not negotiated with --deflate: extensions %r" % outcome["extensions"])
        for result in outcome["results"]:
            check(result["intact"] and result["received"] == result["size"],
                  "a %d-byte message came back as %d bytes, intact: %s" % (result["size"], result["received"], result["intact"]))
        print("  deflate: negotiated (%s); %s echoed intact" % (
            outcome["extensions"], ", ".join("%d B" % r["size"] for r in outcome["results"])))
        closes = await page.eval(CLOSE_SCRIPT, timeout=30)
        await broker.wait_for("disconnect  %s 4321 bye from the browser" % closes["socketId"], timeout=10)
        check(closes["browserClose"]["code"] == 4321 and closes["browserClose"]["wasClean"],
              "the browser's own close: %r" % closes["browserClose"])
        check(closes["brokerClose"]["code"] == 4009 and closes["brokerClose"]["wasClean"],
              "the broker's close as the browser saw it: %r" % closes["brokerClose"])
        print("  close: the browser's 4321 'bye from the browser' reached the broker; the broker's %d (%s) reached the browser"
              % (closes["brokerClose"]["code"], closes["brokerClose"]["reason"] or "no reason"))
        await page.close()
    finally:
        await broker.stop()


async def firefox_checks(firefox, demo):
    """A shorter round with Firefox: the chat with demo chat, hostile text, plain HTTP, deflate and
    message sizes, close codes."""
    port = free_port()
    broker = await start_broker(demo, port, "--deflate")
    base = "http://127.0.0.1:%d/" % port
    chat = None
    try:
        page = await firefox.page(base + "?name=fiona&room=" + ROOM, "firefox page fiona")
        await page.wait_for_line("connected to 127.0.0.1:%d as fiona, room %s" % (port, ROOM))
        check(await page.eval("document.activeElement && document.activeElement.id") == "message",
              "firefox: the message field is not focused after joining from the link")
        hostile_name = '<img src=x onerror="window.pwned=1">'
        chat = await Process("demo chat", [demo, "chat", "--url", "ws://127.0.0.1:%d/socketcluster/" % port,
                                           "--name", hostile_name, "--room", ROOM]).start(stdin=True)
        await chat.wait_for("* connected to")
        await page.wait_for_line(hostile_name + " joined")
        await chat.wait_for("* fiona is here")
        await page.type_line("Hello from Firefox")
        await chat.wait_for("<fiona> Hello from Firefox")
        hostile_line = "<script>window.pwned=2</script><b>hi</b>"
        chat.type(hostile_line + "\n")
        await page.wait_for_line(hostile_line)
        elements = await page.eval("document.querySelectorAll('#log img, #log script, #log b').length")
        pwned = await page.eval("window.pwned === undefined ? null : window.pwned")
        check(elements == 0 and pwned is None, "firefox turned peer text into HTML: %d elements, window.pwned = %r" % (elements, pwned))
        print("  firefox chat: fiona (Firefox) and demo chat saw each other's lines; a hostile name and line stayed text")
        answers = await page.eval("""(async () => {
            const answer = async (path, init) => { const r = await fetch(path, init); return [r.status, await r.text()]; };
            return [await answer('/health-check'), await answer('/nowhere'), await answer('/', {method: 'POST', body: 'x'})];
        })()""")
        check(answers == [[200, "OK"], [404, "Not Found\n"], [405, "Method Not Allowed\n"]], "firefox fetch answers: %r" % answers)
        outcome = await page.eval(SIZES_SCRIPT, timeout=60)
        check(outcome["extensions"].startswith("permessage-deflate"), "firefox: extensions %r" % outcome["extensions"])
        for result in outcome["results"]:
            check(result["intact"] and result["received"] == result["size"],
                  "firefox: a %d-byte message came back as %d bytes, intact: %s" % (result["size"], result["received"], result["intact"]))
        closes = await page.eval(CLOSE_SCRIPT, timeout=30)
        await broker.wait_for("disconnect  %s 4321 bye from the browser" % closes["socketId"], timeout=10)
        check(closes["browserClose"]["code"] == 4321 and closes["brokerClose"]["code"] == 4009
              and closes["brokerClose"]["wasClean"], "firefox close codes: %r" % closes)
        print("  firefox: fetch 200/404/405; permessage-deflate (%s) with %s intact; close 4321 out, 4009 in" % (
            outcome["extensions"], ", ".join("%d B" % r["size"] for r in outcome["results"])))
        chat.type("/quit\n")
        check(await asyncio.wait_for(chat.proc.wait(), 10) == 0, "demo chat did not leave cleanly:\n" + chat.output)
        await page.close()
    finally:
        if chat and chat.proc.returncode is None:
            await chat.stop()
        await broker.stop()


async def main(args):
    started = time.monotonic()
    browser = await Browser(args.browser).start()
    print("browser: %s" % browser.version)
    try:
        await chat_and_reconnect(browser, args.demo, args.screenshot)
        await deflate_sizes_and_close_codes(browser, args.demo)
    finally:
        await browser.stop()
    if args.firefox:
        firefox = await Firefox(args.firefox).start()
        print("browser: %s" % firefox.version)
        try:
            await firefox_checks(firefox, args.demo)
        finally:
            await firefox.stop()
    print("browser tests passed in %.1f s" % (time.monotonic() - started))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--demo", required=True, help="the demo executable (a release build)")
    parser.add_argument("--browser", default=shutil.which("chromium") or "chromium", help="the Chromium executable")
    parser.add_argument("--firefox", help="also run a shorter round with this Firefox (WebDriver BiDi)")
    parser.add_argument("--screenshot", help="write a PNG of a page with the conversation here")
    parser.add_argument("--deadline", type=float, default=150, help="seconds before the whole run is stopped")
    arguments = parser.parse_args()
    try:
        asyncio.run(asyncio.wait_for(main(arguments), arguments.deadline))
    except Failure as failure:
        print("browser tests FAILED: %s" % failure, file=sys.stderr)
        sys.exit(1)
    except asyncio.TimeoutError:
        print("browser tests FAILED: not finished within %.0f s" % arguments.deadline, file=sys.stderr)
        sys.exit(1)
