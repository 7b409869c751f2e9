import XCTest
@testable import PubSubBroker

/// `BrokerOptions`' var style: what `init()` leaves unset and what the broker derives from it.
final class BrokerOptionsTests: XCTestCase {
    func testWithoutAnAuthKeyEachBrokerGeneratesItsOwnWhenItStarts() {
        let options = BrokerOptions()
        XCTAssertNil(options.authKey, "derived when used, not when the options are built")
        let first = BrokerCore(options: options).options.authKey
        let second = BrokerCore(options: options).options.authKey
        XCTAssertEqual(first?.count, 64, "32 random bytes, hex")
        XCTAssertEqual(first?.allSatisfy(\.isHexDigit), true)
        XCTAssertNotEqual(first, second)
    }

    func testAGivenAuthKeyIsKeptAndSignsTheTokens() throws {
        var options = BrokerOptions(authKey: "k")
        options.pingInterval = .seconds(5)
        let core = BrokerCore(options: options)
        XCTAssertEqual(core.options.authKey, "k")
        XCTAssertEqual(core.options.pingInterval, .seconds(5))
        let token = JWT.sign(payload: ["username": "ann"], secret: "k")
        XCTAssertNoThrow(try JWT.verify(token, secret: try XCTUnwrap(core.options.authKey), now: Date()).get())
    }

    func testTheBrokerReportsTheKeyItGenerated() async throws {
        let broker = try await PubSubBroker.start(port: 0)
        let key = try XCTUnwrap(broker.options.authKey)
        XCTAssertEqual(broker.options.authKey, key, "generated once, not per read")
        await broker.stop()
    }
}
