import Foundation
import WireKit
import TestSupport

/// A TCP server answering every request with `HTTP/1.1 404 Not Found` (or `answer`): a web
/// server, not a WebSocket one.
final class HTTPNotFoundServer: Sendable {
    let port: Int
    private let descriptor: Int32

    init(answer: [UInt8] = Array("HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\nConnection: close\r\n\r\nNot Found".utf8)) throws {
        descriptor = TestSocket.makeTCP()
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let descriptor = self.descriptor
        let listening = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && listen(descriptor, 8) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard listening else {
            close(descriptor)
            throw POSIXError(.EADDRINUSE)
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread {
            while true {
                let client = accept(descriptor, nil, nil)
                guard client >= 0 else { return }
                var request = [UInt8]()
                var buffer = [UInt8](repeating: 0, count: 1024)
                while !request.suffix(4).elementsEqual("\r\n\r\n".utf8) {
                    let count = read(client, &buffer, buffer.count)
                    guard count > 0 else { break }
                    request += buffer[0..<count]
                }
                _ = answer.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
                close(client)
            }
        }.start()
    }

    /// Stops accepting (the accept loop ends).
    func stop() {
        shutdown(descriptor, Int32(SHUT_RDWR))
        close(descriptor)
    }
}

/// A TCP port nothing listens on: bound to get a free number, then closed.
func closedPort() throws -> Int {
    let descriptor = TestSocket.makeTCP()
    guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
        }
    }
    guard bound else { throw POSIXError(.EADDRINUSE) }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// A WebSocket server that accepts the upgrade and then never answers anything: a WebSocket
/// peer that does not speak SocketCluster.
func startSilentWebSocketServer() throws -> WebSocketServer {
    try WebSocketServer.start(port: 0) { _ in }
}
