import Foundation
import XCTest
import PubSubBroker

/// 1,000 connected WebSocket clients on one broker, one publication fanned out to all of them,
/// and the memory each idle connection costs. Prints its figures; asserts only correctness (every
/// client connected, subscribed and received the message; no thread per connection).
final class BrokerScaleTests: XCTestCase {
    private let clientCount = 1_000

    func testOnePublicationReachesAThousandSubscribedClients() async throws {
        // Long ping interval: the blocking test clients do not answer pings.
        var options = BrokerOptions(authKey: "k")
        options.pingInterval = .seconds(600)
        options.pingTimeout = .seconds(1_200)
        let broker = try await PubSubBroker.start(port: 0, options: options)
        // Warm up code paths and allocator pools before the baseline.
        let warmup = try connectAndSubscribe(port: broker.port, cid: 1)
        warmup.closeHandshake()
        let baseline = try ProcessStatus.read()

        let connectStart = Date()
        var clients: [RawWebSocketClient] = []
        clients.reserveCapacity(clientCount)
        for index in 0..<clientCount {
            clients.append(try connectAndSubscribe(port: broker.port, cid: Int64(index + 1)))
        }
        let connectSeconds = Date().timeIntervalSince(connectStart)
        let loaded = try ProcessStatus.read()
        XCTAssertEqual(broker.sockets.count, clientCount)
        XCTAssertEqual(broker.subscriberCount(channel: "all"), clientCount)
        XCTAssertLessThan(loaded.threads, 64, "connections must not get a thread each")

        let publishStart = Date()
        broker.publish(channel: "all", data: ["n": 1])
        let expected = ##"{"event":"#publish","data":{"channel":"all","data":{"n":1}}}"##
        var received = 0
        for client in clients where try client.receiveText() == expected { received += 1 }
        let fanOutSeconds = Date().timeIntervalSince(publishStart)
        XCTAssertEqual(received, clientCount)

        let perConnection = Double(loaded.residentKiB - baseline.residentKiB) / Double(clientCount)
        print(
            String(
                format: "PubSubBroker scale: %d clients connected+subscribed in %.2f s; RSS %d -> %d KiB "
                    + "(%.1f KiB per idle connection, broker + WireKit + minimal test client); threads %d; "
                    + "one publication to %d subscribers in %.1f ms",
                clientCount, connectSeconds, baseline.residentKiB, loaded.residentKiB, perConnection, loaded.threads,
                clientCount, fanOutSeconds * 1_000))

        let stopping = Task { await broker.stop() }
        for client in clients {
            if let frame = try? client.receiveFrame(), frame.opcode == 0x8 { try? client.sendClose(code: 1001) }
        }
        await stopping.value
        XCTAssertEqual(broker.sockets.count, 0)
    }

    private func connectAndSubscribe(port: Int, cid: Int64) throws -> RawWebSocketClient {
        let client = try RawWebSocketClient(port: port)
        try client.send(##"{"event":"#handshake","data":{"authToken":null},"cid":1}"##)
        _ = try client.receiveText()
        try client.send(##"{"event":"#subscribe","data":{"channel":"all"},"cid":2}"##)
        let answer = try client.receiveText()
        XCTAssertEqual(answer, ##"{"rid":2}"##)
        return client
    }
}

/// Figures from `/proc/self/status` (Linux).
struct ProcessStatus {
    var residentKiB: Int
    var threads: Int

    enum Failure: Error { case unavailable }

    static func read() throws -> ProcessStatus {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
            throw XCTSkip("/proc/self/status is not available on this system")
        }
        var status = ProcessStatus(residentKiB: 0, threads: 0)
        for line in text.split(separator: "\n") {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 2, let value = Int(fields[1]) else { continue }
            if fields[0] == "VmRSS:" { status.residentKiB = value }
            if fields[0] == "Threads:" { status.threads = value }
        }
        guard status.residentKiB > 0 else { throw Failure.unavailable }
        return status
    }
}
