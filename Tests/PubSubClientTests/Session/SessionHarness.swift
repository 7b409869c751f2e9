import XCTest
@testable import PubSubClient
import TestSupport

/// Drives a `ClientSession` with a manual clock and records everything it asks for.
struct SessionHarness {
    var session: ClientSession
    var now = MonotonicInstant(milliseconds: 1_000)
    var transport: TransportID?
    var sent: [String] = []
    var sentBinary: [[UInt8]] = []
    var events: [SessionEvent] = []
    var completions: [CallID: Result<JSONValue?, PubSubError>] = [:]
    var completionOrder: [CallID] = []
    /// `connect` calls completed, with how many events came before each completion.
    var connects: [CallID: (result: Result<HandshakeInfo, PubSubError>, eventsBefore: Int)] = [:]
    var closes: [(code: UInt16, reason: String)] = []
    var opens: [String] = []
    var savedTokens: [String] = []
    var removedTokens = 0

    init(configuration: SessionConfiguration = SessionHarness.configuration(), storedToken: String? = nil) {
        session = ClientSession(configuration: configuration, storedToken: storedToken)
    }

    static func configuration(
        autoReconnect: Bool = false, random: Double = 0.5,
        maxQueuedMessages: Int = 1000, maxQueuedBytes: Int = 4 << 20,
        protocolVersion: PingProtocolVersion = .v2,
        channelPrefix: String? = nil
    ) -> SessionConfiguration {
        configured(SessionConfiguration(address: ServerAddress(hostname: "127.0.0.1", port: 8000))) {
            $0.protocolVersion = protocolVersion
            $0.autoReconnect = autoReconnect
            $0.channelPrefix = channelPrefix
            $0.maxQueuedMessages = maxQueuedMessages
            $0.maxQueuedBytes = maxQueuedBytes
            $0.random = { random }
        }
    }

    mutating func drain() {
        while let action = session.nextAction() {
            switch action {
            case .openTransport(let id, let url, _):
                transport = id
                opens.append(url)
            case .sendText(let utf8): sent.append(String(decoding: utf8, as: UTF8.self))
            case .sendBinary(let bytes): sentBinary.append(bytes)
            case .closeTransport(_, let code, let reason): closes.append((code, reason))
            case .complete(let id, let result):
                XCTAssertNil(completions[id], "\(id) completed twice")
                completions[id] = result
                completionOrder.append(id)
            case .completeConnect(let id, let result):
                XCTAssertNil(connects[id], "\(id) completed twice")
                connects[id] = (result, events.count)
            case .saveToken(_, let token): savedTokens.append(token)
            case .removeToken: removedTokens += 1
            case .event(let event): events.append(event)
            }
        }
    }

    mutating func advance(_ milliseconds: Int64) {
        now = now.advanced(by: milliseconds)
        session.timeElapsed(now: now)
        drain()
    }

    /// Connects, opens the transport and answers the handshake.
    mutating func open(isAuthenticated: Bool = false, pingTimeout: Int64 = 20000) {
        session.connect(now: now)
        drain()
        openTransport()
        let cid = lastSentCid()
        receive(#"{"rid":\#(cid),"data":{"id":"abc","pingTimeout":\#(pingTimeout),"isAuthenticated":\#(isAuthenticated)}}"#)
    }

    mutating func openTransport() {
        guard let transport else { return XCTFail("no transport requested") }
        session.transportOpened(transport, now: now)
        drain()
    }

    mutating func receive(_ text: String) {
        guard let transport else { return XCTFail("no transport") }
        session.transportReceived(text: text, from: transport, now: now)
        drain()
    }

    mutating func serverClose(code: UInt16, reason: String = "") {
        guard let transport else { return XCTFail("no transport") }
        session.transportClosed(transport, code: code, reason: reason, now: now)
        drain()
    }

    func lastSentCid() -> Int64 {
        guard let text = sent.last, let value = try? JSONValue(parsing: text), let cid = value["cid"]?.intValue else {
            return -1
        }
        return cid
    }

    mutating func takeSent() -> [String] {
        defer { sent = [] }
        return sent
    }

    mutating func takeEvents() -> [SessionEvent] {
        defer { events = [] }
        return events
    }
}
