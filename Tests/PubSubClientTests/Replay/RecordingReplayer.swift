import XCTest
@testable import PubSubClient

/// What a scenario's user does, step by step, when the recording expects a client frame the
/// session would not send by itself.
typealias UserStep = @Sendable (inout ClientSession, MonotonicInstant) -> Void

/// Replays one recording against a `ClientSession`: recorded server frames go in, and every
/// frame the session writes must equal the next recorded client frame.
struct RecordingReplayer {
    let fileName: String
    var storedToken: String?
    var steps: [UserStep]
    /// Answers server invokes (`.request` events) the way the scenario's client did.
    var answer: (@Sendable (String, JSONValue?) -> Result<JSONValue?, RemoteError>)?
    /// The codec both recorded peers used, and where its recordings are.
    var codec: any PacketCodec = JSONPacketCodec()
    var directory: URL = Recording.directory

    struct Outcome {
        var events: [SessionEvent] = []
        var completions: [CallID: Result<JSONValue?, PubSubError>] = [:]
        var completionOrder: [CallID] = []
        /// The scenario's `connect` call and how it completed.
        var connectCall: CallID?
        var connected: Result<HandshakeInfo, PubSubError>?
        var savedTokens: [String] = []
        var removedTokens = 0
        var exactFrames = 0
        var equivalentFrames = 0
        var session: ClientSession?
    }

    func run(file: StaticString = #filePath, line: UInt = #line) throws -> Outcome {
        let frames = try Recording.load(fileName, from: directory)
        let version: PingProtocolVersion = fileName.contains(".proto1.") ? .v1 : .v2
        var configuration = SessionConfiguration(address: ServerAddress(hostname: "127.0.0.1", port: 8000))
        configuration.protocolVersion = version
        configuration.codec = codec
        configuration.autoReconnect = false
        configuration.random = { 0.5 }
        var session = ClientSession(configuration: configuration, storedToken: storedToken)
        var now = MonotonicInstant(milliseconds: 0)
        var outcome = Outcome()
        var written: [RecordedFrame] = []
        var closes: [(UInt16, String)] = []
        var remainingSteps = steps[...]
        var transport: TransportID?

        func drain(_ session: inout ClientSession) {
            var requests: [(String, JSONValue?, ServerRequestID)] = []
            while let action = session.nextAction() {
                switch action {
                case .openTransport(let id, _, _): transport = id
                case .sendText(let utf8): written.append(.clientText(String(decoding: utf8, as: UTF8.self)))
                case .sendBinary(let bytes): written.append(.clientBinary(Data(bytes).base64EncodedString()))
                case .closeTransport(_, let code, let reason): closes.append((code, reason))
                case .complete(let id, let result):
                    XCTAssertNil(outcome.completions[id], "\(fileName): \(id) completed twice", file: file, line: line)
                    outcome.completions[id] = result
                    outcome.completionOrder.append(id)
                case .completeConnect(let id, let result):
                    XCTAssertEqual(id, outcome.connectCall, "\(fileName): completed a connect not made", file: file, line: line)
                    XCTAssertNil(outcome.connected, "\(fileName): connect completed twice", file: file, line: line)
                    outcome.connected = result
                case .saveToken(_, let token): outcome.savedTokens.append(token)
                case .removeToken: outcome.removedTokens += 1
                case .event(let event):
                    outcome.events.append(event)
                    if case .request(let request) = event { requests.append((request.event, request.data, request.id)) }
                }
            }
            for (event, data, id) in requests {
                guard let answer else {
                    XCTFail("\(fileName): unexpected server request \(event)", file: file, line: line)
                    continue
                }
                XCTAssertNoThrow(try session.respond(to: id, with: answer(event, data), now: now), file: file, line: line)
                drain(&session)
            }
        }

        outcome.connectCall = session.connect(now: now)
        drain(&session)
        guard let opened = transport else {
            XCTFail("\(fileName): no transport opened", file: file, line: line)
            return outcome
        }
        session.transportOpened(opened, now: now)
        drain(&session)

        for frame in frames {
            now = now.advanced(by: 1)
            switch frame {
            case .serverText(let text):
                session.transportReceived(text: text, from: opened, now: now)
                drain(&session)
            case .serverBinary(let base64):
                session.transportReceived(binary: [UInt8](Data(base64Encoded: base64) ?? Data()), from: opened, now: now)
                drain(&session)
            case .serverClose(let code, let reason):
                session.transportClosed(opened, code: code, reason: reason, now: now)
                drain(&session)
            case .clientText, .clientBinary:
                let expected = frame
                while written.isEmpty, let step = remainingSteps.popFirst() {
                    step(&session, now)
                    drain(&session)
                }
                guard !written.isEmpty else {
                    XCTFail("\(fileName): the session wrote nothing where the JS client wrote \(expected)", file: file, line: line)
                    return outcome
                }
                let actual = written.removeFirst()
                if actual == expected {
                    outcome.exactFrames += 1
                } else if let a = Self.value(of: actual), let e = Self.value(of: expected), a == e {
                    outcome.equivalentFrames += 1
                } else {
                    XCTFail("\(fileName): wrote \(actual), the JS client wrote \(expected)", file: file, line: line)
                }
            case .clientClose(let code, let reason):
                XCTAssertEqual(written, [], "\(fileName): frames the JS client did not write", file: file, line: line)
                written = []
                while let step = remainingSteps.popFirst() {
                    step(&session, now)
                    drain(&session)
                }
                session.disconnect(code: code, reason: reason, now: now)
                drain(&session)
                XCTAssertEqual(closes.last?.0, code, "\(fileName): close code", file: file, line: line)
                XCTAssertEqual(closes.last?.1, reason, "\(fileName): close reason", file: file, line: line)
            }
        }
        XCTAssertEqual(written, [], "\(fileName): frames the JS client did not write", file: file, line: line)
        XCTAssertTrue(remainingSteps.isEmpty, "\(fileName): steps left unused", file: file, line: line)
        outcome.session = session
        return outcome
    }

    /// A frame's content as a value (JSON text, or MessagePack in a binary frame).
    static func value(of frame: RecordedFrame) -> JSONValue? {
        switch frame {
        case .clientText(let text): return try? JSONValue(parsing: text)
        case .clientBinary(let base64):
            guard let data = Data(base64Encoded: base64) else { return nil }
            return try? JSONValue(messagePack: data)
        default: return nil
        }
    }
}
