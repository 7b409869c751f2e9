import WireKit

/// Drives a `WebSocketStateMachine` with bytes as a transport would, recording every event and
/// every output byte, and checking what must hold whatever the peer sends.
struct MachineRun {
    var machine: WebSocketStateMachine
    var events: [WebSocketEvent] = []
    var output: [UInt8] = []
    let target: String
    private var now = WebSocketInstant(nanoseconds: 1_000_000_000)

    /// The configuration the fuzz targets use: WebSocketServerOptions' and WebSocketOptions'
    /// defaults (16 MiB frames and messages, 16 KiB heads).
    static let configuration = WebSocketConfiguration()

    init(_ machine: WebSocketStateMachine, target: String) {
        self.machine = machine
        self.target = target
    }

    mutating func start() throws(FuzzFinding) {
        machine.start(now: now)
        try drain()
    }

    mutating func receive(_ bytes: some Collection<UInt8>) throws(FuzzFinding) {
        now = now + .milliseconds(1)
        Array(bytes).withUnsafeBytes { machine.receive($0, now: now) }
        try drain()
    }

    /// The transport ends (the peer hung up): the connection must report closed exactly once.
    mutating func finish() throws(FuzzFinding) {
        machine.transportClosed(now: now)
        try drain()
        let closes = events.filter { if case .closed = $0 { return true } else { return false } }.count
        try require(closes == 1, target, "\(closes) closed events after the transport closed")
        try require(machine.phase == .closed, target, "phase \(machine.phase) after the transport closed")
    }

    private mutating func drain() throws(FuzzFinding) {
        while let event = machine.nextEvent() {
            if case .closed = events.last {
                throw FuzzFinding(target, "event \(event) after closed")
            }
            switch event {
            case .text(let text):
                try require(text.utf8.count <= Self.configuration.maxMessageSize, target, "text message over maxMessageSize")
            case .binary(let data):
                try require(data.count <= Self.configuration.maxMessageSize, target, "binary message over maxMessageSize")
            case .ping(let data), .pong(let data):
                try require(data.count <= 125, target, "control payload of \(data.count) bytes")
            default:
                break
            }
            events.append(event)
        }
        machine.takeOutput(appendingTo: &output)
    }
}

/// The fixed key and URL of the client the targets play or answer (RFC 6455 1.3's example).
enum FuzzHandshake {
    static let key = "dGhlIHNhbXBsZSBub25jZQ=="
    static let url = "ws://server.example.com/chat"
    /// The server's 101 for `key` (accept value from RFC 6455 1.3).
    static let response = Array(
        ("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" + "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n")
            .utf8)
    /// A client's upgrade request with `key`.
    static let request = Array(
        ("GET /chat HTTP/1.1\r\nHost: server.example.com\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n\r\n").utf8)

    static func clientMachine() -> WebSocketStateMachine {
        // The URL and key are constants that parse; a failure here is a bug in the harness.
        let handshake = try! ClientHandshake(url: try! WebSocketURL(url), key: key)
        return WebSocketStateMachine(client: handshake, configuration: MachineRun.configuration)
    }

    static func serverMachine() -> WebSocketStateMachine {
        WebSocketStateMachine(server: MachineRun.configuration)
    }
}
