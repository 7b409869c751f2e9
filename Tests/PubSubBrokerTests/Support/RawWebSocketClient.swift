import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TestSupport

/// A deliberately small blocking WebSocket client for tests that need many connections cheaply:
/// one IPv4 loopback socket, masked text frames out, unmasked frames in, no thread of its own.
final class RawWebSocketClient {
    enum Failure: Error, CustomStringConvertible {
        case system(String, Int32)
        case rejected(statusLine: String)
        case connectionClosed
        case unexpectedFrame(opcode: UInt8)

        var description: String {
            switch self {
            case .system(let call, let code): return "\(call) failed: \(String(cString: strerror(code)))"
            case .rejected(let line): return "upgrade refused: \(line)"
            case .connectionClosed: return "connection closed"
            case .unexpectedFrame(let opcode): return "unexpected frame opcode \(opcode)"
            }
        }
    }

    /// A received frame.
    struct Frame {
        var opcode: UInt8
        var payload: [UInt8]

        var text: String { String(decoding: payload, as: UTF8.self) }
        /// For close frames: the status code.
        var closeCode: UInt16? {
            guard opcode == 0x8, payload.count >= 2 else { return nil }
            return UInt16(payload[0]) << 8 | UInt16(payload[1])
        }
        /// For close frames: the reason.
        var closeReason: String { String(decoding: payload.dropFirst(2), as: UTF8.self) }
    }

    private let fd: Int32
    private var buffer: [UInt8] = []
    private var readIndex = 0

    /// Connects to `127.0.0.1:port` and performs the opening handshake for `path`.
    init(port: Int, path: String = "/socketcluster/", timeout: TimeInterval = 10) throws {
        do {
            fd = try TestSocket.connectLoopback(port: port, receiveTimeout: Int(timeout))
        } catch {
            throw Failure.system(error.operation, error.code)
        }
        let request =
            "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\n"
            + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        try write(Array(request.utf8))
        let head = try readHead()
        let statusLine = head.split(separator: "\r\n", maxSplits: 1).first.map(String.init) ?? ""
        guard statusLine.hasPrefix("HTTP/1.1 101") else {
            closeSocket(fd)
            throw Failure.rejected(statusLine: statusLine)
        }
    }

    deinit {
        closeSocket(fd)
    }

    /// Sends one masked text frame; `zeroMask` uses the all-zero masking key (valid, and no
    /// per-byte work, for floods of large frames).
    func send(zeroMask: Bool = false, _ text: String) throws {
        let payload = Array(text.utf8)
        var frame: [UInt8] = [0x81]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            frame.append(0x80 | 126)
            frame.append(UInt8(payload.count >> 8))
            frame.append(UInt8(payload.count & 0xFF))
        } else {
            frame.append(0x80 | 127)
            for shift in stride(from: 56, through: 0, by: -8) { frame.append(UInt8((payload.count >> shift) & 0xFF)) }
        }
        if zeroMask {
            frame.append(contentsOf: [0, 0, 0, 0])
            frame.append(contentsOf: payload)
            return try write(frame)
        }
        let mask: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]
        frame.append(contentsOf: mask)
        for (index, byte) in payload.enumerated() { frame.append(byte ^ mask[index & 3]) }
        try write(frame)
    }

    /// Sends a close frame with `code`.
    func sendClose(code: UInt16 = 1000) throws {
        let mask: [UInt8] = [1, 2, 3, 4]
        let payload = [UInt8(code >> 8), UInt8(code & 0xFF)]
        try write([0x88, 0x82] + mask + [payload[0] ^ mask[0], payload[1] ^ mask[1]])
    }

    /// Closes cleanly: sends a close frame and waits for the peer's.
    func closeHandshake(code: UInt16 = 1000) {
        guard (try? sendClose(code: code)) != nil else { return }
        while let frame = try? receiveFrame(), frame.opcode != 0x8 {}
    }

    /// Reads the next frame.
    func receiveFrame() throws -> Frame {
        let header = try take(2)
        var length = Int(header[1] & 0x7F)
        if length == 126 {
            let bytes = try take(2)
            length = Int(bytes[0]) << 8 | Int(bytes[1])
        } else if length == 127 {
            length = try take(8).reduce(0) { $0 << 8 | Int($1) }
        }
        return Frame(opcode: header[0] & 0x0F, payload: try take(length))
    }

    /// Reads the next text frame, skipping SocketCluster pings (empty frames).
    func receiveText() throws -> String {
        while true {
            let frame = try receiveFrame()
            guard frame.opcode == 0x1 else { throw Failure.unexpectedFrame(opcode: frame.opcode) }
            if !frame.payload.isEmpty { return frame.text }
        }
    }

    private func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { pointer in
                TestSocket.send(fd, pointer.baseAddress, pointer.count)
            }
            guard sent > 0 else { throw Failure.system("send", errno) }
            offset += sent
        }
    }

    private func fill() throws {
        if readIndex > 0 && readIndex == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            readIndex = 0
        }
        var chunk = [UInt8](repeating: 0, count: 4_096)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count == 0 { throw Failure.connectionClosed }
        guard count > 0 else { throw Failure.system("recv", errno) }
        buffer.append(contentsOf: chunk[..<count])
    }

    private func take(_ count: Int) throws -> [UInt8] {
        while buffer.count - readIndex < count { try fill() }
        let bytes = Array(buffer[readIndex..<(readIndex + count)])
        readIndex += count
        return bytes
    }

    private func readHead() throws -> String {
        while true {
            if let end = findHeadEnd() {
                let head = String(decoding: buffer[readIndex..<end], as: UTF8.self)
                readIndex = end + 4
                return head
            }
            try fill()
        }
    }

    private func findHeadEnd() -> Int? {
        guard buffer.count - readIndex >= 4 else { return nil }
        for index in readIndex...(buffer.count - 4)
        where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
            return index
        }
        return nil
    }
}

private func closeSocket(_ fd: Int32) {
    #if canImport(Glibc)
    _ = Glibc.close(fd)
    #else
    _ = Darwin.close(fd)
    #endif
}
