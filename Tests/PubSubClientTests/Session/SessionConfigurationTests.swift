import XCTest
@testable import PubSubClient

final class SessionConfigurationTests: XCTestCase {
    func testInitTakesTheAddressAndEveryOptionStartsAtItsDocumentedDefault() {
        let configuration = SessionConfiguration(address: ServerAddress(hostname: "example.com", secure: true))
        XCTAssertEqual(configuration.address.url, "wss://example.com/socketcluster/")
        XCTAssertEqual(configuration.headers, [:])
        XCTAssertEqual(configuration.protocolVersion, .automatic)
        XCTAssertTrue(configuration.codec is JSONPacketCodec)
        XCTAssertEqual(configuration.connectTimeout, .seconds(20))
        XCTAssertEqual(configuration.ackTimeout, .seconds(10))
        XCTAssertFalse(configuration.pingTimeoutDisabled)
        XCTAssertTrue(configuration.autoReconnect)
        XCTAssertEqual(configuration.reconnectPolicy, ReconnectPolicy())
        XCTAssertNil(configuration.maxReconnectAttempts)
        XCTAssertNil(configuration.channelPrefix)
        XCTAssertNil(configuration.authTokenName)
        XCTAssertEqual(configuration.maxQueuedMessages, 1000)
        XCTAssertEqual(configuration.maxQueuedBytes, 4 << 20)
        XCTAssertEqual(configuration.tokenExpiryWarning, .seconds(60))
        XCTAssertTrue(configuration.reconnectWhenNetworkReturns)
        XCTAssertNil(configuration.frameObserver)
        XCTAssertFalse(configuration.logSink.isOn)
        let random = configuration.random()
        XCTAssertTrue((0..<1).contains(random), "\(random)")
    }

    func testTokenNameFollowsAnAddressChangedAfterInit() {
        var configuration = SessionConfiguration(address: ServerAddress(hostname: "old.example.com", secure: true))
        configuration.address = ServerAddress(hostname: "new.example.com", port: 8000)
        XCTAssertEqual(configuration.tokenName, "socketcluster.authToken.new.example.com:8000")
        configuration.authTokenName = "mine"
        XCTAssertEqual(configuration.tokenName, "mine")
    }

    func testTheSessionSavesTheTokenUnderTheNameDerivedWhenUsed() {
        var configuration = SessionHarness.configuration()
        configuration.address = ServerAddress(hostname: "moved.example.com", port: 9000)
        var session = ClientSession(configuration: configuration)
        session.setTokenForNextHandshake("signed", now: MonotonicInstant(nanoseconds: 0))
        session.deauthenticate(now: MonotonicInstant(nanoseconds: 0))
        var names: [String] = []
        while let action = session.nextAction() {
            switch action {
            case .saveToken(let name, _), .removeToken(let name): names.append(name)
            default: break
            }
        }
        let derived = "socketcluster.authToken.moved.example.com:9000"
        XCTAssertEqual(names, [derived, derived], "saved, then removed, under the address's name")
    }
}
