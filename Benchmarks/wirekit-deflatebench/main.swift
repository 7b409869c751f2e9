// wirekit-deflatebench: permessage-deflate on vs off for JSON-like text, WireKit client against a
// WireKit echo server in this process over loopback. Per payload size and setting: messages/s,
// payload MB/s, bytes on the wire per message (client side, both directions, counted by a
// transport wrapper), CPU per round trip (user+sys of the whole process: client and server).
// Run the release build: `swift build -c release --product wirekit-deflatebench`.
import Dispatch
import Foundation
import WireKit
import BenchSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Counts the bytes a transport writes and reads.
final class CountingTransport: Transport, @unchecked Sendable {
    let inner: any Transport
    let counter: ByteCounter
    init(_ inner: any Transport, counter: ByteCounter) { self.inner = inner; self.counter = counter }
    func start(queue: DispatchQueue, handler: @escaping @Sendable (TransportEvent) -> Void) {
        let counter = self.counter
        inner.start(queue: queue) { event in
            if case .received(let bytes) = event { counter.add(read: bytes.count) }
            handler(event)
        }
    }
    func write(_ bytes: [UInt8]) { counter.add(written: bytes.count); inner.write(bytes) }
    var bufferedAmount: Int { inner.bufferedAmount }
    func close() { inner.close() }
}

final class ByteCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var written = 0, read = 0
    func add(written n: Int = 0, read m: Int = 0) {
        lock.withLock {
            written += n; read += m
        }
    }
    func reset() {
        lock.withLock {
            written = 0; read = 0
        }
    }
    var total: (written: Int, read: Int) { lock.withLock { (written, read) } }
}

func cpuSeconds() -> Double {
    var usage = rusage()
    #if canImport(Glibc)
    getrusage(RUSAGE_SELF.rawValue, &usage)
    #else
    getrusage(RUSAGE_SELF, &usage)
    #endif
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
}

/// JSON-like chat traffic of exactly `size` bytes; `seed` varies names, numbers and times.
func jsonText(_ size: Int, seed: Int) -> String {
    var text = "["
    var index = seed &* 7919
    while text.utf8.count < size {
        text +=
            ##"{"event":"#publish","data":{"channel":"chat/lobby","data":{"name":"user\##(index % 97)","text":"message number \##(index) from the lobby","ts":\##(1_700_000_000 + index * 37)}}},"##
        index += 1
    }
    return String(text.utf8.prefix(size))!
}

/// `--client-executor`: the client's loop runs on `client.executor`.
nonisolated(unsafe) var useClientExecutor = false

/// Runs `body` preferring the client's executor with `--client-executor`, as it is otherwise.
func onClientExecutor<T: Sendable>(_ client: WebSocket, _ body: () async throws -> T) async throws -> T {
    guard useClientExecutor else { return try await body() }
    guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, *) else { BenchReport.fail("--client-executor needs macOS 15") }
    // apple-runtime-check: guarded
    return try await withTaskExecutorPreference(client.executor, operation: body)
}

func run(size: Int, count: Int, deflate: Bool) async throws -> String {
    var serverOptions = WebSocketServerOptions()
    serverOptions.maxMessageSize = 64 << 20
    serverOptions.perMessageDeflate = deflate ? PerMessageDeflateOptions() : nil
    let server = try WebSocketServer.start(host: "127.0.0.1", port: 0, options: serverOptions) { connection in
        connection.onText = { [weak connection] text in try? connection?.write(text: text) }
    }
    let counter = ByteCounter()
    var options = WebSocketOptions()
    options.maxMessageSize = 64 << 20
    options.perMessageDeflate = deflate ? PerMessageDeflateOptions() : nil
    options.transportFactory = WebSocketTransportFactory { url, timeout throws(WebSocketError) in
        CountingTransport(TCPTransport(host: url.host, port: url.port, connectTimeout: timeout), counter: counter)
    }
    let client = try WebSocket(url: "ws://127.0.0.1:\(server.port)/", options: options)
    try await client.connect()
    guard (client.handshakeInfo?.perMessageDeflate != nil) == deflate else { throw CocoaError(.featureUnsupported) }
    // 64 different messages, cycled: context takeover sees similar, not identical, messages.
    let texts = (0..<64).map { jsonText(size, seed: $0) }
    let (seconds, cpu) = try await onClientExecutor(client) {
        var iterator = client.messages.makeAsyncIterator()
        // Warm-up, then the measured run, one message in flight (request/response).
        for text in texts.prefix(10) { try await client.send(text: text); _ = await iterator.next() }
        counter.reset()
        let cpu0 = cpuSeconds(), t0 = BenchClock.now()
        for index in 0..<count {
            try await client.send(text: texts[index % texts.count])
            guard case .text(let echoed)? = await iterator.next(), echoed.utf8.count == size else { fatalError("bad echo") }
        }
        return (Double(BenchClock.now() - t0) / 1e9, cpuSeconds() - cpu0)
    }
    let (written, read) = counter.total
    await client.close()
    await server.stop()
    return
        #"{"bench":"deflate","size":\#(size),"deflate":\#(deflate),"count":\#(count),"msgs_per_s":\#(Int(Double(count) / seconds)),"payload_MB_per_s":\#(String(format: "%.1f", Double(count * size * 2) / seconds / 1e6)),"wire_bytes_per_msg_up":\#(written / count),"wire_bytes_per_msg_down":\#(read / count),"cpu_us_per_roundtrip":\#(String(format: "%.1f", cpu / Double(count) * 1e6)),"client_executor":\#(useClientExecutor)}"#
}

let usage = """
    usage: wirekit-deflatebench [--client-executor] [--size 4096|1048576]
           wirekit-deflatebench -h | --help
    permessage-deflate off and on, WireKit client against a WireKit echo server in this process:
    4 KiB (5000 messages) and 1 MiB (100 messages) of JSON-like text; one JSON line per run on
    standard output (messages/s, payload MB/s, wire bytes per message each way, CPU per round trip).
    --client-executor runs the client's loop on its socket's executor (`WebSocket.executor`);
    --size runs the rows of one payload size only.
    exit status: 0 done, 1 a run failed (the last line is {"ok":false,"error":...}), 2 usage error
    """
let (executorOption, onlySize) = CommandLineManners.options(usage: usage) { arguments throws(ArgumentReader.UsageError) -> (Bool, Int?) in
    var executor = false
    var size: Int?
    var reader = ArgumentReader(arguments)
    while let argument = reader.nextOption() {
        switch argument {
        case "--client-executor": executor = true
        case "--size":
            let value = try reader.integer(for: argument, minimum: 1)
            guard value == 4096 || value == 1 << 20 else { throw ArgumentReader.UsageError("--size is 4096 or 1048576") }
            size = value
        default: throw ArgumentReader.UsageError("unknown option '\(argument)'")
        }
    }
    return (executor, size)
}
useClientExecutor = executorOption

let done = DispatchSemaphore(value: 0)
Task.detached {
    for (size, count) in [(4096, 5000), (1 << 20, 100)] where onlySize == nil || onlySize == size {
        for deflate in [false, true] {
            do {
                print(try await run(size: size, count: count, deflate: deflate))
            } catch {
                BenchReport.fail("size \(size), deflate \(deflate): \(error)")
            }
        }
    }
    done.signal()
}
done.wait()
