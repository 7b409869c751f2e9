import Foundation
import TestSupport
import XCTest
@testable import PubSubBroker
@testable import PubSubClient

/// The flooded app, shortened: a broker floods 10 KiB publications to two clients; one
/// app handles one per 10 ms, the other keeps up. The slow client's channel stream stops the
/// socket being read instead of buffering, so its memory stays bounded; the broker then sees a
/// slow consumer and closes it with 1008. Nothing is lost silently: the slow app gets an unbroken
/// prefix, in order, and then the documented close; the other client gets everything.
final class ClientFlowControlTests: XCTestCase {
    func testAFloodedAppPausesItsSocketAndIsEitherServedInOrderOrClosedWith1008() async throws {
        let count = 6_000  // 60 MiB of publications; the slow app handles 100 a second
        let broker = try await PubSubBroker.start(port: 0)
        var configuration = SessionConfiguration(address: ServerAddress(hostname: "127.0.0.1", port: broker.port))
        configuration.autoReconnect = false
        let slow = PubSubClient(configuration: configuration)
        let fast = PubSubClient(configuration: configuration)
        let closeCodes = FlowBox<[UInt16]>([])
        let slowEvents = slow.events()
        let watcher = Task {
            for await event in slowEvents {
                if case .closed(let close) = event { closeCodes.mutate { $0.append(close.code.rawValue) } }
                if case .disconnected(let close) = event { closeCodes.mutate { $0.append(close.code.rawValue) } }
            }
        }
        try await slow.connect()
        try await fast.connect()
        let slowStream = slow.channel("flood")
        let fastStream = fast.channel("flood")
        for _ in 0..<500 where broker.subscriberCount(channel: "flood") < 2 { try await Task.sleep(for: .milliseconds(10)) }
        XCTAssertEqual(broker.subscriberCount(channel: "flood"), 2)

        let slowGot = FlowBox<[Int]>([])
        let hurry = FlowBox(false)
        let slowReader = Task { await readFlood(slowStream, into: slowGot, upTo: count, pausing: hurry) }
        let fastGot = FlowBox<[Int]>([])
        let fastReader = Task { await readFlood(fastStream, into: fastGot, upTo: count, pausing: nil) }

        let padding = JSONValue.string(String(repeating: "p", count: 10 * 1024))
        let before = try XCTUnwrap(ResidentMemory.current())
        var peak = before
        for n in 0..<count {
            broker.publish(channel: "flood", data: ["n": .int(Int64(n)), "pad": padding])
            if n % 50 == 49 {
                peak = max(peak, ResidentMemory.current() ?? 0)
                // As fast as the other client takes them: at most 200 publications (2 MiB) ahead.
                var waited = 0
                while n - fastGot.value.count > 200, waited < 1_000 {
                    try await Task.sleep(for: .milliseconds(1))
                    waited += 1
                }
                guard waited < 1_000 else { break }
            }
        }
        for _ in 0..<1_000 where fastGot.value.count < count { try await Task.sleep(for: .milliseconds(10)) }
        fastReader.cancel()
        let served = fastGot.value
        peak = max(peak, ResidentMemory.current() ?? 0)
        XCTAssertEqual(served, Array(0..<count), "the other client missed or reordered publications")

        // The slow app now reads as fast as it can: it gets what was sent to it, in order, then
        // (having been cut as a slow consumer) the close.
        hurry.value = true
        for _ in 0..<1_000 where slowGot.value.count < count && closeCodes.value.isEmpty {
            try await Task.sleep(for: .milliseconds(10))
        }
        slowReader.cancel()
        watcher.cancel()
        let got = slowGot.value
        XCTAssertEqual(got, Array(0..<got.count), "a gap in what the slow app received")
        if got.count < count {
            XCTAssertEqual(closeCodes.value.first, BrokerOptions.slowConsumerCloseCode.rawValue, "cut without the documented close")
        }
        // Unbounded, the slow app would hold the ~50 MiB it had not handled; bounded, its stream
        // holds 256 items (2.5 MiB) and the broker at most 8 MiB for it.
        let growth = peak - before
        XCTAssertLessThan(growth, 40 << 20, "RSS grew \(ResidentMemory.mebibytes(growth))")
        print("flooded app: RSS grew \(ResidentMemory.mebibytes(growth)); slow app got \(got.count) of \(count), close \(closeCodes.value)")
        slow.disconnect()
        fast.disconnect()
        await broker.stop()
    }
}

private final class FlowBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value  // guarded by `lock`
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
    func mutate(_ body: (inout Value) -> Void) { lock.withLock { body(&stored) } }
}

private func floodNumber(_ item: JSONValue?) -> Int { Int(item?["n"]?.intValue ?? -1) }

/// Reads `stream` into `box` until `count` items; sleeps 10 ms per item unless `hurry` is set.
private func readFlood(
    _ stream: AsyncStream<JSONValue?>, into box: FlowBox<[Int]>, upTo count: Int,
    pausing hurry: FlowBox<Bool>?
) async {
    var iterator = stream.makeAsyncIterator()
    while let item = await iterator.next() {
        box.mutate { $0.append(floodNumber(item)) }
        if box.value.count == count { return }
        if let hurry, !hurry.value { try? await Task.sleep(for: .milliseconds(10)) }
    }
}
