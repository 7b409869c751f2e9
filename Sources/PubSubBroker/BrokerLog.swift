import WireKit

/// What the broker logs (subsystem `broker`): connections opened, sockets connected and
/// disconnected, sockets the broker closed and why, and the limits hit. Called by `BrokerEngine`
/// and the listener from lifecycle paths only, nothing per message; the socket id is an
/// autoclosure, looked up only when the record is written.
///
/// Metadata: `connection` is the broker's number for the connection, `socket` the SocketCluster
/// socket id; the `connection opened` record links the former to WireKit's `websocket` number.
/// The client's text (a close reason, a channel name) is escaped with `escapedForDisplay` as the
/// record is built, so any sink can print it as it is.
struct BrokerLog: Sendable {
    let sink: LogSink
    /// `BrokerOptions.maxOutboundBufferedBytes`, for the slow-consumer record.
    let maxOutboundBufferedBytes: Int

    init(options: BrokerOptions) {
        sink = options.logSink
        maxOutboundBufferedBytes = options.maxOutboundBufferedBytes
    }

    private func metadata(_ connection: BrokerConnectionID, socket: String?, _ extra: [String: String] = [:]) -> [String: String] {
        var metadata = extra
        metadata["connection"] = String(connection.rawValue)
        if let socket { metadata["socket"] = socket }
        return metadata
    }

    /// A WebSocket connection was upgraded and handed to the broker; `webSocket` is the number
    /// WireKit's records for it carry as `connection`.
    func opened(_ connection: BrokerConnectionID, webSocket: UInt64) {
        sink.log(.debug, .broker, "connection opened", metadata: metadata(connection, socket: nil, ["websocket": String(webSocket)]))
    }

    /// A socket completed its first handshake.
    func connected(_ connection: BrokerConnectionID, socket: String) {
        sink.log(.info, .broker, "socket connected", metadata: metadata(connection, socket: socket))
    }

    /// A socket that had completed its handshake closed.
    func disconnected(_ connection: BrokerConnectionID, socket: String, code: UInt16, reason: String) {
        sink.log(
            .info, .broker, "socket disconnected",
            metadata: metadata(connection, socket: socket, ["code": String(code), "reason": reason.escapedForDisplay]))
    }

    /// The broker closes a connection (handshake or ping timeout, a rejected handshake, a protocol
    /// violation, the application's `disconnect`): debug for 1000, notice otherwise.
    func closing(_ connection: BrokerConnectionID, socket: @autoclosure () -> String?, code: UInt16, reason: String) {
        sink.log(
            code == 1000 ? .debug : .notice, .broker, "closing connection",
            metadata: metadata(connection, socket: socket(), ["code": String(code), "reason": reason.escapedForDisplay]))
    }

    /// A connection had `bufferedBytes` waiting to be written, more than
    /// `maxOutboundBufferedBytes`, and was closed.
    func slowConsumer(_ connection: BrokerConnectionID, socket: @autoclosure () -> String?, bufferedBytes: Int) {
        sink.log(
            .notice, .broker, "slow consumer closed",
            metadata: metadata(
                connection, socket: socket(),
                [
                    "code": String(BrokerOptions.slowConsumerCloseCode.rawValue), "buffered": String(bufferedBytes),
                    "limit": String(maxOutboundBufferedBytes),
                ]))
    }

    /// A `#subscribe` was refused at the channel limit.
    func channelLimitReached(_ connection: BrokerConnectionID, socket: @autoclosure () -> String?, channel: String, limit: Int) {
        sink.log(
            .notice, .broker, "channel limit reached",
            metadata: metadata(connection, socket: socket(), ["channel": channel.escapedForDisplay, "limit": String(limit)]))
    }

    /// A `#subscribe` or `#publish` named a channel of `length` bytes, over `maxChannelNameLength`
    /// (the name itself is not logged).
    func channelNameTooLong(_ connection: BrokerConnectionID, socket: @autoclosure () -> String?, length: Int, limit: Int) {
        sink.log(
            .notice, .broker, "channel name too long",
            metadata: metadata(connection, socket: socket(), ["length": String(length), "limit": String(limit)]))
    }

    /// A `#subscribe` was refused at the socket's `maxSubscriptionBytes` budget.
    func subscriptionBytesLimitReached(_ connection: BrokerConnectionID, socket: @autoclosure () -> String?, limit: Int) {
        sink.log(
            .notice, .broker, "subscription bytes limit reached",
            metadata: metadata(connection, socket: socket(), ["limit": String(limit)]))
    }

    /// An upgraded connection (WireKit's number `webSocket`) was closed at once: `limit`
    /// connections were open.
    func maxConnectionsReached(limit: Int, webSocket: UInt64) {
        sink.log(
            .notice, .broker, "max connections reached",
            metadata: [
                "code": String(BrokerOptions.tooManyConnectionsCloseCode.rawValue), "limit": String(limit),
                "websocket": String(webSocket),
            ])
    }
}
