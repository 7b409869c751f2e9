import WireKit

/// The opening handshake checks of both roles, through the state machine: the bytes are what
/// the peer sends from the first byte on (upgrade request to a server, response to a client),
/// so the head parser, the checks and the switch to frames are all in play.
///
/// Input: byte 0 picks the role (even: client, odd: server), byte 1 seeds the chunking.
/// Chunking must not change the events (see `comparable`); a server that opens must have
/// answered 101 and one that refuses must have answered with a 4xx before closing.
enum HandshakeFuzzer {
    static let name = "handshake"

    static func run(_ bytes: UnsafeRawBufferPointer) throws(FuzzFinding) {
        let input = FuzzInput(bytes)
        let server = input.variant & 1 == 1
        let whole = try feed([input.data[...]], server: server)
        let chunked = try feed(input.chunks, server: server)
        try require(
            whole.events.map(comparable) == chunked.events.map(comparable), name,
            "events differ with chunking:\n  whole:   \(whole.events)\n  chunked: \(chunked.events)")
        guard server else { return }
        try require(whole.output == chunked.output, name, "server output differs with chunking")
        let status = String(decoding: whole.output.prefix(12), as: UTF8.self)
        if case .opened = whole.events.first {
            try require(status == "HTTP/1.1 101", name, "opened, but answered \(status)")
        } else if !whole.output.isEmpty {
            try require(status.hasPrefix("HTTP/1.1 4"), name, "refused with \(status)")
        }
    }

    /// The event without what depends on the reads by design: a refusal without a valid
    /// Content-Length carries the body bytes that came in the same read as its head.
    static func comparable(_ event: WebSocketEvent) -> WebSocketEvent {
        guard case .closed(var info) = event, var error = info.error, error.code == .handshakeRejected,
            error.headers?.first(name: "Content-Length").flatMap({ Int($0) }) == nil
        else { return event }
        error.body = []
        info.error = error
        return .closed(info)
    }

    static func feed(_ chunks: [ArraySlice<UInt8>], server: Bool) throws(FuzzFinding) -> MachineRun {
        var run = MachineRun(server ? FuzzHandshake.serverMachine() : FuzzHandshake.clientMachine(), target: name)
        try run.start()
        run.output.removeAll()
        for chunk in chunks where !chunk.isEmpty {
            try run.receive(chunk)
        }
        try run.finish()
        return run
    }
}
