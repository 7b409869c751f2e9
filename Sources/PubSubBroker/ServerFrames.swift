/// The text of every frame the broker writes, with the key order socketcluster-server emits
/// (`event, data` / `event, cid, data` / `rid, data` / `rid, error`), so transcripts compare byte
/// for byte with the real server's.
enum ServerFrames {
    /// `{"rid":N}` or `{"rid":N,"data":…}`: a successful answer (`data` omitted when absent).
    static func response(rid: Int64, data: JSONValue?) -> String {
        guard let data else { return "{\"rid\":\(rid)}" }
        return "{\"rid\":\(rid),\"data\":\(data.serialized())}"
    }

    /// `{"rid":N,"error":{…}}`: a failed answer.
    static func errorResponse(rid: Int64, error: BrokerErrorPayload) -> String {
        "{\"rid\":\(rid),\"error\":\(error.serialized())}"
    }

    /// `{"event":E}` or `{"event":E,"data":…}`: a transmit.
    static func transmit(event: String, data: JSONValue?) -> String {
        let name = JSONValue.string(event).serialized()
        guard let data else { return "{\"event\":\(name)}" }
        return "{\"event\":\(name),\"data\":\(data.serialized())}"
    }

    /// `{"event":E,"cid":N,"data":…}`: a server invoke (the server writes `cid` before `data`).
    static func invoke(event: String, cid: Int64, data: JSONValue?) -> String {
        let name = JSONValue.string(event).serialized()
        guard let data else { return "{\"event\":\(name),\"cid\":\(cid)}" }
        return "{\"event\":\(name),\"cid\":\(cid),\"data\":\(data.serialized())}"
    }

    /// `{"event":"#publish","data":{"channel":C,"data":…}}`.
    static func publish(channel: String, data: JSONValue?) -> String {
        let name = JSONValue.string(channel).serialized()
        guard let data else { return "{\"event\":\"#publish\",\"data\":{\"channel\":\(name)}}" }
        return "{\"event\":\"#publish\",\"data\":{\"channel\":\(name),\"data\":\(data.serialized())}}"
    }

    /// `{"event":"#kickOut","data":{"channel":C[,"message":M]}}`.
    static func kickOut(channel: String, message: String?) -> String {
        let name = JSONValue.string(channel).serialized()
        guard let message else { return "{\"event\":\"#kickOut\",\"data\":{\"channel\":\(name)}}" }
        return "{\"event\":\"#kickOut\",\"data\":{\"channel\":\(name),\"message\":\(JSONValue.string(message).serialized())}}"
    }

    /// The `#handshake` answer: `{id, pingTimeout[, authError], isAuthenticated}` in that order.
    static func handshakeResponse(
        rid: Int64, socketID: String, pingTimeout: Int64, authError: BrokerErrorPayload?, isAuthenticated: Bool
    ) -> String {
        var data = "{\"id\":\(JSONValue.string(socketID).serialized()),\"pingTimeout\":\(pingTimeout)"
        if let authError { data += ",\"authError\":\(authError.serialized())" }
        data += ",\"isAuthenticated\":\(isAuthenticated)}"
        return "{\"rid\":\(rid),\"data\":\(data)}"
    }

    /// The `#authenticate` answer when no bad-token error occurred: `{isAuthenticated, authError}`.
    static func authenticateResponse(rid: Int64, isAuthenticated: Bool, authError: BrokerErrorPayload?) -> String {
        let error = authError?.serialized() ?? "null"
        return "{\"rid\":\(rid),\"data\":{\"isAuthenticated\":\(isAuthenticated),\"authError\":\(error)}}"
    }

    /// A batch: the packets' texts as one JSON array.
    static func batch(_ packets: [String]) -> String {
        "[" + packets.joined(separator: ",") + "]"
    }
}
