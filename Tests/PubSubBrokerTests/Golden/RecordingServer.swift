import Foundation
import PubSubBroker

/// The server script that produced the recordings (see the fixtures' README), rebuilt with
/// `PubSubBroker`'s public API only.
enum RecordingServer {
    /// The options of the recording server for one scenario: `authKey 'test-secret'`, the
    /// protocol version of the file, and the per-scenario ping/handshake settings of the README.
    static func options(for recording: Recording) -> BrokerOptions {
        var options = BrokerOptions(authKey: "test-secret")
        options.authDefaultExpiry = .seconds(86_400)
        options.pingInterval = .milliseconds(8_000)
        options.pingTimeout = .milliseconds(20_000)
        options.protocolVersion = recording.protocolVersion
        options.handshakeTimeout = .milliseconds(10_000)
        options.ackTimeout = .milliseconds(10_000)
        options.allowClientPublish = true
        if recording.isMinBin { options.codec = MinBinPacketCodec() }
        switch recording.scenario {
        case "ping-pong":
            options.pingInterval = .milliseconds(500)
            options.pingTimeout = .milliseconds(2_000)
        case "raw-no-pong", "raw-no-pong-but-traffic", "raw-pong-wrong-protocol", "raw-minbin-binary-pong":
            options.pingInterval = .milliseconds(600)
            options.pingTimeout = .milliseconds(2_000)
        case "raw-pong-before-handshake":
            options.pingInterval = .milliseconds(300)
        case "raw-no-handshake-timeout":
            options.handshakeTimeout = .milliseconds(1_500)
        default:
            break
        }
        return options
    }

    /// Installs the recording server's procedures, receivers and middleware on `broker`.
    static func configure(_ broker: PubSubBroker) {
        let ticks = TickCounter()
        broker.procedure("echo") { request in request.data }
        broker.procedure("fail") { _ in throw RemoteError(name: "FailError", message: "boom") }
        broker.procedure("login") { request in
            try request.socket.setAuthToken(["username": request.data?["username"] ?? .null])
            return "ok"
        }
        broker.procedure("logout") { request in
            request.socket.deauthenticate()
            return nil
        }
        broker.procedure("slow") { request async throws in
            try await Task.sleep(for: .milliseconds(request.data?["ms"]?.intValue ?? 0))
            return request.data
        }
        broker.procedure("serverEmit") { request in
            request.socket.transmit(request.data?["event"]?.stringValue ?? "", request.data?["payload"])
            return nil
        }
        broker.procedure("serverInvoke") { request async throws in
            try await request.socket.invoke("ask", request.data?["payload"])
        }
        broker.procedure("serverPublish") { [weak broker] request in
            broker?.publish(channel: request.data?["channel"]?.stringValue ?? "", data: request.data?["payload"])
            return nil
        }
        broker.procedure("kickMe") { request in
            request.socket.kickOut(channel: request.data?["channel"]?.stringValue, message: "bye")
            return nil
        }
        broker.procedure("disconnectMe") { request in
            request.end()
            request.socket.disconnect(code: 4321, reason: "asked")
            return nil
        }
        broker.procedure("count") { _ in .int(ticks.value) }
        broker.procedure("batchEmit") { request in
            let event = request.data?["event"]?.stringValue ?? ""
            let payloads = request.data?["payloads"]?.arrayValue ?? []
            request.socket.startBatch()
            for payload in payloads { request.socket.transmit(event, payload) }
            request.end(.int(Int64(payloads.count)))
            request.socket.flushBatch()
            return nil
        }
        broker.receiver("tick") { _ in ticks.increment() }
        broker.receiver("chat") { [weak broker] message in
            broker?.publish(channel: "chat", data: message.data)
        }
        broker.authorizeSubscribe { request in
            if request.channel.hasPrefix("private/") && !request.socket.isAuthenticated {
                throw RemoteError(name: "PrivateChannelError", message: "Not authorized to subscribe to \(request.channel)")
            }
        }
        broker.authorizePublish { request in
            if request.channel.hasPrefix("readonly/") {
                throw RemoteError(name: "ReadOnlyChannelError", message: "Cannot publish to \(request.channel)")
            }
        }
    }
}

/// The `tick` receiver's count.
final class TickCounter: @unchecked Sendable {
    // Guarded by `lock`.
    private let lock = NSLock()
    private var count: Int64 = 0

    var value: Int64 {
        lock.lock()
        defer { lock.unlock() }
        return count
    }

    func increment() {
        lock.lock()
        count += 1
        lock.unlock()
    }
}
