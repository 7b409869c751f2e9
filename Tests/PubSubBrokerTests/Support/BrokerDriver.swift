import Foundation
@testable import PubSubBroker

/// A broker with no network: frames in through the engine, frames out into a
/// `CapturingTransport`, time from a `ManualClock`.
final class BrokerDriver {
    let clock: ManualClock
    let scheduler = ManualDeadlineScheduler()
    let transport = CapturingTransport()
    let engine: BrokerEngine
    let broker: PubSubBroker

    init(options: BrokerOptions, start: Date = Date(timeIntervalSince1970: 1_795_248_000)) {
        clock = ManualClock(start)
        let clock = self.clock
        engine = BrokerEngine(options: options, clock: { clock.reading })
        broker = PubSubBroker(engine: engine, listener: nil)
        engine.attach(transport: transport, scheduler: scheduler)
    }

    /// Waits until everything queued on the broker's serial context has run.
    func settle() {
        engine.sync {}
    }

    func open() -> BrokerConnectionID {
        let connection = engine.connectionOpened()
        settle()
        return connection
    }

    func send(_ text: String, on connection: BrokerConnectionID) {
        engine.received(text: text, from: connection)
        settle()
    }

    func sendBinary(_ bytes: [UInt8], on connection: BrokerConnectionID) {
        engine.received(binary: bytes, from: connection)
        settle()
    }

    func clientCloses(_ connection: BrokerConnectionID, code: UInt16 = 1000, reason: String = "") {
        engine.connectionClosed(connection, code: code, reason: reason)
        settle()
    }

    func outputs(of connection: BrokerConnectionID) -> [CapturingTransport.Output] {
        settle()
        return transport.outputs(of: connection)
    }

    /// Waits (real time, up to `timeout` seconds) until async handlers have finished.
    func waitForHandlers(timeout: TimeInterval = 5) {
        let end = Date().addingTimeInterval(timeout)
        while engine.inFlightHandlerCount > 0 && Date() < end {
            Thread.sleep(forTimeInterval: 0.002)
        }
        settle()
    }

    /// Produces outputs until `connection` has at least `count`: first by letting running async
    /// handlers finish, then by moving the clock to the next deadline. Returns whether it got there.
    func run(until count: Int, on connection: BrokerConnectionID, timeout: TimeInterval = 5) -> Bool {
        let end = Date().addingTimeInterval(timeout)
        while outputs(of: connection).count < count {
            if Date() > end { return false }
            if engine.inFlightHandlerCount > 0 {
                Thread.sleep(forTimeInterval: 0.002)
                continue
            }
            guard scheduler.fireNext(moving: clock) else { return false }
            settle()
        }
        return true
    }
}
