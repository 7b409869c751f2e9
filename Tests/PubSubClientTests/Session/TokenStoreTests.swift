import Foundation
import XCTest
@testable import PubSubClient

final class TokenStoreTests: XCTestCase {
    func testFileStoreRoundTripsWithOwnerOnlyPermissions() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tokens-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try FileTokenStore(directory: directory)
        let name = "socketcluster.authToken.localhost:8000"
        XCTAssertNil(try store.loadToken(name: name))
        try store.saveToken(name: name, token: "a.b.c")
        try store.saveToken(name: name, token: "d.e.f")
        XCTAssertEqual(try store.loadToken(name: name), "d.e.f")
        let file = store.fileURL(name)
        XCTAssertEqual(file.lastPathComponent, "socketcluster.authToken.localhost%3A8000.token")
        let permissions = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        XCTAssertEqual(permissions, 0o600)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path).count, 1, "no temporary files left")
        let reopened = try FileTokenStore(directory: directory)
        XCTAssertEqual(try reopened.loadToken(name: name), "d.e.f")
        try store.removeToken(name: name)
        XCTAssertNil(try store.loadToken(name: name))
        XCTAssertNoThrow(try store.removeToken(name: name))
    }

    func testNamesCannotEscapeTheDirectory() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tokens-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try FileTokenStore(directory: directory)
        XCTAssertEqual(
            store.fileURL("../../etc/passwd").deletingLastPathComponent().standardizedFileURL.path,
            directory.standardizedFileURL.path)
    }

    func testInMemoryStoreRoundTrips() throws {
        let store = InMemoryTokenStore(tokens: ["k": "t"])
        XCTAssertEqual(try store.loadToken(name: "k"), "t")
        try store.removeToken(name: "k")
        XCTAssertNil(try store.loadToken(name: "k"))
    }
}
