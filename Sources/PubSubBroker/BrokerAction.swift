import Foundation

/// What the sans-I/O `BrokerCore` asks its runtime to do after an input (drained with
/// `BrokerCore.nextAction()`).
package enum BrokerAction: Sendable {
    /// Write one text frame on the connection: its UTF-8, as the serializer made it.
    case send(BrokerConnectionID, [UInt8])
    /// Write one binary frame on the connection: a binary codec's packet or batch.
    case sendBinary(BrokerConnectionID, [UInt8])
    /// Close the connection with a WebSocket close frame (the session is already gone).
    case close(BrokerConnectionID, code: UInt16, reason: String)
    /// Ask the application's hook, then report with `authorizationDecided`; the connection's
    /// remaining inbound packets wait until then.
    case authorize(BrokerConnectionID, BrokerAuthorizationRequest)
    /// Run the application's procedure for a client invoke; answer through `respond`.
    case callProcedure(BrokerInboundCall)
    /// Hand a client transmit to the application's receiver.
    case deliverMessage(BrokerInboundMessage)
    /// A server invoke (`BrokerCore.invoke`) finished.
    case completeInvoke(token: UInt64, result: Result<JSONValue?, BrokerInvokeFailure>)
    /// A `#subscribe` was refused because the socket holds `socketChannelLimit` channels (the
    /// error answer is queued as a `send`); for the runtime's log.
    case channelLimitReached(BrokerConnectionID, channel: String, limit: Int)
    /// A `#subscribe` or `#publish` named a channel longer than `maxChannelNameLength` (the error
    /// answer, if any, is queued as a `send`); for the runtime's log.
    case channelNameTooLong(BrokerConnectionID, length: Int, limit: Int)
    /// A `#subscribe` was refused because the socket's channel names would exceed
    /// `maxSubscriptionBytes`; for the runtime's log.
    case subscriptionBytesLimitReached(BrokerConnectionID, limit: Int)
    /// A socket completed its first handshake.
    case socketConnected(BrokerConnectionID, BrokerSocketInfo)
    /// A socket that had completed its handshake closed.
    case socketDisconnected(BrokerConnectionID, BrokerSocketInfo, code: UInt16, reason: String)
}

/// A client invoke waiting for the application's answer.
package struct BrokerInboundCall: Sendable {
    package var connection: BrokerConnectionID
    package var socket: BrokerSocketInfo
    package var procedure: String
    package var data: JSONValue?
    package var cid: BrokerCallID
}

/// A client transmit for the application.
package struct BrokerInboundMessage: Sendable {
    package var connection: BrokerConnectionID
    package var socket: BrokerSocketInfo
    package var receiver: String
    package var data: JSONValue?
}

/// Why a server invoke did not get an answer.
package enum BrokerInvokeFailure: Error, Sendable, Equatable {
    /// The client answered with an error.
    case remote(RemoteError)
    /// No answer within the ack timeout.
    case timedOut
    /// The connection closed (or was not open) before the answer arrived.
    case connectionClosed
}
