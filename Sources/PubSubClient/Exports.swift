// One import gives users the wire model too (JSONValue, RemoteError, JWT).
@_exported import PubSubProtocol
