import XCTest
@testable import PubSubClient
final class PlaceholderPubSubClientTests: XCTestCase { func testModuleLinks() { XCTAssertTrue(true) } }
