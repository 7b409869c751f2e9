/// Standard close-code texts the JS client fills in when a close carries no reason (spec §9.2).
enum CloseCodeText {
    static func standard(_ code: UInt16) -> String? {
        switch code {
        case 1001: return "Socket was disconnected"
        case 1002: return "A WebSocket protocol error was encountered"
        case 1003: return "Server terminated socket because it received invalid data"
        case 1005: return "Socket closed without status code"
        case 1006: return "Socket hung up"
        case 1007: return "Message format was incorrect"
        case 1008: return "Encountered a policy violation"
        case 1009: return "Message was too big to process"
        case 1010: return "Client ended the connection because the server did not comply with extension requirements"
        case 1011: return "Server encountered an unexpected fatal condition"
        case 4000: return "Server ping timed out"
        case 4001: return "Client pong timed out"
        case 4002: return "Server failed to sign auth token"
        case 4003: return "Failed to complete handshake"
        case 4004: return "Client failed to save auth token"
        case 4005: return "Did not receive #handshake from client before timeout"
        case 4006: return "Failed to bind socket to message broker"
        case 4007: return "Client connection establishment timed out"
        case 4008: return "Server rejected handshake from client"
        case 4009: return "Server received a message before the client handshake"
        default: return nil
        }
    }
}
