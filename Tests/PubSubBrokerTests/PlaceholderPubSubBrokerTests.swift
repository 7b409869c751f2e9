import XCTest
@testable import PubSubBroker
final class PlaceholderPubSubBrokerTests: XCTestCase { func testModuleLinks() { XCTAssertTrue(true) } }
