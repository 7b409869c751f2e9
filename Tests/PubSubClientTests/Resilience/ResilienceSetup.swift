import Foundation
import PubSubBroker
@testable import PubSubClient
import TestSupport

/// The broker and clients the resilience tests share.
enum ResilienceSetup {
    /// A broker with three procedures: `record` (reports the call id, its data or the data's
    /// `id`, to `calls`, then echoes),
    /// `echo`, and `slow` (answers after 400 ms, so a fault can hit it in flight).
    /// Pings every second with a 5 s timeout unless told otherwise: only the half-open test
    /// wants them short, elsewhere a loaded machine must not add ping-timeout closes of its own.
    static func startBroker(
        port: Int = 0, calls: CallAudit? = nil, pingInterval: Duration = .seconds(1),
        pingTimeout: Duration = .seconds(5)
    ) async throws -> PubSubBroker {
        let broker = try await PubSubBroker.start(
            port: port,
            options: configured(BrokerOptions(authKey: "k")) {
                $0.pingInterval = pingInterval
                $0.pingTimeout = pingTimeout
            })
        broker.procedure("echo") { request in request.data }
        broker.procedure("record") { request in
            if let id = request.data?.intValue ?? request.data?["id"]?.intValue { calls?.executed(id) }
            return request.data
        }
        broker.procedure("slow") { (request: BrokerRequest) async throws -> JSONValue? in
            try await Task.sleep(for: .milliseconds(400))
            if let id = request.data?.intValue { calls?.executed(id) }
            return request.data
        }
        return broker
    }

    /// Restarts a broker on `port`, retrying while another socket still holds the port
    /// briefly (as a restarting server would).
    static func restartBroker(port: Int, calls: CallAudit?) async throws -> PubSubBroker {
        var attempts = 0
        while true {
            do { return try await startBroker(port: port, calls: calls) } catch {
                attempts += 1
                if attempts == 50 { throw error }
                try await Task.sleep(for: .milliseconds(100))
            }
        }
    }

    /// A client of `port` that reconnects within 50–100 ms (back-off up to 400 ms).
    static func client(port: Int, ackTimeout: Duration = .seconds(3)) -> PubSubClient {
        PubSubClient(
            configuration: configured(SessionConfiguration(address: ServerAddress(hostname: "127.0.0.1", port: port))) {
                $0.ackTimeout = ackTimeout
                $0.reconnectPolicy = ReconnectPolicy(
                    initialDelay: .milliseconds(50), randomness: .milliseconds(50), multiplier: 1.5, maxDelay: .milliseconds(400))
            })
    }
}
