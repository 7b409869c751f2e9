import Foundation
import PubSubBroker
import TestSupport
import XCTest
@testable import PubSubClient

/// The soak test: ten clients invoke and publish as fast as they can through a
/// fault-injecting proxy that cuts every connection every few seconds, for about a minute
/// (`PUBSUB_SOAK_SECONDS` overrides the 60 s, `PUBSUB_SOAK_CUT_MS` the 3000 ms between cuts).
final class ResilienceSoakTests: XCTestCase {
    /// How often a resident-memory sample is taken.
    private static let sampleInterval: Duration = .milliseconds(500)

    func testSoakUnderRepeatedCutsLosesNothingDuplicatesNothingAndHoldsMemory() async throws {
        let environment = ProcessInfo.processInfo.environment
        let seconds = Int(environment["PUBSUB_SOAK_SECONDS"] ?? "") ?? 60
        let cutInterval: Duration = .milliseconds(Int(environment["PUBSUB_SOAK_CUT_MS"] ?? "") ?? 3000)
        let clientCount = 10
        let calls = CallAudit(callers: clientCount)
        let publications = PublicationAudit(channel: "soak", publishers: clientCount)
        let broker = try await ResilienceSetup.startBroker(calls: calls)
        let proxy = try FaultProxy(targetPort: broker.port)
        let clients = (0..<clientCount).map { _ in ResilienceSetup.client(port: proxy.port, ackTimeout: .seconds(5)) }
        for client in clients {
            publications.watch(client)
            try await client.connect()
            try await client.subscribe("soak")
        }

        let deadline = ContinuousClock.now + .seconds(seconds)
        let sampleInterval = Self.sampleInterval
        // Resident memory minus what the audits hold: their records grow with every call and
        // publication by design, the client, broker and proxy must not.
        let sampler = Task {
            var samples: [Int] = []
            while true {
                if let bytes = ResidentMemory.current() { samples.append(bytes - calls.storageBytes - publications.storageBytes) }
                if ContinuousClock.now >= deadline { return samples }
                try? await Task.sleep(for: sampleInterval)
            }
        }
        let cutter = Task {
            var cuts = 0
            var next = ContinuousClock.now + cutInterval
            while next < deadline {
                try? await Task.sleep(until: next)
                proxy.cutAll()
                cuts += 1
                next += cutInterval
            }
            return cuts
        }
        await withTaskGroup(of: Void.self) { group in
            for (index, client) in clients.enumerated() {
                group.addTask {
                    while ContinuousClock.now < deadline {
                        await calls.invoke(client, caller: index)
                        await publications.publish(from: client, as: index)
                    }
                }
            }
        }
        let cuts = await cutter.value
        let samples = await sampler.value

        // The cuts have stopped: every client gets back, resubscribed, and one last
        // publication from each must reach all of them.
        for client in clients {
            try await eventually(timeout: .seconds(10)) { client.channelState("soak") == .subscribed }
        }
        for (index, client) in clients.enumerated() {
            let acknowledged = await publications.publish(from: client, as: index)
            XCTAssertTrue(acknowledged, "final publication of client \(index)")
        }
        do {
            try await eventually(timeout: .seconds(10)) { publications.outstanding == 0 }
        } catch {
            XCTFail("\(publications.outstanding) acknowledged publications made after a resubscription never arrived")
        }
        for client in clients {
            try await eventually(timeout: .seconds(10)) { client.driver.read { $0.pendingCallCount + $0.queuedCallCount } == 0 }
        }

        let callCounts = calls.counts
        let publicationCounts = publications.counts
        XCTAssertEqual(calls.violations(), [], "every call completed once; acknowledged ones ran exactly once")
        XCTAssertEqual(publications.violations(), [], "no publication lost after a resubscription, duplicated or reordered")
        XCTAssertEqual(callCounts.made, callCounts.acknowledged + callCounts.failed)
        XCTAssertGreaterThanOrEqual(cuts, Int(Duration.seconds(seconds) / cutInterval) - 1)
        XCTAssertGreaterThan(callCounts.acknowledged, 100 * seconds, "the clients kept working between cuts")
        XCTAssertGreaterThan(publicationCounts.epochs, clientCount * cuts, "every cut was followed by resubscriptions")

        var memory = "RSS n/a"
        if let first = samples.first, let last = samples.last {
            let verdict = MemoryVerdict(samples: samples)
            memory =
                "RSS \(ResidentMemory.mebibytes(verdict.atWarmUp)) after warm-up, \(ResidentMemory.mebibytes(last)) at the end (start \(ResidentMemory.mebibytes(first)), max \(ResidentMemory.mebibytes(verdict.maximum)))"
            if MemoryVerdict.underThreadSanitizer {
                memory += ", not checked under ThreadSanitizer"
            } else {
                XCTAssertLessThan(
                    verdict.growth, MemoryVerdict.maximumGrowth,
                    "resident memory grew \(ResidentMemory.mebibytes(verdict.growth)) after warm-up")
                XCTAssertLessThan(
                    verdict.secondHalfGrowth, MemoryVerdict.maximumSecondHalfGrowth,
                    "resident memory kept climbing over the second half: \(samples.map(ResidentMemory.mebibytes))")
            }
        }
        print(
            "soak: \(seconds) s, \(cuts) cuts, calls \(callCounts.acknowledged) acknowledged / \(callCounts.failed) failed with a typed error (\(callCounts.failedButExecuted) of them ran), publications \(publicationCounts.made) sent (\(publicationCounts.acknowledged) acknowledged) / \(publicationCounts.received) received (\(publicationCounts.late) late), \(publicationCounts.epochs) subscription epochs, \(memory)"
        )

        for client in clients { client.disconnect() }
        await broker.stop()
    }
}
