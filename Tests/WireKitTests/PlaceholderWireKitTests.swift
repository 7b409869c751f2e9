import XCTest
@testable import WireKit
final class PlaceholderWireKitTests: XCTestCase { func testModuleLinks() { XCTAssertTrue(true) } }
