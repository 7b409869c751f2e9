import WireKit

/// The frame decoder inside the connection state machine, after a completed handshake.
///
/// Input: byte 0 picks the role (even: client, reading server frames; odd: server, reading
/// masked client frames), byte 1 seeds the chunking, the rest is what the peer sends. The same
/// bytes fed at once and in chunks must give the same events (and, in the server role whose
/// output has no random masks, the same output).
enum FrameFuzzer {
    static let name = "frames"

    static func run(_ bytes: UnsafeRawBufferPointer) throws(FuzzFinding) {
        let input = FuzzInput(bytes)
        let server = input.variant & 1 == 1
        let whole = try feed([input.data[...]], server: server)
        let chunked = try feed(input.chunks, server: server)
        try require(
            whole.events == chunked.events, name,
            "events differ with chunking:\n  whole:   \(whole.events)\n  chunked: \(chunked.events)")
        if server {
            try require(whole.output == chunked.output, name, "server output differs with chunking")
        }
    }

    static func feed(_ chunks: [ArraySlice<UInt8>], server: Bool) throws(FuzzFinding) -> MachineRun {
        var run: MachineRun
        if server {
            run = MachineRun(FuzzHandshake.serverMachine(), target: name)
            try run.start()
            try run.receive(FuzzHandshake.request)
        } else {
            run = MachineRun(FuzzHandshake.clientMachine(), target: name)
            try run.start()
            run.output.removeAll()
            try run.receive(FuzzHandshake.response)
        }
        guard case .opened = run.events.first, run.machine.phase == .open else {
            throw FuzzFinding(name, "the fixed handshake did not open the connection: \(run.events)")
        }
        for chunk in chunks where !chunk.isEmpty {
            try run.receive(chunk)
        }
        try run.finish()
        return run
    }
}
