import PubSubBroker

/// The web chat `demo broker` serves at `/`: one self-contained page (HTML, CSS and a small
/// SocketCluster client in JavaScript, no third-party script) that speaks the same chat objects
/// as `demo chat` on the same channels, so people in a browser and in a terminal share a room.
/// `/?name=NAME&room=ROOM` joins at once. Kept as a string so the binary serves it from any
/// directory, with no file to find at run time.
enum WebChatPage {
    /// The response to `GET /` (and, without its body, `HEAD /`).
    static let response = PlainHTTPResponse(
        status: 200,
        headers: [
            "Content-Type": "text/html; charset=utf-8",
            "Cache-Control": "no-store",
            "X-Content-Type-Options": "nosniff",
            "Referrer-Policy": "no-referrer",
            // Its own inline script and style, WebSockets to this origin only, nothing else loaded.
            "Content-Security-Policy":
                "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; "
                + "img-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        ],
        body: Array(html.utf8))

    /// Whether `request` asks for the page: `GET` or `HEAD` of `/`, with or without a query.
    static func isRequested(by request: HTTPRequestHead) -> Bool {
        guard request.method == "GET" || request.method == "HEAD" else { return false }
        return request.target == "/" || request.target.hasPrefix("/?")
    }

    /// The page itself.
    static let html = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>PubSub chat</title>
        <style>
          :root { --bg: #f4f5f7; --panel: #fff; --ink: #1d2330; --muted: #6b7385; --line: #e3e6eb; --accent: #3a63d8; }
          * { box-sizing: border-box; }
          html, body { height: 100%; margin: 0; }
          body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; background: var(--bg); color: var(--ink); display: flex; justify-content: center; }
          main { width: 100%; max-width: 760px; height: 100%; display: flex; flex-direction: column; background: var(--panel); border-left: 1px solid var(--line); border-right: 1px solid var(--line); }
          header { display: flex; align-items: center; gap: 12px; padding: 12px 18px; border-bottom: 1px solid var(--line); }
          header h1 { font-size: 17px; margin: 0; font-weight: 600; }
          header .room { color: var(--muted); overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
          #status { margin-left: auto; font-size: 12px; padding: 3px 10px; border-radius: 999px; background: #eceef2; color: var(--muted); white-space: nowrap; }
          #status.connected { background: #e2f5e9; color: #1c7c45; }
          #status.reconnecting { background: #fdf1dc; color: #9a5b00; }
          #join { margin: auto; padding: 28px; display: grid; gap: 12px; width: min(360px, 90%); }
          #join label { display: grid; gap: 4px; font-size: 13px; color: var(--muted); }
          input { font: inherit; padding: 9px 12px; border: 1px solid #cfd4dc; border-radius: 8px; color: var(--ink); background: #fff; }
          input:focus { outline: 2px solid var(--accent); outline-offset: -1px; border-color: transparent; }
          button { font: inherit; padding: 9px 16px; border: 0; border-radius: 8px; background: var(--accent); color: #fff; cursor: pointer; }
          button:disabled { background: #a9b6dc; cursor: default; }
          #chat { flex: 1; display: flex; flex-direction: column; min-height: 0; }
          #log { flex: 1; overflow-y: auto; list-style: none; margin: 0; padding: 14px 18px; display: flex; flex-direction: column; gap: 6px; }
          #log li { max-width: 100%; overflow-wrap: anywhere; white-space: pre-wrap; }
          #log .message { display: flex; gap: 10px; align-items: baseline; }
          #log .time { color: var(--muted); font-size: 12px; font-variant-numeric: tabular-nums; flex: none; }
          #log .name { font-weight: 600; flex: none; max-width: 40%; overflow: hidden; text-overflow: ellipsis; }
          #log .mine .name { color: var(--accent); }
          #log .notice { color: var(--muted); font-size: 13px; font-style: italic; }
          #typing { min-height: 22px; padding: 0 18px; font-size: 12px; color: var(--muted); font-style: italic; }
          #send { display: flex; gap: 8px; padding: 10px 14px 14px; border-top: 1px solid var(--line); }
          #send input { flex: 1; }
          [hidden] { display: none !important; }
        </style>
        </head>
        <body>
        <main>
          <header>
            <h1>PubSub chat</h1>
            <span class="room" id="room-label"></span>
            <span id="status">not connected</span>
          </header>
          <form id="join" autocomplete="off">
            <label>Your name <input id="join-name" name="name" maxlength="64" required></label>
            <label>Room <input id="join-room" name="room" maxlength="64" value="lobby" required></label>
            <button type="submit">Join</button>
          </form>
          <section id="chat" hidden>
            <ul id="log" aria-live="polite"></ul>
            <div id="typing"></div>
            <form id="send" autocomplete="off">
              <input id="message" maxlength="4000" placeholder="Type a message, Enter sends" aria-label="Message">
              <button type="submit">Send</button>
            </form>
          </section>
        </main>
        <script>
        "use strict";

        // A small SocketCluster client (protocol versions 1 and 2, JSON codec): handshake, invokes and
        // transmits, subscriptions that survive reconnects, the server's pings, reconnect with back-off.
        class SocketClusterClient {
          constructor(url, handlers) {
            this.url = url;
            this.handlers = handlers;          // onConnect(isReconnect, subscribed), onDisconnect(code, reason, delay), onPublish(channel, data)
            this.cid = 0;                      // never reset: answers are matched by it
            this.pending = new Map();          // cid -> {resolve, reject, timer}
            this.channels = new Set();
            this.ws = null;
            this.connected = false;
            this.everConnected = false;
            this.attempt = 0;
            this.stopped = false;
            this.pingTimer = null;
            this.pingTimeout = 20000;
            this.reconnectTimer = null;
          }

          connect() {
            this.stopped = false;
            clearTimeout(this.reconnectTimer);
            const ws = new WebSocket(this.url);
            this.ws = ws;
            ws.onopen = () => {
              this.send({ event: "#handshake", data: { authToken: null }, cid: ++this.cid });
              this.handshakeCid = this.cid;
              this.armPingTimer();
            };
            ws.onmessage = (event) => { if (this.ws === ws) this.receive(event.data); };
            ws.onclose = (event) => { if (this.ws === ws) this.lost(event.code, event.reason); };
          }

          receive(text) {
            if (typeof text !== "string") return;  // binary frames belong to another codec
            // Pings are raw text frames: "" (protocol 2) and "#1" (protocol 1) are answered at once.
            if (text === "" || text === "#1") {
              this.ws.send(text === "" ? "" : "#2");
              this.armPingTimer();
              return;
            }
            let packet;
            try { packet = JSON.parse(text); } catch { return; }
            for (const item of Array.isArray(packet) ? packet : [packet]) this.handle(item);
          }

          handle(packet) {
            if (packet === null || typeof packet !== "object") return;
            if (typeof packet.rid === "number") {
              if (packet.rid === this.handshakeCid) return this.handshakeAnswered(packet);
              const call = this.pending.get(packet.rid);
              if (!call) return;
              this.pending.delete(packet.rid);
              clearTimeout(call.timer);
              if (packet.error) call.reject(packet.error); else call.resolve(packet.data);
              return;
            }
            if (packet.event === "#publish" && packet.data && typeof packet.data.channel === "string") {
              if (this.channels.has(packet.data.channel)) this.handlers.onPublish(packet.data.channel, packet.data.data);
            }
          }

          handshakeAnswered(packet) {
            if (packet.error || !packet.data) return this.ws.close(4008, "Handshake failed");
            if (typeof packet.data.pingTimeout === "number") this.pingTimeout = packet.data.pingTimeout;
            this.armPingTimer();
            this.connected = true;
            this.attempt = 0;
            const isReconnect = this.everConnected;
            this.everConnected = true;
            const subscribed = Promise.all(Array.from(this.channels, (channel) => this.invoke("#subscribe", { channel })));
            this.handlers.onConnect(isReconnect, subscribed);
          }

          // The server pings every pingInterval; nothing for pingTimeout means the connection is dead.
          armPingTimer() {
            clearTimeout(this.pingTimer);
            const ws = this.ws;
            this.pingTimer = setTimeout(() => {
              if (this.ws !== ws) return;
              ws.close(4000, "Server ping timed out");
              this.lost(4000, "Server ping timed out");
            }, this.pingTimeout);
          }

          lost(code, reason) {
            clearTimeout(this.pingTimer);
            this.ws = null;
            this.connected = false;
            for (const call of this.pending.values()) { clearTimeout(call.timer); call.reject(new Error("disconnected")); }
            this.pending.clear();
            // As the SocketCluster client: 1000 and 4500-4999 are final, everything else reconnects.
            const final = this.stopped || code === 1000 || (code >= 4500 && code <= 4999);
            let delay = null;
            if (!final) {
              delay = Math.min(15000, 1000 * Math.pow(1.5, this.attempt)) + Math.random() * 1000;
              this.attempt += 1;
              this.reconnectTimer = setTimeout(() => this.connect(), delay);
            }
            this.handlers.onDisconnect(code, reason, delay);
          }

          send(packet) {
            if (!this.ws || this.ws.readyState !== WebSocket.OPEN) throw new Error("not connected");
            this.ws.send(JSON.stringify(packet));
          }

          transmit(event, data) { this.send({ event, data }); }

          invoke(event, data, timeout = 10000) {
            return new Promise((resolve, reject) => {
              const cid = ++this.cid;
              this.send({ event, data, cid });
              const timer = setTimeout(() => { this.pending.delete(cid); reject(new Error("timed out")); }, timeout);
              this.pending.set(cid, { resolve, reject, timer });
            });
          }

          subscribe(channel) {
            this.channels.add(channel);
            return this.connected ? this.invoke("#subscribe", { channel }) : Promise.resolve();
          }

          publish(channel, data) { this.transmit("#publish", { channel, data }); }
          publishAck(channel, data) { return this.invoke("#publish", { channel, data }); }

          close() {
            this.stopped = true;
            clearTimeout(this.reconnectTimer);
            if (this.ws) this.ws.close(1000, "");
          }
        }

        // The chat: the same objects as `demo chat` on the channel chat/<room>:
        // {"type":"join"|"leave"|"typing"|"message"|"here","name":…,"text"?:…,"from":…,"to"?:…}.
        // Every peer string goes into the page with textContent, never as HTML.
        const $ = (id) => document.getElementById(id);
        const log = $("log");
        const typingLine = $("typing");
        const statusBadge = $("status");
        const messageField = $("message");
        const typists = new Map();  // from -> {name, until}
        let chat = null;

        function newSenderID() {
          const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
          const bytes = crypto.getRandomValues(new Uint8Array(8));
          return Array.from(bytes, (b) => alphabet[b % 64]).join("");
        }

        function timeNow() {
          return new Date().toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
        }

        function nameColor(name) {
          let hash = 0;
          for (const c of name) hash = (hash * 31 + c.codePointAt(0)) >>> 0;
          return `hsl(${hash % 360} 55% 38%)`;
        }

        function span(className, text) {
          const element = document.createElement(className === "name" ? "bdi" : "span");
          element.className = className;
          element.textContent = text;
          return element;
        }

        function append(item) {
          const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
          log.append(item);
          if (atBottom) log.scrollTop = log.scrollHeight;
        }

        function showNotice(text) {
          const item = document.createElement("li");
          item.className = "notice";
          item.textContent = `* ${text}`;
          append(item);
        }

        // A notice about a peer: the name in its own element, so it cannot run into the text.
        function showPeerNotice(name, what) {
          const item = document.createElement("li");
          item.className = "notice";
          item.append("* ", span("name", name), ` ${what}`);
          append(item);
        }

        function showMessage(name, text, mine) {
          const item = document.createElement("li");
          item.className = mine ? "message mine" : "message";
          const nameElement = span("name", name);
          if (!mine) nameElement.style.color = nameColor(name);
          item.append(span("time", timeNow()), nameElement, span("text", text));
          append(item);
        }

        function setStatus(text, kind) {
          statusBadge.textContent = text;
          statusBadge.className = kind;
        }

        function renderTyping() {
          const now = Date.now();
          for (const [from, typist] of typists) if (typist.until <= now) typists.delete(from);
          const names = Array.from(typists.values(), (typist) => typist.name);
          typingLine.textContent = names.length === 0 ? "" : `${names.join(", ")} ${names.length === 1 ? "is" : "are"} typing…`;
        }
        setInterval(renderTyping, 1000);

        // A publication from the room: shown unless it is our own, or a `here` for someone else.
        function received(data, me, name, channel) {
          if (data === null || typeof data !== "object") return;
          const { type, name: sender, text, from, to } = data;
          if (typeof type !== "string" || typeof sender !== "string" || typeof from !== "string") return;
          if (from === me || (type === "here" && to !== me)) return;
          switch (type) {
            case "join":
              showPeerNotice(sender, "joined");
              try { chat.publish(channel, { type: "here", name, from: me, to: from }); } catch {}
              break;
            case "leave": typists.delete(from); showPeerNotice(sender, "left"); break;
            case "here": showPeerNotice(sender, "is here"); break;
            case "typing": typists.set(from, { name: sender, until: Date.now() + 4000 }); break;
            case "message":
              if (typeof text !== "string") return;
              typists.delete(from);
              showMessage(sender, text, false);
              break;
            default: return;
          }
          renderTyping();
        }

        function join(name, room) {
          const me = newSenderID();
          const channel = `chat/${room}`;
          const say = (type, text) => (text === undefined ? { type, name, from: me } : { type, name, text, from: me });
          $("join").hidden = true;
          $("chat").hidden = false;
          $("room-label").textContent = `room ${room} · ${name}`;
          document.title = `${room} · PubSub chat`;
          const scheme = location.protocol === "https:" ? "wss:" : "ws:";
          const url = `${scheme}//${location.host}/socketcluster/`;
          setStatus("connecting…", "");
          chat = new SocketClusterClient(url, {
            onConnect(isReconnect, subscribed) {
              setStatus("connected", "connected");
              showNotice(isReconnect ? "reconnected" : `connected to ${location.host} as ${name}, room ${room}`);
              // Subscribed first, then announced (again after a reconnect): no answer to the join is missed.
              subscribed.then(() => chat.publishAck(channel, say("join"))).catch((error) => showNotice(`could not join: ${error.message || error.name || error}`));
            },
            onDisconnect(code, reason, delay) {
              const why = reason ? `${code} ${reason}` : `${code}`;
              if (delay === null) {
                setStatus("disconnected", "");
                showNotice(`connection closed (${why})`);
              } else {
                setStatus("reconnecting…", "reconnecting");
                showNotice(`connection lost (${why}), reconnecting…`);
              }
            },
            onPublish(_channel, data) { received(data, me, name, channel); },
          });
          chat.subscribe(channel);
          chat.connect();

          let lastTyping = 0;
          messageField.addEventListener("input", () => {
            const value = messageField.value;
            if (value === "" || value.startsWith("/") || Date.now() - lastTyping < 3000 || !chat.connected) return;
            lastTyping = Date.now();
            try { chat.publish(channel, say("typing")); } catch {}
          });
          $("send").addEventListener("submit", (event) => {
            event.preventDefault();
            const text = messageField.value.trim();
            if (text === "") return;
            try {
              chat.publish(channel, say("message", text));
              showMessage(name, text, true);
              messageField.value = "";
              lastTyping = 0;
            } catch (error) {
              showNotice(`not sent: ${error.message}`);
            }
          });
          window.addEventListener("pagehide", () => {
            try { chat.publish(channel, say("leave")); } catch {}
            chat.close();
          });
          messageField.focus();
        }

        const query = new URLSearchParams(location.search);
        const initialName = (query.get("name") || "").trim();
        const initialRoom = (query.get("room") || "").trim();
        if (initialName && initialRoom) {
          join(initialName, initialRoom);
        } else {
          $("join-name").value = initialName;
          if (initialRoom) $("join-room").value = initialRoom;
          (initialName ? $("join-room") : $("join-name")).focus();
          $("join").addEventListener("submit", (event) => {
            event.preventDefault();
            const name = $("join-name").value.trim();
            const room = $("join-room").value.trim();
            if (!name || !room) return;
            history.replaceState(null, "", `?${new URLSearchParams({ name, room })}`);
            join(name, room);
          });
        }
        </script>
        </body>
        </html>
        """#
}
