import Foundation
import WireKit

// An Autobahn|Testsuite echo client for WireKit's client role.
//
//   wirekit-autobahn-client BASE_URL AGENT
//
// GET BASE_URL/getCaseCount -> N; for each case 1...N connect to
// BASE_URL/runCase?case=i&agent=AGENT and echo every message back unchanged until the server
// closes; finally BASE_URL/updateReports?agent=AGENT so the fuzzing server writes its reports.

let usage = """
    usage: wirekit-autobahn-client BASE_URL AGENT
           wirekit-autobahn-client -h | --help
    Runs every case of an Autobahn|Testsuite fuzzing server at BASE_URL (e.g. ws://127.0.0.1:9001)
    against WireKit's client role, echoing each message back, then has the server write its
    reports for AGENT. Progress goes to standard output; the verdicts are in the server's reports.
    exit status: 0 every case ran and the reports were written, 1 the server could not be
                 reached or failed, 2 usage error

    """
let arguments = CommandLine.arguments
if arguments.dropFirst().contains(where: { $0 == "-h" || $0 == "--help" }) {
    FileHandle.standardOutput.write(Data(usage.utf8))
    exit(0)
}
/// A refused command line: one line and the hint on standard error, exit 2.
func refuse(_ message: String) -> Never {
    FileHandle.standardError.write(
        Data(
            """
            wirekit-autobahn-client: \(message)
            Run 'wirekit-autobahn-client --help' for usage.

            """.utf8))
    exit(2)
}
if let option = arguments.dropFirst().first(where: { $0.hasPrefix("-") }) { refuse("unknown option \(option)") }
guard arguments.count == 3 else { refuse("expected BASE_URL and AGENT, got \(arguments.count - 1) argument(s)") }
let base = arguments[1].hasSuffix("/") ? String(arguments[1].dropLast()) : arguments[1]
let agent = arguments[2].addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? arguments[2]

// Autobahn 9.x sends messages up to 16 MiB; leave headroom like the reference clients do.
let options = {
    var options = WebSocketOptions()
    options.connectTimeout = .seconds(10)
    options.handshakeTimeout = .seconds(300)  // updateReports answers only once the reports are written
    options.maxMessageSize = 32 << 20
    options.closeTimeout = .seconds(5)
    return options
}()

func log(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func caseCount() async throws -> Int {
    let socket = try WebSocket(url: "\(base)/getCaseCount", options: options)
    try await socket.connect()
    var count: Int?
    for await message in socket.messages {
        if case .text(let text) = message { count = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }
    guard let count else { throw WebSocketError.invalidHandshakeResponse("getCaseCount sent no number") }
    return count
}

/// Echoes until the fuzzing server closes. Errors are expected: many cases fail the connection.
func runCase(_ index: Int) async {
    do {
        let socket = try WebSocket(url: "\(base)/runCase?case=\(index)&agent=\(agent)", options: options)
        try await socket.connect()
        for await message in socket.messages {
            switch message {
            case .text(let text): try await socket.send(text: text)
            case .binary(let data): try await socket.send(data: data)
            }
        }
        _ = await socket.closed
    } catch {
        // The case's verdict is the server's to record.
    }
}

func updateReports() async throws {
    let socket = try WebSocket(url: "\(base)/updateReports?agent=\(agent)", options: options)
    try await socket.connect()
    _ = await socket.closed
}

do {
    let count = try await caseCount()
    log("wirekit-autobahn-client: \(count) cases")
    for index in 1...max(1, count) where count > 0 {
        await runCase(index)
        if index % 50 == 0 || index == count { log("wirekit-autobahn-client: \(index)/\(count)") }
    }
    try await updateReports()
} catch {
    FileHandle.standardError.write(Data("wirekit-autobahn-client: \(error)\n".utf8))
    exit(1)
}
