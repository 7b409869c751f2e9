import XCTest

/// Every executable of the package answers `--help` and `-h` with its usage on standard output and
/// exit status 0, and refuses an unknown option with one line and a hint on standard error and
/// exit status 2. Runs the built executables (`swift build` builds them all).
final class CommandLineMannersTests: XCTestCase {
    private static let executables = [
        "demo", "wirebench", "pubsubbench", "wirekit-microbench", "pubsub-microbench",
        "wirekit-deflatebench", "wirekit-autobahn-client", "wirekit-autobahn-server",
    ]

    func testHelpPrintsTheUsageWithExitStatusesAndExitsZero() throws {
        for name in Self.executables {
            for flag in ["--help", "-h"] {
                let process = try DemoProcess([flag], executable: name)
                XCTAssertEqual(process.waitForExit(), 0, "\(name) \(flag): \(process.stderr)")
                XCTAssertTrue(process.stdout.hasPrefix("usage: \(name)"), "\(name) \(flag): \(process.stdout)")
                XCTAssertTrue(process.stdout.contains("exit status:"), "\(name) \(flag): \(process.stdout)")
                XCTAssertEqual(process.stderr, "", "\(name) \(flag)")
            }
        }
    }

    func testUnknownOptionIsOneLineAndAHintOnStandardErrorAndExitsTwo() throws {
        for name in Self.executables {
            let process = try DemoProcess(["--colour", "red"], executable: name)
            XCTAssertEqual(process.waitForExit(), 2, "\(name): \(process.stderr)")
            let lines = process.stderr.split(separator: "\n")
            XCTAssertEqual(lines.count, 2, "\(name): \(process.stderr)")
            XCTAssertTrue(lines.first?.hasPrefix("\(name): ") ?? false, "\(name): \(process.stderr)")
            XCTAssertTrue(lines.first?.contains("--colour") ?? false, "\(name): \(process.stderr)")
            XCTAssertEqual(lines.last.map(String.init), "Run '\(name) --help' for usage.")
            XCTAssertEqual(process.stdout, "", name)
        }
    }

    func testHelpAfterASubcommandIsHelpToo() throws {
        for arguments in [["chat", "--help"], ["broker", "-h"], ["chat", "--url", "ws://h/", "--help"]] {
            let demo = try DemoProcess(arguments)
            XCTAssertEqual(demo.waitForExit(), 0, "\(arguments): \(demo.stderr)")
            XCTAssertTrue(demo.stdout.hasPrefix("usage: demo"), "\(arguments)")
        }
    }
}
