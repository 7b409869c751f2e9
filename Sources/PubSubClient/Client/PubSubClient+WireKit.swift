import Dispatch
import WireKit

extension PubSubClient {
    /// A client for `configuration`, keeping its auth token in `tokenStore`. `webSocketOptions`
    /// tunes the WireKit connection (limits, TLS transport); headers and the connect timeout
    /// come from `configuration`. Does not connect until `connect()` or the first call that
    /// needs a connection.
    public convenience init(
        configuration: SessionConfiguration, tokenStore: any TokenStore = InMemoryTokenStore(),
        webSocketOptions: WebSocketOptions = WebSocketOptions()
    ) {
        self.init(
            configuration: configuration, tokenStore: tokenStore,
            transportFactory: WireKitTransportFactory(options: webSocketOptions.inheritingLogSink(of: configuration)))
    }

    /// A client for a `ws://` or `wss://` URL with default options.
    public convenience init(url: String, tokenStore: any TokenStore = InMemoryTokenStore()) throws(PubSubError) {
        self.init(configuration: SessionConfiguration(address: try ServerAddress(url: url)), tokenStore: tokenStore)
    }

    /// A client for a `ws://` or `wss://` URL whose packets `codec` writes and reads
    /// (`MinBinPacketCodec` for a server with `sc-codec-min-bin`).
    public convenience init(url: String, codec: any PacketCodec, tokenStore: any TokenStore = InMemoryTokenStore()) throws(PubSubError) {
        var configuration = SessionConfiguration(address: try ServerAddress(url: url))
        configuration.codec = codec
        self.init(configuration: configuration, tokenStore: tokenStore)
    }

    /// A client for a URL whose handshakes send `authToken` (stored in `tokenStore`, as with
    /// `setAuthToken(_:)`; nil leaves the store as it is).
    public convenience init(url: String, authToken: String?, tokenStore: any TokenStore = InMemoryTokenStore()) throws(PubSubError) {
        try self.init(url: url, tokenStore: tokenStore)
        if let authToken { setAuthToken(authToken) }
    }
}

extension ScClient {
    /// A closure-API client for `configuration`; callbacks run on `callbackQueue`.
    public convenience init(
        configuration: SessionConfiguration, tokenStore: any TokenStore = InMemoryTokenStore(),
        callbackQueue: DispatchQueue = .main, webSocketOptions: WebSocketOptions = WebSocketOptions()
    ) {
        self.init(
            configuration: configuration, tokenStore: tokenStore, callbackQueue: callbackQueue,
            transportFactory: WireKitTransportFactory(options: webSocketOptions.inheritingLogSink(of: configuration)))
    }

    /// A closure-API client for a `ws://` or `wss://` URL whose packets `codec` writes and reads
    /// (`MinBinPacketCodec` for a server with `sc-codec-min-bin`); callbacks run on `callbackQueue`.
    public convenience init(
        url: String, codec: any PacketCodec, tokenStore: any TokenStore = InMemoryTokenStore(),
        callbackQueue: DispatchQueue = .main
    ) throws(PubSubError) {
        var configuration = SessionConfiguration(address: try ServerAddress(url: url))
        configuration.codec = codec
        self.init(configuration: configuration, tokenStore: tokenStore, callbackQueue: callbackQueue)
    }

    /// A closure-API client for a `ws://` or `wss://` URL; callbacks run on `callbackQueue`.
    public convenience init(
        url: String, tokenStore: any TokenStore = InMemoryTokenStore(),
        callbackQueue: DispatchQueue = .main
    ) throws(PubSubError) {
        self.init(
            configuration: SessionConfiguration(address: try ServerAddress(url: url)), tokenStore: tokenStore,
            callbackQueue: callbackQueue)
    }

    /// socketcluster-client-swift's `ScClient(url:authToken:)`: handshakes send `authToken`
    /// (stored in `tokenStore`, as with `setAuthToken(token:)`; nil leaves the store as it is).
    public convenience init(
        url: String, authToken: String?, tokenStore: any TokenStore = InMemoryTokenStore(),
        callbackQueue: DispatchQueue = .main
    ) throws(PubSubError) {
        try self.init(url: url, tokenStore: tokenStore, callbackQueue: callbackQueue)
        if let authToken { setAuthToken(token: authToken) }
    }
}

extension WebSocketOptions {
    /// These options with the session's log sink when they have none of their own, so one
    /// `SessionConfiguration.logSink` covers the session and its WebSocket connections.
    func inheritingLogSink(of configuration: SessionConfiguration) -> WebSocketOptions {
        guard !logSink.isOn else { return self }
        var options = self
        options.logSink = configuration.logSink
        return options
    }
}
