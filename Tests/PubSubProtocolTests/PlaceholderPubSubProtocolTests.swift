import XCTest
@testable import PubSubProtocol
final class PlaceholderPubSubProtocolTests: XCTestCase { func testModuleLinks() { XCTAssertTrue(true) } }
