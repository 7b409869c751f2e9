import XCTest
@testable import Digests
final class PlaceholderDigestsTests: XCTestCase { func testModuleLinks() { XCTAssertTrue(true) } }
