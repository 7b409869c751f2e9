import PubSubClient

/// What the command line asks for: `demo`, `demo broker ...` or `demo chat ...`.
enum Command: Equatable {
    /// The printed story with an embedded broker and two users; `trace` adds every frame.
    case story(trace: Bool)
    /// An embedded broker in the foreground until Ctrl-C, speaking `codec` (`--codec`), with
    /// permessage-deflate for clients that offer it when `deflate` (`--deflate`).
    case broker(host: String, port: Int, codec: CodecChoice = .json, deflate: Bool = false)
    /// An interactive chat against a SocketCluster server; `pingProtocol` is which server pings it
    /// answers (`--protocol`), `codec` the server's packet codec (`--codec`).
    case chat(
        url: String, name: String, room: String, timeout: Int, proxy: HTTPProxy? = nil,
        pingProtocol: PingProtocolVersion = .automatic, codec: CodecChoice = .json)
    /// The usage text.
    case help

    static let usage = """
        usage: demo [--trace]                         the story: an embedded broker and two chat users
                                                      (--trace also prints every frame sent and received)
               demo broker [--host HOST] [--port N] [--codec json|min-bin] [--deflate]
                                                      a broker in the foreground until Ctrl-C (port 0 = any free port),
                                                      with the web chat at http://HOST:N/ (JSON codec) and
                                                      /health-check; --deflate accepts permessage-deflate
               demo chat --url URL --name NAME [--room ROOM] [--timeout SECONDS] [--proxy URL]
                         [--protocol 1|2|auto] [--codec json|min-bin]
                                                      an interactive chat (room "lobby", connect and answer
                                                      timeout 10 s by default); /quit leaves; --proxy
                                                      http://[user:pass@]host:port tunnels through an HTTP proxy;
                                                      --protocol answers only the pings of the server's
                                                      protocolVersion 1 (#1) or 2 (empty frame); default
                                                      auto answers both, so any server version works
               --codec                                the packet codec: json (default) or min-bin, for servers
                                                      with codecEngine: require('sc-codec-min-bin'); both
                                                      ends must use the same one
               demo -h | --help                       this text
        exit status: 0 success, 1 failure (the story went wrong, the broker could not listen, the chat
                     could not connect or was disconnected), 2 usage error
        """

    /// The line printed after a usage error.
    static let hint = "Run 'demo --help' for usage."

    /// Parses the arguments after the program name. Options take their value as the next
    /// argument or after `=` (`--port 8000`, `--port=8000`); flags (`--trace`) take none.
    init(arguments: [String]) throws(UsageError) {
        if arguments.contains(where: { $0 == "-h" || $0 == "--help" }) || arguments == ["help"] {
            self = .help
            return
        }
        var arguments = arguments
        if arguments.first.map({ $0.hasPrefix("-") }) ?? true {
            arguments.insert("story", at: 0)
        }
        let first = arguments[0]
        guard let known = Self.optionsTaken[first] else { throw UsageError("unknown command \(first.escapedForDisplay)") }
        var options = try Self.options(Array(arguments.dropFirst()), command: first, known: known)
        switch first {
        case "broker":
            let host = options.removeValue(forKey: "host") ?? "127.0.0.1"
            let portText = options.removeValue(forKey: "port") ?? "8000"
            guard let port = Int(portText), (0...65_535).contains(port) else {
                throw UsageError("--port must be a number from 0 to 65535, not \(portText.escapedForDisplay)")
            }
            let codec = try options.removeValue(forKey: "codec").map(CodecChoice.init(option:)) ?? .json
            let deflate = options.removeValue(forKey: "deflate") != nil
            self = .broker(host: host, port: port, codec: codec, deflate: deflate)
        case "chat":
            guard let url = options.removeValue(forKey: "url") else { throw UsageError("demo chat needs --url") }
            guard let name = options.removeValue(forKey: "name"), !name.isEmpty else {
                throw UsageError("demo chat needs --name")
            }
            let room = options.removeValue(forKey: "room") ?? "lobby"
            let timeoutText = options.removeValue(forKey: "timeout") ?? "10"
            guard let timeout = Int(timeoutText), (1...3_600).contains(timeout) else {
                throw UsageError("--timeout must be a number of seconds from 1 to 3600, not \(timeoutText.escapedForDisplay)")
            }
            var proxy: HTTPProxy?
            if let proxyText = options.removeValue(forKey: "proxy") {
                do {
                    proxy = try HTTPProxy(url: proxyText)
                } catch {
                    throw UsageError("--proxy: \(error)")
                }
            }
            let protocolText = options.removeValue(forKey: "protocol") ?? "auto"
            let pingProtocol: PingProtocolVersion
            switch protocolText {
            case "1": pingProtocol = .v1
            case "2": pingProtocol = .v2
            case "auto": pingProtocol = .automatic
            default: throw UsageError("--protocol must be 1, 2 or auto, not \(protocolText.escapedForDisplay)")
            }
            let codec = try options.removeValue(forKey: "codec").map(CodecChoice.init(option:)) ?? .json
            self = .chat(url: url, name: name, room: room, timeout: timeout, proxy: proxy, pingProtocol: pingProtocol, codec: codec)
        default:
            self = .story(trace: options.removeValue(forKey: "trace") != nil)
        }
    }

    /// The options each command takes, and whether each takes a value.
    private static let optionsTaken: [String: [String: Bool]] = [
        "story": ["trace": false],
        "broker": ["host": true, "port": true, "codec": true, "deflate": false],
        "chat": ["url": true, "name": true, "room": true, "timeout": true, "proxy": true, "protocol": true, "codec": true],
    ]

    private static func options(
        _ arguments: [String], command: String, known: [String: Bool]
    ) throws(UsageError) -> [String: String] {
        var options: [String: String] = [:]
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            guard argument.hasPrefix("--"), argument.count > 2 else {
                throw UsageError("unexpected argument \(argument.escapedForDisplay) for \(command)")
            }
            let body = argument.dropFirst(2)
            let name = String(body.prefix { $0 != "=" })
            guard let takesValue = known[name] else { throw UsageError("unknown option --\(name.escapedForDisplay) for \(command)") }
            if !takesValue {
                guard name.count == body.count else { throw UsageError("--\(name.escapedForDisplay) takes no value") }
                options[name] = ""
            } else if name.count < body.count {
                options[name] = String(body.dropFirst(name.count + 1))
            } else if index + 1 < arguments.count {
                options[name] = arguments[index + 1]
                index += 1
            } else {
                throw UsageError("\(argument.escapedForDisplay) needs a value")
            }
            index += 1
        }
        return options
    }
}

/// A command line the demo does not understand.
struct UsageError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
