import PubSubClient
import WireKit

/// URL parsing: `WebSocketURL` (what a WebSocket connects to) and `ServerAddress(url:)` (the
/// SocketCluster client's address).
///
/// Input: all bytes are the URL text. Checks: a parsed `WebSocketURL` has a host, a port in
/// 1...65535 and a resource name starting with `/`, and its description parses back to the same
/// URL; a `ServerAddress` keeps the URL verbatim, has a `host:port` token key and parses again
/// from its own URL to the same address.
enum URLFuzzer {
    static let name = "url"

    static func run(_ raw: UnsafeRawBufferPointer) throws(FuzzFinding) {
        let text = String(decoding: raw, as: UTF8.self)
        if let url = try? WebSocketURL(text) {
            try require(!url.host.isEmpty, name, "\(text.debugDescription): empty host")
            try require((1...65535).contains(url.port), name, "\(text.debugDescription): port \(url.port)")
            try require(url.resourceName.hasPrefix("/"), name, "\(text.debugDescription): resource name \(url.resourceName.debugDescription)")
            do {
                let again = try WebSocketURL(url.description)
                try require(again == url, name, "\(text.debugDescription) → \(url.description.debugDescription) parses as \(again)")
            } catch let error as FuzzFinding {
                throw error
            } catch {
                throw FuzzFinding(name, "\(text.debugDescription) → \(url.description.debugDescription) does not parse: \(error)")
            }
        }
        if let address = try? ServerAddress(url: text) {
            try require(address.url == text, name, "\(text.debugDescription): url not kept verbatim")
            try require(!address.tokenKeyHost.isEmpty, name, "\(text.debugDescription): empty token key host")
            let again = try? ServerAddress(url: address.url)
            try require(again == address, name, "\(text.debugDescription) parses differently the second time")
        }
    }
}
