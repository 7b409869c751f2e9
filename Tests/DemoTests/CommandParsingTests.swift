@testable import demo
import WireKit
import XCTest

/// The demo's command line, tested in-process (DemoTests depends on the `demo` executable
/// target, which SwiftPM lets tests import).
final class CommandParsingTests: XCTestCase {
    func testNoArgumentsRunsTheStory() throws {
        XCTAssertEqual(try Command(arguments: []), .story(trace: false))
        XCTAssertEqual(try Command(arguments: ["--trace"]), .story(trace: true))
        XCTAssertEqual(try Command(arguments: ["story", "--trace"]), .story(trace: true))
        XCTAssertEqual(try Command(arguments: ["--help"]), .help)
    }

    func testHelpAnywhereIsHelp() throws {
        for arguments in [["-h"], ["help"], ["chat", "--help"], ["broker", "--port", "1", "-h"], ["--trace", "--help"]] {
            XCTAssertEqual(try Command(arguments: arguments), .help, "\(arguments)")
        }
    }

    func testUnknownOptionsAreNamedNotTakenForValues() {
        XCTAssertThrowsError(try Command(arguments: ["--bogus"])) { error in
            XCTAssertEqual("\(error)", "unknown option --bogus for story")
        }
        XCTAssertThrowsError(try Command(arguments: ["chat", "--url", "ws://h/", "--nmae", "ann"])) { error in
            XCTAssertEqual("\(error)", "unknown option --nmae for chat")
        }
        XCTAssertThrowsError(try Command(arguments: ["--trace=yes"])) { error in
            XCTAssertEqual("\(error)", "--trace takes no value")
        }
    }

    func testBrokerTakesHostAndPortInBothSpellings() throws {
        XCTAssertEqual(try Command(arguments: ["broker"]), .broker(host: "127.0.0.1", port: 8000))
        XCTAssertEqual(try Command(arguments: ["broker", "--port", "0", "--host=0.0.0.0"]), .broker(host: "0.0.0.0", port: 0))
    }

    func testChatNeedsURLAndNameAndDefaultsTheRoom() throws {
        XCTAssertEqual(
            try Command(arguments: ["chat", "--url", "ws://h/socketcluster/", "--name", "ann"]),
            .chat(url: "ws://h/socketcluster/", name: "ann", room: "lobby", timeout: 10))
        XCTAssertEqual(
            try Command(arguments: ["chat", "--url=ws://h/", "--name=ann", "--room", "dev", "--timeout", "2"]),
            .chat(url: "ws://h/", name: "ann", room: "dev", timeout: 2))
        XCTAssertEqual(
            try Command(arguments: ["chat", "--url=ws://h/", "--name=ann", "--proxy", "http://u:p@proxy:3128"]),
            .chat(
                url: "ws://h/", name: "ann", room: "lobby", timeout: 10,
                proxy: HTTPProxy(host: "proxy", port: 3128, username: "u", password: "p")))
        XCTAssertThrowsError(try Command(arguments: ["chat", "--url=ws://h/", "--name=ann", "--proxy", "socks5://h:1"]))
        XCTAssertThrowsError(try Command(arguments: ["chat", "--name", "ann"])) { error in
            XCTAssertEqual("\(error)", "demo chat needs --url")
        }
        XCTAssertThrowsError(try Command(arguments: ["chat", "--url", "ws://h/"])) { error in
            XCTAssertEqual("\(error)", "demo chat needs --name")
        }
    }

    func testChatAnswersBothPingProtocolsUnlessOneIsChosen() throws {
        let chat = { (protocolArguments: [String]) throws -> Command in
            try Command(arguments: ["chat", "--url=ws://h/", "--name=ann"] + protocolArguments)
        }
        XCTAssertEqual(try chat([]), .chat(url: "ws://h/", name: "ann", room: "lobby", timeout: 10, pingProtocol: .automatic))
        XCTAssertEqual(try chat(["--protocol", "1"]), .chat(url: "ws://h/", name: "ann", room: "lobby", timeout: 10, pingProtocol: .v1))
        XCTAssertEqual(try chat(["--protocol=2"]), .chat(url: "ws://h/", name: "ann", room: "lobby", timeout: 10, pingProtocol: .v2))
        XCTAssertEqual(try chat(["--protocol", "auto"]), .chat(url: "ws://h/", name: "ann", room: "lobby", timeout: 10))
        XCTAssertThrowsError(try chat(["--protocol", "3"])) { error in
            XCTAssertEqual("\(error)", "--protocol must be 1, 2 or auto, not 3")
        }
        XCTAssertThrowsError(try chat(["--protocol"])) { error in
            XCTAssertEqual("\(error)", "--protocol needs a value")
        }
        XCTAssertTrue(Command.usage.contains("[--protocol 1|2|auto]"))
    }

    func testChatAndBrokerTakeACodec() throws {
        XCTAssertEqual(
            try Command(arguments: ["chat", "--url=ws://h/", "--name=ann", "--codec", "min-bin"]),
            .chat(url: "ws://h/", name: "ann", room: "lobby", timeout: 10, codec: .minBin))
        XCTAssertEqual(
            try Command(arguments: ["chat", "--url=ws://h/", "--name=ann", "--codec=json"]),
            .chat(url: "ws://h/", name: "ann", room: "lobby", timeout: 10, codec: .json))
        XCTAssertEqual(try Command(arguments: ["broker", "--codec=min-bin"]), .broker(host: "127.0.0.1", port: 8000, codec: .minBin))
        XCTAssertEqual(try Command(arguments: ["broker"]), .broker(host: "127.0.0.1", port: 8000, codec: .json))
        XCTAssertThrowsError(try Command(arguments: ["broker", "--codec", "msgpack"])) { error in
            XCTAssertEqual("\(error)", "--codec must be json or min-bin, not msgpack")
        }
        XCTAssertThrowsError(try Command(arguments: ["chat", "--url=ws://h/", "--name=ann", "--codec"])) { error in
            XCTAssertEqual("\(error)", "--codec needs a value")
        }
        XCTAssertTrue(Command.usage.contains("demo broker [--host HOST] [--port N] [--codec json|min-bin]"))
        XCTAssertTrue(Command.usage.contains("[--protocol 1|2|auto] [--codec json|min-bin]"))
    }

    func testBadOptionsAreUsageErrors() {
        XCTAssertThrowsError(try Command(arguments: ["broker", "--port", "70000"]))
        XCTAssertThrowsError(try Command(arguments: ["broker", "--port"]))
        XCTAssertThrowsError(try Command(arguments: ["broker", "--colour", "red"])) { error in
            XCTAssertEqual("\(error)", "unknown option --colour for broker")
        }
        XCTAssertThrowsError(try Command(arguments: ["broker", "8000"]))
        XCTAssertThrowsError(try Command(arguments: ["chat", "--url", "ws://h/", "--name", "ann", "--timeout", "0"]))
    }
}
