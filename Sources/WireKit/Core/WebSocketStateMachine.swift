#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One WebSocket connection from its first byte to its last, without I/O: the opening handshake
/// (client: request out, response checked; server: request checked, 101/400/426 out, or a plain HTTP answer), frames,
/// ping/pong, the close handshake and every timeout. The driver feeds it bytes, time and user
/// calls, then drains events (`nextEvent()`), bytes to write (`takeOutput`) and
/// `wantsTransportClosed`, and calls `timeElapsed(now:)` at `nextDeadline`.
///
/// Peer errors fail the connection with RFC 6455's codes (1002, 1007, 1009); the `closed` event
/// comes exactly once. When `wantsTransportClosed` is true the driver writes what output is
/// left, then closes the transport.
///
/// Pings are answered with at most one pong pending once pongs stop flowing (RFC 6455 §5.5.3
/// allows answering only the most recent of several pings). While the driver takes its pongs
/// (the last `takeOutput` included the pong), every ping is answered at once, in order with the
/// rest of the output; once a driver holds pongs back because the previous one is still waiting
/// to be written (`takeOutput(appendingTo:includingPong:)` with `false`), the pong owed is held
/// apart from the output (`owesPong`) and a newer ping replaces its payload, so a peer that
/// floods pings and never reads cannot fill memory with pongs: it gets the pongs of a read or
/// two before the hold-back starts, then one.
package struct WebSocketStateMachine: Sendable {
    /// Where the connection is in its life.
    package enum Phase: Sendable, Hashable {
        /// Opening handshake in progress.
        case connecting
        /// Messages flow both ways.
        case open
        /// We sent a close frame and wait for the peer's.
        case closing
        /// The `closed` event was emitted.
        case closed
    }

    private enum State: Sendable {
        /// Client before `start(now:)`.
        case idle
        /// Client: request sent, gathering the response head.
        case awaitingResponse
        /// Client: non-101 answer; gathering up to `expected` bytes of body.
        case readingRejectionBody(status: Int, headers: HTTPHeaders, body: [UInt8], expected: Int)
        /// Server: gathering the request head.
        case awaitingRequest
        case open
        /// Our close frame is out; waiting for the peer's.
        case closeSent
        case closed

        var isOpen: Bool {
            if case .open = self { return true }
            return false
        }

        var isCloseSent: Bool {
            if case .closeSent = self { return true }
            return false
        }
    }

    /// Whether this end is the client or the server; decides masking and who closes the TCP connection first.
    package let role: WebSocketRole
    /// The limits and timeouts it enforces.
    package let configuration: WebSocketConfiguration
    /// Client role: the handshake this connection sends.
    package let clientHandshake: ClientHandshake?
    /// Server role: screens the upgrade request before it is validated; a status refuses it.
    private let acceptRequest: (@Sendable (HTTPRequestHead) -> WebSocketUpgradeDecision)?

    private var state: State
    private var headParser: HTTPHeadParser
    private var decoder: WebSocketFrameDecoder
    private var assembler: MessageAssembler
    /// Header of the frame whose payload is arriving.
    private var currentHeader: WebSocketFrameHeader?
    /// Payload of the control frame being received, unmasked (at most 125 bytes).
    private var controlPayload: [UInt8] = []
    /// Opcode of the fragmented message we are sending, if one is unfinished.
    private var outgoingFragmentOpcode: WebSocketOpcode?
    /// permessage-deflate, once negotiated; behind a reference, because most connections never
    /// negotiate it and it would take 150 bytes of every machine.
    private var deflate: DeflateState?
    /// Whether the frame whose payload is arriving belongs to a compressed message.
    private var currentFrameIsCompressed = false

    private var output: [UInt8] = []
    /// Payload of the pong owed for the peer's latest ping while `owesPong`; capacity reused.
    private var owedPongPayload: [UInt8] = []
    /// Whether a pong is owed for the peer's latest ping and not yet framed into the output.
    package private(set) var owesPong = false
    /// Whether the last output taken included the pong owed (the driver's pongs are leaving):
    /// then each ping is answered at once.
    private var pongsFlowing = true
    /// Whether a pong was framed into the output since output was last taken.
    private var pongInOutput = false
    private var maskingKeys = WebSocketMaskingKeySource()
    /// Pending events; taken ones are moved out (left `nil`) so they are not retained twice.
    private var events: [WebSocketEvent?] = []
    private var eventIndex = 0

    /// Whether the driver should close the transport (after writing what output is left).
    package private(set) var wantsTransportClosed = false
    /// The earliest instant at which `timeElapsed(now:)` has something to do, if any. Stored
    /// (updated by every input that can move a deadline) so the driver, which reads it after
    /// every input, gets a plain load instead of a call that copies the whole machine.
    package private(set) var nextDeadline: WebSocketInstant?

    private var handshakeDeadline: WebSocketInstant?
    /// Closing: when to give up on the peer's close frame. Closed (client role): when to stop
    /// waiting for the server to close TCP. Closed after a plain HTTP answer (server role): when
    /// to stop reading the request's body.
    private var closeDeadline: WebSocketInstant?
    private var lastReceive = WebSocketInstant(nanoseconds: 0)
    private var keepaliveDeadline: WebSocketInstant?
    private var pendingPings: [(id: WebSocketPingID, deadline: WebSocketInstant?)] = []
    /// When the message being received must be complete (`messageTimeout`), set at the end of
    /// the read its first frame arrived in.
    private var messageDeadline: WebSocketInstant?
    private var lastPingID: UInt64 = 0
    /// Server role, after a plain HTTP answer: bytes of the request's body still to be read and
    /// dropped before the transport is closed (closing with unread bytes would reset the
    /// connection, and the client could lose the answer), until `closeDeadline`.
    private var requestBodyToDiscard = 0

    /// Most bytes of a plain HTTP request's body read and dropped after its answer.
    package static let maxDiscardedRequestBody = 64 << 10

    /// A client connection that will send `handshake` when started.
    package init(client handshake: ClientHandshake, configuration: WebSocketConfiguration = WebSocketConfiguration()) {
        role = .client
        self.configuration = configuration
        clientHandshake = handshake
        acceptRequest = nil
        state = .idle
        headParser = HTTPHeadParser(maxSize: configuration.maxHandshakeHeadSize)
        decoder = WebSocketFrameDecoder(maxFrameSize: configuration.maxFrameSize, maskRequirement: .unmasked)
        assembler = MessageAssembler(maxMessageSize: configuration.maxMessageSize, budget: configuration.partialMessageBudget)
    }

    /// A server connection that waits for the client's upgrade request. `acceptRequest` sees
    /// the request head first: `.accept` lets it through to validation, `.refuse(status:)`
    /// answers it with that status (the connection then closes with `.invalidUpgradeRequest`),
    /// `.respond(_:)` answers it with its response (the connection then closes without an error).
    package init(
        server configuration: WebSocketConfiguration = WebSocketConfiguration(),
        acceptRequest: (@Sendable (HTTPRequestHead) -> WebSocketUpgradeDecision)? = nil
    ) {
        role = .server
        self.configuration = configuration
        clientHandshake = nil
        self.acceptRequest = acceptRequest
        state = .awaitingRequest
        headParser = HTTPHeadParser(maxSize: configuration.maxHandshakeHeadSize)
        decoder = WebSocketFrameDecoder(maxFrameSize: configuration.maxFrameSize, maskRequirement: .masked)
        assembler = MessageAssembler(maxMessageSize: configuration.maxMessageSize, budget: configuration.partialMessageBudget)
    }

    /// Where the connection is in its life.
    package var phase: Phase {
        switch state {
        case .idle, .awaitingResponse, .readingRejectionBody, .awaitingRequest: .connecting
        case .open: .open
        case .closeSent: .closing
        case .closed: .closed
        }
    }

    // MARK: - Inputs

    /// The transport is connected. Client: queues the upgrade request. Both roles: starts the
    /// handshake timeout. Calling it again does nothing.
    package mutating func start(now: WebSocketInstant) {
        defer { updateNextDeadline() }
        switch state {
        case .idle:
            guard let handshake = clientHandshake else { return }
            output.append(contentsOf: handshake.requestBytes())
            if let offer = deflateOffer {
                // The request ends with an empty line: the offer goes in before it.
                output.removeLast(2)
                output.append(contentsOf: "Sec-WebSocket-Extensions: \(offer)\r\n\r\n".utf8)
            }
            state = .awaitingResponse
        case .awaitingRequest:
            guard handshakeDeadline == nil else { return }
        default:
            return
        }
        lastReceive = now
        if let timeout = configuration.handshakeTimeout { handshakeDeadline = now + timeout }
    }

    /// Bytes read from the transport.
    package mutating func receive(_ bytes: [UInt8], now: WebSocketInstant) {
        bytes.withUnsafeBytes { receive($0, now: now) }
    }

    /// Bytes read from the transport; only used during the call.
    package mutating func receive(_ bytes: UnsafeRawBufferPointer, now: WebSocketInstant) {
        defer { updateNextDeadline() }
        guard !bytes.isEmpty else { return }
        lastReceive = now
        keepaliveDeadline = nil
        switch state {
        case .idle:
            fail(.invalidHandshakeResponse("data arrived before the request was sent"), now: now)
        case .awaitingResponse:
            receiveResponseHead(bytes, now: now)
        case .readingRejectionBody(let status, let headers, var body, let expected):
            state = .awaitingResponse  // drop the copy held in the state while the body grows
            body.append(contentsOf: bytes.prefix(max(0, expected - body.count)))
            if body.count >= expected {
                finishRejection(status: status, headers: headers, body: body)
            } else {
                state = .readingRejectionBody(status: status, headers: headers, body: body, expected: expected)
            }
        case .awaitingRequest:
            receiveRequestHead(bytes, now: now)
        case .open, .closeSent:
            receiveFrames(bytes, now: now)
        case .closed:
            // Anything after the peer's close frame or a failure is ignored; a plain HTTP
            // request's body is counted, so the transport closes once it was read.
            guard requestBodyToDiscard > 0 else { break }
            if bytes.count >= requestBodyToDiscard { stopDiscarding() } else { requestBodyToDiscard -= bytes.count }
        }
    }

    /// Sends a text message. Throws `.notOpen` during the handshake and `.closed` once closing.
    package mutating func sendText(_ text: String) throws(WebSocketError) {
        try checkCanSendData()
        var text = text
        text.withUTF8 { utf8 in encodeMessage(.text, payload: UnsafeRawBufferPointer(utf8)) }
    }

    /// Sends a text message from UTF-8 its caller produced itself (a serializer's output): the
    /// bytes are framed as they are, not checked and never made a `String`. Throws like
    /// `sendText(_:)`. Bytes that are not UTF-8 make a frame the peer rejects.
    package mutating func sendText(trustedUTF8 bytes: [UInt8]) throws(WebSocketError) {
        try checkCanSendData()
        bytes.withUnsafeBytes { payload in encodeMessage(.text, payload: payload) }
    }

    /// Sends a binary message. Throws `.notOpen` during the handshake and `.closed` once closing.
    package mutating func sendBinary(_ bytes: some ContiguousBytes) throws(WebSocketError) {
        try checkCanSendData()
        bytes.withUnsafeBytes { payload in encodeMessage(.binary, payload: payload) }
    }

    /// Sends one fragment: `.text` or `.binary` starts a message, `.continuation` continues it,
    /// `fin` ends it. Throws `.invalidRequest` when the order is wrong.
    package mutating func sendFragment(opcode: WebSocketOpcode, _ bytes: some ContiguousBytes, fin: Bool) throws(WebSocketError) {
        guard state.isOpen else { throw phase == .connecting ? .notOpen : .closed }
        switch opcode {
        case .text, .binary:
            guard outgoingFragmentOpcode == nil else { throw .invalidRequest("a fragmented message is unfinished; continue it first") }
            outgoingFragmentOpcode = fin ? nil : opcode
        case .continuation:
            guard outgoingFragmentOpcode != nil else { throw .invalidRequest("no fragmented message to continue") }
            if fin { outgoingFragmentOpcode = nil }
        default:
            throw .invalidRequest("\(opcode) is not a data opcode")
        }
        bytes.withUnsafeBytes { encode(opcode, fin: fin, payload: $0) }
    }

    /// Sends a ping with `payload` (at most 125 bytes). Its pong shows up as a `pong` event.
    package mutating func sendPing(_ payload: some ContiguousBytes) throws(WebSocketError) {
        try sendControl(.ping, payload)
    }

    /// Sends an unsolicited pong (a one-way heartbeat), at most 125 bytes.
    package mutating func sendPong(_ payload: some ContiguousBytes) throws(WebSocketError) {
        try sendControl(.pong, payload)
    }

    /// Sends a ping whose pong the machine matches: `pingCompleted(id)` follows when a pong for
    /// it (or a later ping) arrives, `pingTimedOut(id)` if none does within `timeout`.
    package mutating func ping(timeout: Duration?, now: WebSocketInstant) throws(WebSocketError) -> WebSocketPingID {
        defer { updateNextDeadline() }
        guard state.isOpen else { throw phase == .connecting ? .notOpen : .closed }
        lastPingID &+= 1
        let id = WebSocketPingID(rawValue: lastPingID)
        var payload = id.rawValue.bigEndian
        withUnsafeBytes(of: &payload) { encode(.ping, fin: true, payload: $0) }
        pendingPings.append((id, timeout.map { now + $0 }))
        return id
    }

    /// Starts the close handshake with `code` and `reason` (cut to 123 UTF-8 bytes). Codes that
    /// must not go on the wire (1005, 1006, 1015, ...) send a close frame without a code. During
    /// the opening handshake it abandons the connection. Does nothing once closing.
    package mutating func close(code: WebSocketCloseCode = .normalClosure, reason: String = "", now: WebSocketInstant) {
        defer { updateNextDeadline() }
        switch state {
        case .open:
            encodeClose(code: code, reason: reason)
            state = .closeSent
            closeDeadline = now + configuration.closeTimeout
        case .idle, .awaitingResponse, .readingRejectionBody, .awaitingRequest:
            finish(WebSocketCloseInfo(code: code, reason: reason, wasClean: false, error: nil))
            wantsTransportClosed = true
        case .closeSent, .closed:
            break
        }
    }

    /// The transport ended (EOF, reset or error). Reports `closed` (1006, not clean) unless the
    /// connection was already over. Output already queued (say, the echo of a close frame that
    /// arrived with the EOF) stays for the driver to write if its transport still can.
    package mutating func transportClosed(error: WebSocketError? = nil, now: WebSocketInstant) {
        defer { updateNextDeadline() }
        wantsTransportClosed = true
        stopDiscarding()
        switch state {
        case .readingRejectionBody(let status, let headers, let body, _):
            finishRejection(status: status, headers: headers, body: body)
        case .idle, .awaitingResponse, .awaitingRequest:
            finish(
                WebSocketCloseInfo(
                    code: .abnormalClosure, reason: "", wasClean: false,
                    error: error ?? .connectionClosed("the connection closed during the opening handshake")))
        case .open, .closeSent:
            finish(
                WebSocketCloseInfo(
                    code: .abnormalClosure, reason: "", wasClean: false,
                    error: error ?? .connectionClosed("the peer closed the connection without a close frame")))
        case .closed:
            break
        }
        closeDeadline = nil
    }

    /// Fires every deadline at or before `now`: handshake, close wait, message, keepalive, ping
    /// timeouts.
    package mutating func timeElapsed(now: WebSocketInstant) {
        defer { updateNextDeadline() }
        if let deadline = handshakeDeadline, deadline <= now {
            handshakeDeadline = nil
            switch state {
            case .readingRejectionBody(let status, let headers, let body, _):
                finishRejection(status: status, headers: headers, body: body)
            case .idle, .awaitingResponse, .awaitingRequest:
                fail(.timedOut(.handshake(limit: configuration.handshakeTimeout ?? .zero)), now: now)
            default:
                break
            }
        }
        if let deadline = closeDeadline, deadline <= now {
            closeDeadline = nil
            requestBodyToDiscard = 0
            if case .closeSent = state {
                finish(
                    WebSocketCloseInfo(
                        code: .abnormalClosure, reason: "", wasClean: false,
                        error: .timedOut(.closingHandshake(limit: configuration.closeTimeout))))
            }
            wantsTransportClosed = true
        }
        if let deadline = messageDeadline, deadline <= now {
            messageDeadline = nil
            if state.isOpen || state.isCloseSent {
                fail(.timedOut(.message(limit: configuration.messageTimeout ?? .zero)), now: now)
            }
        }
        if state.isOpen || state.isCloseSent {
            var index = 0
            while index < pendingPings.count {
                if let deadline = pendingPings[index].deadline, deadline <= now {
                    push(.pingTimedOut(pendingPings[index].id))
                    pendingPings.remove(at: index)
                } else {
                    index += 1
                }
            }
        }
        if let keepalive = configuration.keepalive, state.isOpen {
            if let deadline = keepaliveDeadline {
                if deadline <= now {
                    keepaliveDeadline = nil
                    finish(
                        WebSocketCloseInfo(
                            code: .abnormalClosure, reason: "", wasClean: false,
                            error: .timedOut(.keepalive(limit: keepalive.timeout))))
                    wantsTransportClosed = true
                }
            } else if lastReceive + keepalive.interval <= now {
                encode(.ping, fin: true, payload: UnsafeRawBufferPointer(start: nil, count: 0))
                keepaliveDeadline = now + keepalive.timeout
            }
        }
    }

    /// The earliest deadline of the current state, recomputed by `updateNextDeadline()`.
    private func earliestDeadline() -> WebSocketInstant? {
        var earliest: WebSocketInstant?
        func consider(_ instant: WebSocketInstant?) {
            guard let instant else { return }
            if earliest.map({ instant < $0 }) ?? true { earliest = instant }
        }
        if phase == .connecting { consider(handshakeDeadline) }
        if !wantsTransportClosed { consider(closeDeadline) }
        if state.isOpen || state.isCloseSent {
            for ping in pendingPings { consider(ping.deadline) }
            consider(messageDeadline)
        }
        if let keepalive = configuration.keepalive, state.isOpen {
            consider(keepaliveDeadline ?? lastReceive + keepalive.interval)
        }
        return earliest
    }

    private mutating func updateNextDeadline() {
        nextDeadline = earliestDeadline()
    }

    // MARK: - Outputs

    /// The next event, in order, or `nil` when all were taken.
    package mutating func nextEvent() -> WebSocketEvent? {
        guard eventIndex < events.count else {
            if !events.isEmpty {
                events.removeAll(keepingCapacity: true)
                eventIndex = 0
            }
            return nil
        }
        let event = events[eventIndex].take()
        eventIndex += 1
        return event
    }

    /// Whether there are bytes to write (a pong owed included).
    package var hasOutput: Bool { !output.isEmpty || owesPong }

    /// Bytes waiting to be taken for writing, the frame of a pong owed included.
    package var pendingOutputCount: Int {
        output.count + (owesPong ? 2 + owedPongPayload.count + (role == .client ? 4 : 0) : 0)
    }

    /// Takes every byte waiting to be written, the pong owed (framed last) included.
    package mutating func takeOutput() -> [UInt8] {
        placeOwedPong()
        pongsFlowing = true
        pongInOutput = false
        defer { output = [] }
        return output
    }

    /// Moves every byte waiting to be written, the pong owed (framed last) included, onto the
    /// end of `buffer`. When `buffer` is empty the two buffers are swapped instead of copied,
    /// so both capacities get reused.
    package mutating func takeOutput(appendingTo buffer: inout [UInt8]) {
        _ = takeOutput(appendingTo: &buffer, includingPong: true)
    }

    /// Moves the bytes waiting to be written onto the end of `buffer` like
    /// `takeOutput(appendingTo:)`; the pong owed goes with them (framed last) only when
    /// `includingPong`, else it stays owed and a later ping replaces it. A driver passes false
    /// while the pong it last wrote is still waiting in its transport. Returns whether a pong
    /// was framed.
    package mutating func takeOutput(appendingTo buffer: inout [UInt8], includingPong: Bool) -> Bool {
        pongsFlowing = includingPong
        if includingPong { placeOwedPong() }
        let placed = pongInOutput
        pongInOutput = false
        if buffer.isEmpty {
            swap(&buffer, &output)
        } else {
            buffer.append(contentsOf: output)
            output.removeAll(keepingCapacity: true)
        }
        return placed
    }

    /// Frames the pong owed, if any, onto the output.
    private mutating func placeOwedPong() {
        guard owesPong else { return }
        owesPong = false
        owedPongPayload.withUnsafeBytes { encode(.pong, fin: true, payload: $0) }
        pongInOutput = true
    }

    // MARK: - Handshake

    private mutating func receiveResponseHead(_ bytes: UnsafeRawBufferPointer, now: WebSocketInstant) {
        let used: Int?
        do {
            used = try headParser.append(bytes)
        } catch {
            return fail(.invalidHandshakeResponse(error.message), now: now)
        }
        guard let used, let handshake = clientHandshake else { return }
        let head: HTTPResponseHead
        do {
            head = try headParser.responseHead()
        } catch {
            return fail(.invalidHandshakeResponse(error.message), now: now)
        }
        let rest = UnsafeRawBufferPointer(rebasing: bytes[used...])
        handshakeDeadline = head.status == 101 ? nil : handshakeDeadline
        switch head.status {
        case 101:
            var info: WebSocketHandshakeInfo
            do {
                var checked = head
                if deflateOffer != nil, let options = configuration.perMessageDeflate {
                    let answer = head.headers.listElements(name: "Sec-WebSocket-Extensions")
                    if let parameters = try PerMessageDeflateNegotiation.accept(answer: answer, offered: options) {
                        enableDeflate(parameters, options: options)
                    }
                    checked.headers.remove(name: "Sec-WebSocket-Extensions")
                }
                info = try handshake.validate(checked)
                info.headers = head.headers
            } catch {
                return fail(error, now: now)
            }
            open(info, now: now)
            if !rest.isEmpty { receiveFrames(rest, now: now) }
        case 300..<400:
            finish(
                WebSocketCloseInfo(
                    code: .abnormalClosure, reason: "", wasClean: false,
                    error: .redirected(status: head.status, location: head.headers.first(name: "Location"), headers: head.headers)))
            wantsTransportClosed = true
        default:
            let cap = max(0, configuration.maxRejectionBodySize)
            let announced = head.headers.first(name: "Content-Length").flatMap { Int($0) }.map { max(0, $0) }
            let expected = min(announced ?? 0, cap)
            // Up to the announced length; without one, what came with the head (up to the cap).
            let body = Array(rest.prefix(announced == nil ? cap : expected))
            if body.count >= expected {
                finishRejection(status: head.status, headers: head.headers, body: body)
            } else {
                state = .readingRejectionBody(status: head.status, headers: head.headers, body: body, expected: expected)
            }
        }
    }

    private mutating func finishRejection(status: Int, headers: HTTPHeaders, body: [UInt8]) {
        finish(
            WebSocketCloseInfo(
                code: .abnormalClosure, reason: "", wasClean: false,
                error: .handshakeRejected(status: status, headers: headers, body: body)))
        wantsTransportClosed = true
    }

    private mutating func receiveRequestHead(_ bytes: UnsafeRawBufferPointer, now: WebSocketInstant) {
        let used: Int?
        do {
            used = try headParser.append(bytes)
        } catch {
            return reject(status: 400, reason: error.message)
        }
        guard let used else { return }
        let handshake: ServerHandshake
        do {
            let head = try headParser.requestHead()
            let decision = acceptRequest?(head)
            if let response = decision?.response {
                return answer(head, with: response, rest: UnsafeRawBufferPointer(rebasing: bytes[used...]), now: now)
            }
            if let status = decision?.refusalStatus { return reject(status: status, reason: "the server refused this request") }
            handshake = try ServerHandshake(validating: head, supportedSubprotocols: configuration.subprotocols)
        } catch let error as HTTPHeadParser.ParseError {
            return reject(status: 400, reason: error.message)
        } catch let error as WebSocketError where error.code == .invalidUpgradeRequest {
            return reject(status: error.httpStatus ?? 400, reason: error.message)
        } catch {
            return reject(status: 400, reason: "\(error)")
        }
        var responseHeaders = configuration.responseHeaders
        if let options = configuration.perMessageDeflate, ZlibLibrary.isAvailable,
            let (parameters, answer) = PerMessageDeflateNegotiation.respond(
                to: handshake.request.headers.listElements(name: "Sec-WebSocket-Extensions"), options: options)
        {
            enableDeflate(parameters, options: options)
            responseHeaders.add(name: "Sec-WebSocket-Extensions", value: answer)
        }
        output.append(contentsOf: handshake.responseBytes(extraHeaders: responseHeaders))
        open(handshake.info, now: now)
        let rest = UnsafeRawBufferPointer(rebasing: bytes[used...])
        if !rest.isEmpty { receiveFrames(rest, now: now) }
    }

    private mutating func reject(status: Int, reason: String) {
        output.append(contentsOf: ServerHandshake.rejectionBytes(status: status, reason: reason))
        finish(
            WebSocketCloseInfo(
                code: .abnormalClosure, reason: "", wasClean: false,
                error: .invalidUpgradeRequest(status: status, reason: reason)))
        wantsTransportClosed = true
    }

    /// Answers a request that is not upgraded with `response`, then reads and drops what the
    /// request announced of a body (at most `maxDiscardedRequestBody` bytes, `rest` already
    /// arrived with the head) for at most `closeTimeout` before the transport is closed. The
    /// connection ends with 1006 and no error: nothing went wrong, it was never a WebSocket.
    private mutating func answer(_ request: HTTPRequestHead, with response: PlainHTTPResponse, rest: UnsafeRawBufferPointer, now: WebSocketInstant) {
        output.append(contentsOf: response.serialized(requestMethod: request.method))
        finish(WebSocketCloseInfo(code: .abnormalClosure, reason: "", wasClean: false, error: nil))
        let lengths = request.headers["Content-Length"]
        let announced: Int
        if request.headers.contains(name: "Transfer-Encoding") {
            // A chunked body's length is unknown: drop up to the cap, or until the client closes.
            announced = Self.maxDiscardedRequestBody
        } else if lengths.count == 1, let length = Int(lengths[0]), length > 0 {
            announced = min(length, Self.maxDiscardedRequestBody)
        } else {
            announced = 0
        }
        requestBodyToDiscard = max(0, announced - rest.count)
        if requestBodyToDiscard > 0 {
            closeDeadline = now + configuration.closeTimeout
        } else {
            wantsTransportClosed = true
        }
    }

    /// Ends the reading of a plain HTTP request's body: the transport may close.
    private mutating func stopDiscarding() {
        guard requestBodyToDiscard > 0 else { return }
        requestBodyToDiscard = 0
        closeDeadline = nil
        wantsTransportClosed = true
    }

    /// The client's permessage-deflate offer, when configured and zlib is there.
    private var deflateOffer: String? {
        guard role == .client, let options = configuration.perMessageDeflate, ZlibLibrary.isAvailable else { return nil }
        return PerMessageDeflateNegotiation.offer(options)
    }

    private mutating func enableDeflate(_ parameters: PerMessageDeflateParameters, options: PerMessageDeflateOptions) {
        deflate = DeflateState(
            PerMessageDeflate(
                parameters: parameters, role: role, options: options, maxMessageSize: configuration.maxMessageSize,
                budget: configuration.partialMessageBudget))
        decoder.allowedReservedBits = 0b100
    }

    /// What permessage-deflate settled, if it was negotiated.
    package var perMessageDeflateParameters: PerMessageDeflateParameters? { deflate?.value.parameters }

    private mutating func open(_ info: WebSocketHandshakeInfo, now: WebSocketInstant) {
        var info = info
        info.perMessageDeflate = deflate?.value.parameters
        state = .open
        handshakeDeadline = nil
        lastReceive = now
        headParser = HTTPHeadParser(maxSize: 0)
        push(.opened(info))
    }

    // MARK: - Frames

    private mutating func receiveFrames(_ bytes: UnsafeRawBufferPointer, now: WebSocketInstant) {
        defer { if configuration.messageTimeout != nil { armMessageDeadline(now: now) } }
        var index = 0
        while state.isOpen || state.isCloseSent {
            let element: WebSocketFrameDecoder.Element?
            do {
                element = try decoder.next(bytes, index: &index)
            } catch {
                return fail(error, now: now)
            }
            guard let element else { return }
            switch element {
            case .header(let header):
                currentHeader = header
                if header.opcode.isControl {
                    if header.reservedBits != 0 { return fail(.protocolViolation(.compressedControlFrame(header.opcode)), now: now) }
                    controlPayload.removeAll(keepingCapacity: true)
                } else {
                    do {
                        if deflate != nil {
                            currentFrameIsCompressed = try deflate!.value.begin(header, assemblerBusy: assembler.messageOpcode != nil)
                            if currentFrameIsCompressed { continue }
                        }
                        try assembler.begin(header)
                    } catch {
                        return fail(error, now: now)
                    }
                }
            case .payload(let slice, let offset, let isFrameEnd):
                guard let header = currentHeader else { continue }
                if header.opcode.isControl {
                    let start = controlPayload.count
                    controlPayload.append(contentsOf: slice)
                    if let key = header.maskingKey {
                        controlPayload.withUnsafeMutableBytes { all in
                            WebSocketMasking.apply(key, to: UnsafeMutableRawBufferPointer(rebasing: all[start...]), phase: offset)
                        }
                    }
                    if isFrameEnd { receiveControl(header.opcode, now: now) }
                } else if currentFrameIsCompressed {
                    do {
                        if let message = try deflate!.value.receive(slice, key: header.maskingKey, offset: offset, isFrameEnd: isFrameEnd) {
                            messageDeadline = nil
                            push(message)
                        }
                    } catch {
                        return fail(error, now: now)
                    }
                } else {
                    do {
                        if let message = try assembler.receive(slice, key: header.maskingKey, offset: offset, isFrameEnd: isFrameEnd) {
                            messageDeadline = nil
                            push(message)
                        }
                    } catch {
                        return fail(error, now: now)
                    }
                }
                if isFrameEnd { currentHeader = nil }
            }
        }
    }

    /// A message is unfinished at the end of a read: its deadline runs from now, unless it
    /// already runs (set in an earlier read; a delivered message clears it).
    private mutating func armMessageDeadline(now: WebSocketInstant) {
        guard let timeout = configuration.messageTimeout, state.isOpen || state.isCloseSent else { return }
        let unfinished = assembler.messageOpcode != nil || deflate?.value.inboundOpcode != nil
        if !unfinished {
            messageDeadline = nil
        } else if messageDeadline == nil {
            messageDeadline = now + timeout
        }
    }

    private mutating func receiveControl(_ opcode: WebSocketOpcode, now: WebSocketInstant) {
        switch opcode {
        case .ping:
            push(.ping(Data(controlPayload)))
            if state.isOpen {
                // While pongs flow, each ping is answered at once, in order with what else goes
                // out; once the driver holds pongs back, only the latest ping is answered
                // (RFC 6455 §5.5.3): it replaces the pong still owed.
                swap(&owedPongPayload, &controlPayload)
                owesPong = true
                if pongsFlowing { placeOwedPong() }
            }
        case .pong:
            push(.pong(Data(controlPayload)))
            if controlPayload.count == 8, !pendingPings.isEmpty {
                let value = controlPayload.withUnsafeBytes { UInt64(bigEndian: $0.loadUnaligned(as: UInt64.self)) }
                if pendingPings.contains(where: { $0.id.rawValue == value }) {
                    for ping in pendingPings where ping.id.rawValue <= value { push(.pingCompleted(ping.id)) }
                    pendingPings.removeAll { $0.id.rawValue <= value }
                }
            }
        case .close:
            receiveClose(now: now)
        default:
            break
        }
    }

    private mutating func receiveClose(now: WebSocketInstant) {
        var code = WebSocketCloseCode.noStatusReceived
        var reason = ""
        if controlPayload.count == 1 {
            return fail(.protocolViolation(.oneByteClosePayload), now: now)
        }
        if controlPayload.count >= 2 {
            code = WebSocketCloseCode(UInt16(controlPayload[0]) << 8 | UInt16(controlPayload[1]))
            guard code.isValidOnWire else {
                return fail(.protocolViolation(.invalidCloseCode(code.rawValue)), now: now)
            }
            let valid = controlPayload.withUnsafeBytes { UTF8Validator.isValid(UnsafeRawBufferPointer(rebasing: $0[2...])) }
            guard valid else { return fail(.invalidUTF8("close reason is not valid UTF-8"), now: now) }
            reason = String(decoding: controlPayload[2...], as: UTF8.self)
        }
        if state.isOpen {
            // Echo the peer's code (RFC 6455 §5.5.1).
            encodeClose(code: code, reason: "")
        }
        finish(WebSocketCloseInfo(code: code, reason: reason, wasClean: true, error: nil))
        if role == .server {
            wantsTransportClosed = true
        } else {
            // RFC 6455 §7.1.1: the server closes TCP first; wait for it, bounded.
            closeDeadline = now + configuration.closeTimeout
        }
    }

    // MARK: - Sending

    private func checkCanSendData() throws(WebSocketError) {
        guard state.isOpen else { throw phase == .connecting ? .notOpen : .closed }
        if outgoingFragmentOpcode != nil { throw .invalidRequest("a fragmented message is unfinished; finish it with sendFragment first") }
    }

    private mutating func sendControl(_ opcode: WebSocketOpcode, _ payload: some ContiguousBytes) throws(WebSocketError) {
        guard state.isOpen else { throw phase == .connecting ? .notOpen : .closed }
        let fits = payload.withUnsafeBytes { bytes in
            guard bytes.count <= 125 else { return false }
            encode(opcode, fin: true, payload: bytes)
            return true
        }
        guard fits else { throw .invalidRequest("a \(opcode) payload is limited to 125 bytes") }
    }

    private mutating func encode(_ opcode: WebSocketOpcode, fin: Bool, payload: UnsafeRawBufferPointer) {
        WebSocketFrameEncoder.encode(
            opcode: opcode, fin: fin, payload: payload,
            maskingKey: role == .client ? maskingKeys.next() : nil, into: &output)
    }

    /// Frames a whole message: compressed when permessage-deflate is on and takes it.
    private mutating func encodeMessage(_ opcode: WebSocketOpcode, payload: UnsafeRawBufferPointer) {
        if deflate != nil, encodeCompressed(opcode, payload: payload) { return }
        encode(opcode, fin: true, payload: payload)
    }

    /// Sends a whole message compressed (RSV1 set) when permessage-deflate takes it; false
    /// when it should go uncompressed.
    private mutating func encodeCompressed(_ opcode: WebSocketOpcode, payload: UnsafeRawBufferPointer) -> Bool {
        let key = role == .client ? maskingKeys.next() : nil
        var output = self.output
        self.output = []
        defer { self.output = output }
        return deflate!.value.compress(payload) { compressed in
            WebSocketFrameEncoder.encode(opcode: opcode, fin: true, reservedBits: 0b100, payload: compressed, maskingKey: key, into: &output)
        }
    }

    private mutating func encodeClose(code: WebSocketCloseCode, reason: String) {
        // A pong owed goes before the close frame: nothing may follow that.
        placeOwedPong()
        guard code.isValidOnWire else {
            return encode(.close, fin: true, payload: UnsafeRawBufferPointer(start: nil, count: 0))
        }
        var payload: [UInt8] = [UInt8(truncatingIfNeeded: code.rawValue >> 8), UInt8(truncatingIfNeeded: code.rawValue)]
        for scalar in reason.unicodeScalars {
            let utf8 = UTF8.encode(scalar) ?? UTF8.EncodedScalar()
            if payload.count + utf8.count > 125 { break }
            payload.append(contentsOf: utf8)
        }
        payload.withUnsafeBytes { encode(.close, fin: true, payload: $0) }
    }

    // MARK: - Ending

    /// Fails the connection: sends a close frame with the error's code if none was sent yet,
    /// reports `closed` and asks for the transport to close.
    private mutating func fail(_ error: WebSocketError, now: WebSocketInstant) {
        let code = error.closeCode
        if state.isOpen, code.isValidOnWire {
            encodeClose(code: code, reason: Self.shortReason(error))
        }
        finish(WebSocketCloseInfo(code: code, reason: "", wasClean: false, error: error))
        wantsTransportClosed = true
    }

    private static func shortReason(_ error: WebSocketError) -> String {
        switch error.code {
        case .protocolViolation: error.violation?.description ?? error.message
        case .invalidUTF8: error.message
        case .messageTooBig: "message too big"
        case .partialMessageBudgetExceeded: "server busy: too many unfinished messages"
        case .timedOut where error.timeout?.kind == .message: "message not finished in time"
        default: ""
        }
    }

    /// Emits the `closed` event (once) and enters the closed state.
    private mutating func finish(_ info: WebSocketCloseInfo) {
        if case .closed = state { return }
        state = .closed
        handshakeDeadline = nil
        keepaliveDeadline = nil
        closeDeadline = nil
        pendingPings.removeAll()
        controlPayload = []
        owesPong = false
        owedPongPayload = []
        messageDeadline = nil
        assembler.releaseBudget()
        deflate?.value.releaseBudget()
        push(.closed(info))
    }

    private mutating func push(_ event: consuming WebSocketEvent) {
        events.append(event)
    }
}

/// A machine's permessage-deflate state, behind one reference.
///
/// `@unchecked Sendable`: only the machine that made it uses it, from the one queue the machine
/// is confined to; `PerMessageDeflate` already shares its zlib streams between copies.
private final class DeflateState: @unchecked Sendable {
    var value: PerMessageDeflate
    init(_ value: PerMessageDeflate) { self.value = value }
}
