import Dispatch
import Foundation
import XCTest
@testable import WireKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TestSupport

/// On queues without an event loop: the Dispatch-source path (Apple platforms, and Linux
/// queues that are not WireKit's). `TCPTransportOnEventLoopTests` runs the same tests on a
/// queue with a loop bound to it.
class TCPTransportTests: XCTestCase {
    /// Whether the queues of these tests have an event loop bound to them.
    class var usesEventLoop: Bool { false }

    private lazy var queue = makeQueue(label: "TCPTransportTests")

    /// A serial queue for transports, with an event loop bound to it if `usesEventLoop`.
    func makeQueue(label: String) -> DispatchQueue {
        let queue = DispatchQueue(label: label)
        if Self.usesEventLoop { EventLoop.bind(to: queue, name: "test.loop") }
        return queue
    }

    private func connect(_ transport: TCPTransport) -> TransportEventLog {
        let log = TransportEventLog()
        transport.start(queue: queue) { log.record($0) }
        return log
    }

    func testListenerOnPortZeroReportsTheBoundPort() throws {
        let listener = try TCPListener(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        XCTAssertGreaterThan(listener.port, 0)
        XCTAssertEqual(SocketAddress.local(of: try XCTUnwrap(Mirror(reflecting: listener).descendant("fd") as? Int32))?.port, listener.port)
    }

    func testListenerOnTakenPortThrowsAddressInUse() throws {
        let first = try TCPListener(host: "127.0.0.1", port: 0)
        defer { first.close() }
        XCTAssertThrowsError(try TCPListener(host: "127.0.0.1", port: first.port)) { error in
            XCTAssertEqual(error as? TransportError, .addressInUse(host: "127.0.0.1", port: first.port))
        }
    }

    func testOneMebibyteEchoesBackByteForByteOverIPv4() throws {
        let server = try TCPEchoServer()
        defer { server.stop() }
        let client = TCPTransport(host: "127.0.0.1", port: server.port)
        let log = connect(client)
        let payload = testBytes(count: 1 << 20)
        queue.async {
            // Writes of uneven pieces must arrive in order.
            client.write(Array(payload[0..<1]))
            client.write(Array(payload[1..<70_000]))
            client.write([])
            client.write(Array(payload[70_000...]))
        }
        wait(for: [log.expectation("echo") { $0.receivedCountUnlocked >= payload.count }], timeout: 20)
        XCTAssertEqual(log.received, payload)
        XCTAssertEqual(log.events.first, "connected")
        queue.sync { client.close() }
        wait(for: [log.expectation("closed") { $0.isClosedUnlocked }], timeout: 5)
        XCTAssertEqual(log.closeError, .some(nil))
    }

    func testIPv6LoopbackEchoes() throws {
        let server: TCPEchoServer
        do { server = try TCPEchoServer(host: "::1") } catch {
            throw XCTSkip("no IPv6 loopback here: \(error)")
        }
        defer { server.stop() }
        let client = TCPTransport(host: "[::1]", port: server.port)
        let log = connect(client)
        queue.async { client.write(Array("hello over IPv6".utf8)) }
        wait(for: [log.expectation("echo") { $0.receivedCountUnlocked >= 15 }], timeout: 10)
        XCTAssertEqual(String(decoding: log.received, as: UTF8.self), "hello over IPv6")
        XCTAssertTrue(client.remoteAddressDescription?.hasPrefix("[::1]") ?? false)
        queue.sync { client.close() }
    }

    func testLocalhostNameResolvesAndConnects() throws {
        let server = try TCPEchoServer(host: "127.0.0.1")
        defer { server.stop() }
        let client = TCPTransport(host: "localhost", port: server.port)
        let log = connect(client)
        queue.async { client.write([1, 2, 3]) }
        wait(for: [log.expectation("echo") { $0.receivedCountUnlocked >= 3 }], timeout: 10)
        XCTAssertEqual(log.received, [1, 2, 3])
        queue.sync { client.close() }
    }

    func testIPLiteralsAreTakenAsTheyAreAndNamesGoToTheResolver() throws {
        let v4 = try XCTUnwrap(SocketAddress.numeric(host: "127.0.0.1", port: 8080))
        XCTAssertEqual(v4.family, AF_INET)
        XCTAssertEqual(v4.description, "127.0.0.1:8080")
        let v6 = try XCTUnwrap(SocketAddress.numeric(host: "[::1]", port: 443))
        XCTAssertEqual(v6.family, AF_INET6)
        XCTAssertEqual(v6.description, "[::1]:443")
        XCTAssertEqual(SocketAddress.numeric(host: "2001:db8::7", port: 1)?.description, "[2001:db8::7]:1")
        // Names, and literals inet_pton does not take (short forms, zone indexes), need getaddrinfo.
        for host in ["localhost", "example.com", "", "256.1.1.1", "127.1", "1.2.3.4.5", "fe80::1%lo", "[::1"] {
            XCTAssertNil(SocketAddress.numeric(host: host, port: 80), host)
        }
        XCTAssertNil(SocketAddress.numeric(host: "127.0.0.1", port: 65536))
    }

    func testConnectingToAnIPLiteralSkipsTheResolver() throws {
        let server = try TCPEchoServer(host: "127.0.0.1")
        defer { server.stop() }
        let before = SharedQueues.blockingRunCount
        let client = TCPTransport(host: "127.0.0.1", port: server.port)
        let log = connect(client)
        wait(for: [log.expectation("connected") { $0.eventsUnlocked.contains("connected") }], timeout: 10)
        // Tests in one process run one at a time, so nothing else resolved a name meanwhile.
        XCTAssertEqual(SharedQueues.blockingRunCount, before)
        XCTAssertEqual(client.remoteAddressDescription, "127.0.0.1:\(server.port)")
        queue.sync { client.close() }
    }

    func testALoopbackConnectThatEndsAtOnceNeedsNoWriteSourceAndStillWrites() throws {
        let server = try TCPEchoServer(host: "127.0.0.1")
        defer { server.stop() }
        // Over loopback `connect` has nearly always finished when it returns; on a busy machine
        // an attempt may still be under way, so one of 20 is enough.
        var withoutDuplicate = 0
        for round in 0..<20 {
            let client = TCPTransport(host: "127.0.0.1", port: server.port)
            let log = connect(client)
            wait(for: [log.expectation("connected") { $0.eventsUnlocked.contains("connected") }], timeout: 10)
            if queue.sync(execute: { Mirror(reflecting: client).descendant("writeFD") as? Int32 }) == -1 {
                withoutDuplicate += 1
                if withoutDuplicate == 1 {
                    // The write source made later, on demand, still carries what the kernel did not take at once.
                    let payload = [UInt8](repeating: UInt8(round), count: 4 << 20)
                    queue.async { client.write(payload) }
                    wait(for: [log.expectation("echo") { $0.receivedCountUnlocked >= payload.count }], timeout: 20)
                    XCTAssertEqual(log.received, payload)
                }
            }
            queue.sync { client.close() }
        }
        XCTAssertGreaterThan(withoutDuplicate, 0)
    }

    func testClosedPortIsConnectionRefused() throws {
        let listener = try TCPListener(host: "127.0.0.1", port: 0)
        let port = listener.port
        listener.close()
        Thread.sleep(forTimeInterval: 0.05)
        let log = connect(TCPTransport(host: "127.0.0.1", port: port))
        wait(for: [log.expectation("closed") { $0.isClosedUnlocked }], timeout: 10)
        XCTAssertEqual(log.closeError, .some(.connectionRefused(host: "127.0.0.1", port: port)))
        XCTAssertFalse(log.events.contains("connected"))
    }

    func testUnknownHostIsHostNotFound() throws {
        let log = connect(TCPTransport(host: "no-such-host.invalid", port: 80))
        wait(for: [log.expectation("closed") { $0.isClosedUnlocked }], timeout: 30)
        guard case .some(.some(let error)) = log.closeError, error.code == .hostNotFound, let host = error.host else {
            return XCTFail("expected hostNotFound, got \(String(describing: log.closeError))")
        }
        XCTAssertEqual(host, "no-such-host.invalid")
    }

    func testConnectToAFullBacklogTimesOut() throws {
        // A listener that never accepts, with a backlog of 0: once its queue is full the
        // kernel drops further SYNs, so the connect can only end by our timeout.
        let (listener, port) = try loopbackListener(backlog: 0)
        defer { close(listener) }

        var fillers: [TCPTransport] = []
        var logs: [TransportEventLog] = []
        for _ in 0..<4 {
            let filler = TCPTransport(host: "127.0.0.1", port: port, connectTimeout: .milliseconds(1500))
            fillers.append(filler)
            logs.append(connect(filler))
        }
        wait(for: logs.map { log in log.expectation("settled") { $0.eventsUnlocked.contains("connected") || $0.isClosedUnlocked } }, timeout: 10)
        let timedOut = logs.filter { log in
            if case .some(.some(let error)) = log.closeError, error.code == .connectTimedOut {
                return error.port == port && error.timeout == .milliseconds(1500)
            }
            return false
        }
        XCTAssertFalse(timedOut.isEmpty, "events: \(logs.map { $0.events })")
        queue.sync { fillers.forEach { $0.close() } }
    }

    func testAHangingFirstAddressFallsBackToTheNextOne() throws {
        // First address: a listener whose backlog is full, so the kernel drops our SYN and the
        // connect hangs (like an unroutable IPv6 address). Second address: an echo server.
        let (hanging, hangingPort) = try loopbackListener(backlog: 0)
        defer { close(hanging) }
        let first = try XCTUnwrap(SocketAddress.local(of: hanging))
        XCTAssertEqual(first.port, hangingPort)
        // Fill the accept queue until a connect attempt visibly hangs.
        var fillers: [TCPTransport] = []
        var hangs = false
        for _ in 0..<10 where !hangs {
            let filler = TCPTransport(host: "127.0.0.1", port: first.port, connectTimeout: .seconds(10))
            fillers.append(filler)
            let log = connect(filler)
            hangs = XCTWaiter().wait(for: [log.expectation("connected") { $0.eventsUnlocked.contains("connected") }], timeout: 0.3) != .completed
        }
        guard hangs else {
            queue.sync { fillers.forEach { $0.close() } }
            throw XCTSkip("the kernel accepted every connection; no hanging address to test with")
        }
        let server = try TCPEchoServer()
        defer { server.stop() }
        guard case .success(let second) = SocketAddress.resolve(host: "127.0.0.1", port: server.port, passive: false) else {
            return XCTFail("cannot resolve 127.0.0.1")
        }
        let client = TCPTransport(addresses: [first] + second, connectTimeout: 5, addressAttemptTimeout: 0.3)
        let log = connect(client)
        queue.async { client.write([42]) }
        wait(for: [log.expectation("echo via the second address") { $0.receivedCountUnlocked >= 1 || $0.isClosedUnlocked }], timeout: 4)
        XCTAssertEqual(log.received, [42], "events: \(log.events), closed: \(String(describing: log.closeError))")
        XCTAssertEqual(client.remoteAddressDescription, "127.0.0.1:\(server.port)")
        queue.sync {
            client.close()
            fillers.forEach { $0.close() }
        }
    }

    func testAPeerThatAcceptsAndClosesAtOnceIsReportedEveryTime() throws {
        // Regression: with the connect's write source and the read source on one descriptor,
        // libdispatch sometimes never reported the peer's reset, and the owner waited forever.
        let listener = try TCPListener(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        listener.start { transport in transport.close() }
        for round in 0..<300 {
            let client = TCPTransport(host: "127.0.0.1", port: listener.port)
            let log = TransportEventLog()
            client.start(queue: queue) { event in
                log.record(event)
                if case .connected = event { client.write(Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8)) }
                if case .inputClosed = event { client.close() }
            }
            let outcome = XCTWaiter().wait(for: [log.expectation("closed") { $0.isClosedUnlocked }], timeout: 3)
            XCTAssertEqual(outcome, .completed, "round \(round): events \(log.events)")
            if outcome != .completed { break }
        }
    }

    func testPeerResetIsReportedAsConnectionReset() throws {
        let listener = try TCPListener(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        let accepted = DispatchSemaphore(value: 0)
        let box = TransportBox()
        listener.start { transport in
            box.set(transport); accepted.signal()
        }
        let log = connect(TCPTransport(host: "127.0.0.1", port: listener.port))
        XCTAssertEqual(accepted.wait(timeout: .now() + 10), .success)
        wait(for: [log.expectation("connected") { $0.eventsUnlocked.contains("connected") }], timeout: 10)
        // SO_LINGER 0 makes close() send RST.
        let fd = try XCTUnwrap(box.fileDescriptor)
        var abortive = linger(l_onoff: 1, l_linger: 0)
        XCTAssertEqual(setsockopt(fd, SOL_SOCKET, SO_LINGER, &abortive, socklen_t(MemoryLayout<linger>.size)), 0)
        box.transport?.close()
        wait(for: [log.expectation("closed") { $0.isClosedUnlocked }], timeout: 10)
        XCTAssertEqual(log.closeError, .some(.connectionReset))
    }

    func testWritingToAClosedPeerFailsWithoutSIGPIPE() throws {
        let listener = try TCPListener(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        listener.start { transport in transport.close() }  // accept and close at once
        let client = TCPTransport(host: "127.0.0.1", port: listener.port)
        let log = connect(client)
        wait(for: [log.expectation("input closed") { $0.eventsUnlocked.contains("inputClosed") }], timeout: 10)
        // The peer is gone: the first write may still be accepted, then RST makes later ones
        // fail with EPIPE/ECONNRESET. Without MSG_NOSIGNAL this would kill the test process.
        let chunk = [UInt8](repeating: 7, count: 64 * 1024)
        for _ in 0..<50 {
            queue.sync { client.write(chunk) }
            if log.closeError != nil { break }
            Thread.sleep(forTimeInterval: 0.01)
        }
        wait(for: [log.expectation("closed") { $0.isClosedUnlocked }], timeout: 10)
        XCTAssertEqual(log.closeError, .some(.connectionReset))
    }

    func testBufferedBytesAreKeptUntilThePeerReadsThenWritableIsReported() throws {
        let server = try TCPEchoServer(paused: true)
        defer { server.stop() }
        let client = TCPTransport(host: "127.0.0.1", port: server.port)
        let log = connect(client)
        wait(for: [log.expectation("connected") { $0.eventsUnlocked.contains("connected") }], timeout: 10)
        let payload = testBytes(count: 16 << 20)
        let buffered = queue.sync { () -> Int in
            client.write(payload)
            return client.bufferedAmount
        }
        // 16 MiB cannot fit the socket buffers of a peer that does not read.
        XCTAssertGreaterThan(buffered, 0)
        XCTAssertLessThanOrEqual(buffered, payload.count)
        server.resume()
        wait(for: [log.expectation("echo") { $0.receivedCountUnlocked >= payload.count }], timeout: 60)
        XCTAssertTrue(log.events.contains("writable"))
        XCTAssertEqual(queue.sync { client.bufferedAmount }, 0)
        XCTAssertTrue(log.received == payload)
        queue.sync { client.close() }
    }

    func testCloseBeforeConnectingDeliversClosedOnce() throws {
        let client = TCPTransport(host: "127.0.0.1", port: 9)
        let log = TransportEventLog()
        queue.sync {
            client.start(queue: queue) { log.record($0) }
            client.close()
        }
        wait(for: [log.expectation("closed") { $0.isClosedUnlocked }], timeout: 5)
        Thread.sleep(forTimeInterval: 0.1)
        XCTAssertEqual(log.events.filter { $0 == "closed" }.count, 1)
        XCTAssertEqual(log.closeError, .some(nil))
    }

    /// A peer that sends faster than its connection is processed must not crowd the queue the
    /// connection shares with others: work queued behind it waits for at most the read turn
    /// that is running and the one queued, whatever the read source reported meanwhile.
    func testAFloodedConnectionKeepsAtMostOneReadTurnWaitingOnItsQueue() throws {
        let (listenFD, port) = try loopbackListener()
        defer { TestSocket.close(listenFD) }
        let shared = makeQueue(label: "TCPTransportTests.shared")
        let reads = LockedBox(0)
        let client = TCPTransport(host: "127.0.0.1", port: port)
        client.start(queue: shared) { event in
            guard case .received = event else { return }
            reads.mutate { $0 += 1 }
            // Processing slower than the peer sends, as parsing a flood of pings is.
            let until = DispatchTime.now().uptimeNanoseconds + 150_000
            while DispatchTime.now().uptimeNanoseconds < until {}
        }
        let peer = accept(listenFD, nil, nil)
        XCTAssertGreaterThanOrEqual(peer, 0)
        let flooding = LockedBox(true)
        let flooder = Thread {
            let chunk = [UInt8](repeating: 0x55, count: 64 * 1024)
            while flooding.value {
                let sent = chunk.withUnsafeBytes { TestSocket.send(peer, $0.baseAddress, $0.count) }
                if sent <= 0 { break }
            }
        }
        flooder.start()
        defer {
            flooding.value = false
            shutdown(peer, Int32(SHUT_RDWR))
            shared.sync { client.close() }
            TestSocket.close(peer)
        }
        Thread.sleep(forTimeInterval: 0.3)
        var worst = 0
        for _ in 0..<20 {
            let before = reads.value
            let readsAhead = LockedBox(0)
            let done = DispatchSemaphore(value: 0)
            shared.async {
                readsAhead.value = reads.value - before
                done.signal()
            }
            XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
            worst = max(worst, readsAhead.value)
            Thread.sleep(forTimeInterval: 0.02)
        }
        XCTAssertGreaterThan(reads.value, 40, "the flood was read")
        // A turn is at most 4 reads: the one running plus the one queued, and slack for one more.
        XCTAssertLessThanOrEqual(worst, 12, "reads of the flooded connection that ran before a block queued behind them")
    }
}

/// The same tests with an event loop bound to the transports' queues (Linux; elsewhere the
/// loop is not supported and they are skipped).
final class TCPTransportOnEventLoopTests: TCPTransportTests {
    override class var usesEventLoop: Bool { true }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try XCTSkipUnless(EventLoop.isSupported, "no event loop on this platform")
    }

    // XCTest on Linux runs only the test methods a class declares itself.
    override func testListenerOnPortZeroReportsTheBoundPort() throws { try super.testListenerOnPortZeroReportsTheBoundPort() }
    override func testListenerOnTakenPortThrowsAddressInUse() throws { try super.testListenerOnTakenPortThrowsAddressInUse() }
    override func testOneMebibyteEchoesBackByteForByteOverIPv4() throws { try super.testOneMebibyteEchoesBackByteForByteOverIPv4() }
    override func testIPv6LoopbackEchoes() throws { try super.testIPv6LoopbackEchoes() }
    override func testLocalhostNameResolvesAndConnects() throws { try super.testLocalhostNameResolvesAndConnects() }
    override func testIPLiteralsAreTakenAsTheyAreAndNamesGoToTheResolver() throws { try super.testIPLiteralsAreTakenAsTheyAreAndNamesGoToTheResolver() }
    override func testConnectingToAnIPLiteralSkipsTheResolver() throws { try super.testConnectingToAnIPLiteralSkipsTheResolver() }
    override func testALoopbackConnectThatEndsAtOnceNeedsNoWriteSourceAndStillWrites() throws {
        try super.testALoopbackConnectThatEndsAtOnceNeedsNoWriteSourceAndStillWrites()
    }
    override func testClosedPortIsConnectionRefused() throws { try super.testClosedPortIsConnectionRefused() }
    override func testUnknownHostIsHostNotFound() throws { try super.testUnknownHostIsHostNotFound() }
    override func testConnectToAFullBacklogTimesOut() throws { try super.testConnectToAFullBacklogTimesOut() }
    override func testAHangingFirstAddressFallsBackToTheNextOne() throws { try super.testAHangingFirstAddressFallsBackToTheNextOne() }
    override func testAPeerThatAcceptsAndClosesAtOnceIsReportedEveryTime() throws { try super.testAPeerThatAcceptsAndClosesAtOnceIsReportedEveryTime() }
    override func testPeerResetIsReportedAsConnectionReset() throws { try super.testPeerResetIsReportedAsConnectionReset() }
    override func testWritingToAClosedPeerFailsWithoutSIGPIPE() throws { try super.testWritingToAClosedPeerFailsWithoutSIGPIPE() }
    override func testBufferedBytesAreKeptUntilThePeerReadsThenWritableIsReported() throws {
        try super.testBufferedBytesAreKeptUntilThePeerReadsThenWritableIsReported()
    }
    override func testCloseBeforeConnectingDeliversClosedOnce() throws { try super.testCloseBeforeConnectingDeliversClosedOnce() }
    override func testAFloodedConnectionKeepsAtMostOneReadTurnWaitingOnItsQueue() throws {
        try super.testAFloodedConnectionKeepsAtMostOneReadTurnWaitingOnItsQueue()
    }
}

/// Holds the server side of a test connection; thread-safe.
final class TransportBox: @unchecked Sendable {
    private let lock = NSLock()
    private var _transport: TCPTransport?  // guarded by `lock`
    func set(_ transport: TCPTransport) { lock.withLock { _transport = transport } }
    var transport: TCPTransport? { lock.withLock { _transport } }
    var fileDescriptor: Int32? { transport.flatMap { Mirror(reflecting: $0).descendant("fd") as? Int32 } }
}
