import Foundation
import WireKit

// An Autobahn|Testsuite echo server for WireKit's server role (Scripts/autobahn/run-server.sh).
//
//   wirekit-autobahn-server [--host 127.0.0.1] [--port 0] [--tls-cert CHAIN.pem --tls-key KEY.pem]
//
// Listens on WebSocketServer and echoes every message back unchanged. Prints
// `wirekit-autobahn-server: listening on HOST:PORT` once ready (port 0 picks a free one), then
// serves until killed. With --tls-cert/--tls-key it serves wss:// with that certificate.
// permessage-deflate is accepted (sections 12 and 13).

let usage = """
    usage: wirekit-autobahn-server [--host 127.0.0.1] [--port 0] [--tls-cert CHAIN.pem --tls-key KEY.pem]
           wirekit-autobahn-server -h | --help
    An echo server on WireKit's server role for Autobahn|Testsuite's fuzzing client. Prints
    "wirekit-autobahn-server: listening on HOST:PORT" once ready, then serves until killed.
    exit status: 1 cannot read the certificate or listen, 2 usage error

    """

/// A refused command line: one line and the hint on standard error, exit 2.
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(
        Data(
            """
            wirekit-autobahn-server: \(message)
            Run 'wirekit-autobahn-server --help' for usage.

            """.utf8))
    exit(2)
}

/// A failure at run time: one line on standard error, exit 1.
func failToRun(_ message: String) -> Never {
    FileHandle.standardError.write(Data("wirekit-autobahn-server: \(message)\n".utf8))
    exit(1)
}

if CommandLine.arguments.dropFirst().contains(where: { $0 == "-h" || $0 == "--help" }) {
    FileHandle.standardOutput.write(Data(usage.utf8))
    exit(0)
}

var host = "127.0.0.1"
var port = 0
var certificatePath: String?
var keyPath: String?
var arguments = CommandLine.arguments.dropFirst()
while let option = arguments.popFirst() {
    guard let value = arguments.popFirst() else { fail("\(option) needs a value") }
    switch option {
    case "--host": host = value
    case "--port": port = Int(value) ?? -1
    case "--tls-cert": certificatePath = value
    case "--tls-key": keyPath = value
    default: fail("unknown option \(option) (--host, --port, --tls-cert, --tls-key)")
    }
}
guard (0...65535).contains(port) else { fail("bad --port") }

// Autobahn 9.x sends messages up to 16 MiB; leave headroom like the reference servers do.
var options = WebSocketServerOptions()
options.handshakeTimeout = .seconds(30)
options.maxMessageSize = 32 << 20
options.closeTimeout = .seconds(5)
// Sections 12 and 13: accept permessage-deflate (WebSocketServer declines it unless enabled).
options.perMessageDeflate = PerMessageDeflateOptions()
if certificatePath != nil || keyPath != nil {
    guard let certificatePath, let keyPath else { fail("--tls-cert and --tls-key go together") }
    do {
        options.tls = TLSServerConfiguration(
            certificateChainPEM: try String(contentsOfFile: certificatePath, encoding: .utf8),
            privateKeyPEM: try String(contentsOfFile: keyPath, encoding: .utf8))
    } catch {
        failToRun("cannot read the certificate or key: \(error)")
    }
}

let server: WebSocketServer
do {
    server = try WebSocketServer.start(host: host, port: port, options: options) { socket in
        // Weak: the callbacks live as long as the connection; they must not keep it alive.
        socket.onText = { [weak socket] text in try? socket?.write(text: text) }
        socket.onBinary = { [weak socket] data in try? socket?.write(data: data) }
    }
} catch {
    failToRun("cannot listen on \(host):\(port): \(error)")
}
FileHandle.standardOutput.write(Data("wirekit-autobahn-server: listening on \(server.host):\(server.port)\n".utf8))
withExtendedLifetime(server) { dispatchMain() }
