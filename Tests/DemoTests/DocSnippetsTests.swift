import Foundation
import XCTest

/// The Swift snippets of the docs are the code the tests compile and run: every line of every
/// `swift` block must appear in the named test file (trimmed), either as code or, where the
/// test must differ (a broker's URL instead of port 8000), as a `// Docs: <line>` comment next
/// to the substitute. A block preceded by an HTML comment starting `<!-- not compiled` is
/// skipped (package manifests, SwiftUI, the old library's API).
final class DocSnippetsTests: XCTestCase {
    func testGettingStartedSnippetsAreCompiled() throws {
        try assertSnippets(of: "Sources/PubSubClient/PubSubClient.docc/GettingStarted.md", areIn: "Tests/DemoTests/GettingStartedTests.swift")
    }

    func testMigrationSnippetsAreCompiled() throws {
        try assertSnippets(of: "Sources/PubSubClient/PubSubClient.docc/Migration.md", areIn: "Tests/DemoTests/MigrationTests.swift")
    }

    func testReadmeQuickStartsAreCompiled() throws {
        try assertSnippets(of: "README.md", areIn: "Tests/DemoTests/ReadmeQuickStartTests.swift")
    }

    func testWireModelSnippetIsCompiled() throws {
        try assertSnippets(of: "Sources/PubSubProtocol/PubSubProtocol.docc/WireModel.md", areIn: "Tests/DemoTests/WireModelTests.swift")
    }

    func testAppLifecycleSnippetsAreCompiled() throws {
        try assertSnippets(of: "Sources/PubSubClient/PubSubClient.docc/StayingConnected.md", areIn: "Tests/DemoTests/AppLifecycleTests.swift")
    }

    func testLoggingSnippetsAreCompiled() throws {
        try assertSnippets(
            of: "Sources/WireKit/WireKit.docc/Logging.md",
            areIn: [
                "Tests/WireKitTests/Logging/LoggingGuideTests.swift", "Tests/WireKitTests/Logging/SwiftLogBridgeTests.swift",
                "Tests/WireKitTests/Logging/OSLogBridgeTests.swift",
            ])
    }

    /// The bridges are copied whole into apps, so each must be one block of its test file, line
    /// for line in order, not merely lines found somewhere in it.
    func testLoggingBridgesAreCompiledVerbatim() throws {
        let markdown = try String(contentsOf: Self.root.appendingPathComponent("Sources/WireKit/WireKit.docc/Logging.md"), encoding: .utf8)
        let bridges = Self.swiftBlocks(markdown).filter { $0.first == "extension LogSink {" }
        XCTAssertEqual(bridges.count, 2, "the swift-log and os.Logger bridges")
        for (bridge, file) in zip(bridges, ["SwiftLogBridgeTests.swift", "OSLogBridgeTests.swift"]) {
            let code = try String(contentsOf: Self.root.appendingPathComponent("Tests/WireKitTests/Logging/\(file)"), encoding: .utf8)
            let lines = code.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            let block = bridge.filter { !$0.isEmpty }
            let found = lines.indices.contains { start in Array(lines[start...].prefix(block.count)) == block }
            XCTAssertTrue(found, "the bridge in Logging.md differs from the one compiled in \(file)")
        }
    }

    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    private func assertSnippets(
        of document: String, areIn testFile: String, file: StaticString = #filePath,
        line: UInt = #line
    ) throws {
        try assertSnippets(of: document, areIn: [testFile], file: file, line: line)
    }

    private func assertSnippets(
        of document: String, areIn testFiles: [String], file: StaticString = #filePath,
        line: UInt = #line
    ) throws {
        let markdown = try String(contentsOf: Self.root.appendingPathComponent(document), encoding: .utf8)
        var compiled: Set<String> = []
        for testFile in testFiles {
            let code = try String(contentsOf: Self.root.appendingPathComponent(testFile), encoding: .utf8)
            compiled.formUnion(code.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        }
        let testFile = testFiles.joined(separator: " or ")
        let blocks = Self.swiftBlocks(markdown)
        XCTAssertFalse(blocks.isEmpty, "no swift blocks in \(document)", file: file, line: line)
        for block in blocks {
            for text in block where !text.isEmpty {
                XCTAssertTrue(
                    compiled.contains(text) || compiled.contains("// Docs: " + text),
                    "\(document) line not in \(testFile): \(text)", file: file, line: line)
            }
        }
    }

    /// The trimmed lines of each ```swift block not marked `<!-- not compiled`.
    static func swiftBlocks(_ markdown: String) -> [[String]] {
        var blocks: [[String]] = []
        var current: [String]?
        var skipNext = false
        for raw in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let text = raw.trimmingCharacters(in: .whitespaces)
            if current != nil {
                if text == "```" {
                    if let block = current { blocks.append(block) }
                    current = nil
                } else {
                    current?.append(text)
                }
            } else if text.hasPrefix("<!-- not compiled") {
                skipNext = true
            } else if text == "```swift" {
                if skipNext { current = nil; skipNext = false; continue }
                current = []
            } else if text.hasPrefix("```") {
                skipNext = false
            }
        }
        return blocks
    }
}
