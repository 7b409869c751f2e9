@_spi(Cores) import MonotonicTime

extension ClientSession {
    /// One text frame that is not a ping of our protocol version (Protocol.md §2, §3).
    mutating func receiveFrame(_ text: String, now: MonotonicInstant) {
        // No value limit here, so parsing cannot fail; `nil` is a frame without packets: text that
        // is not JSON, or a ping of the other protocol version, or a pong: not ours to answer
        // (Protocol.md §3).
        guard let packets = (try? InboundPacket.parseFrame(text)) ?? nil else {
            emit(.raw(.text(text)))
            return
        }
        receivePackets(packets, now: now)
    }

    /// The packets of one frame, in order.
    mutating func receivePackets(_ packets: [InboundPacket], now: MonotonicInstant) {
        for inbound in packets {
            // A packet may close the connection (handshake rejection); the rest of the
            // batch belongs to a connection that no longer exists.
            guard connection.isTransportOpen else { return }
            if let invoke = inbound.invokeWithCallIDText {
                // A cid that is a number but no `Int64` (`1.5`, `1e30`): answered all the same.
                handleInvoke(event: invoke.event, data: invoke.data, cid: 0, cidText: invoke.callIDText, now: now)
            } else if case .invoke(let event, let data, let cid) = inbound.packet, let cidText = inbound.callIDText {
                handleInvoke(event: event, data: data, cid: cid, cidText: cidText, now: now)
            } else {
                receive(inbound.packet, now: now)
            }
        }
    }

    mutating func receive(_ packet: Packet, now: MonotonicInstant) {
        switch packet {
        case .response(let rid, let result):
            guard let call = acks.resolve(rid: rid) else { return handleLateAuthenticateAnswer(rid: rid, result: result) }
            handleResponse(to: call, result: result, now: now)
        case .transmit(let event, let data):
            handleTransmit(event: event, data: data, now: now)
        case .invoke(let event, let data, let cid):
            handleInvoke(event: event, data: data, cid: cid, now: now)
        case .raw(let value):
            emit(.raw(.json(value)))
        }
    }

    mutating func handleResponse(to call: PendingCall, result: Result<JSONValue?, RemoteError>, now: MonotonicInstant) {
        switch call.purpose {
        case .handshake:
            handleHandshakeResponse(result, now: now)
        case .user(let id):
            complete(id, result.mapError { PubSubError.remote($0) })
        case .subscribe(let channel):
            handleSubscribeResponse(channel: channel, cid: call.cid, result: result)
        case .authenticate(let id, let token):
            handleAuthenticateResponse(call: id, token: token, result: result)
        }
    }

    mutating func handleHandshakeResponse(_ result: Result<JSONValue?, RemoteError>, now: MonotonicInstant) {
        switch result {
        case .failure(let error):
            let code = error.fields["statusCode"]?.intValue.flatMap { UInt16(exactly: $0) } ?? SocketClusterCloseCode.handshakeFailed.rawValue
            rejectHandshake(
                .handshakeRejected(error, code: code), code: code,
                reason: "\(error.name): \(error.message)", now: now)
        case .success(let data):
            let response: HandshakeResponse
            do throws(MalformedResponseError) {
                response = try HandshakeResponse(parsing: data)
            } catch {
                rejectHandshake(
                    .invalidResponse(event: BuiltInEvent.handshake, detail: error.message),
                    code: SocketClusterCloseCode.handshakeFailed.rawValue,
                    reason: "InvalidResponseError: \(error.message)", now: now)
                return
            }
            let info = HandshakeInfo(response)
            guard case .connecting(var link) = connection else { return }
            let connectCalls = link.connectCalls
            link.connectCalls = []
            ping.start(timeout: response.pingTimeout, now: now)
            transition(to: .open(link, info))
            if info.isAuthenticated, link.deauthenticateAfterHandshake {
                // Before anything else the queue holds, which was made after the deauthenticate.
                send(.transmit(event: BuiltInEvent.removeAuthToken, data: nil))
            }
            if info.isAuthenticated, let token = link.handshakeToken {
                becomeAuthenticated(signedToken: token, byHandshake: true)
            } else {
                becomeUnauthenticated(byHandshake: true)
            }
            connectAttempts = 0
            processPendingSubscriptions()
            for call in connectCalls { completeConnect(call, .success(info)) }
            emit(.connected(info))
            flushOutbound(now: now)
        }
    }

    mutating func handleTransmit(event: String, data: JSONValue?, now: MonotonicInstant) {
        switch event {
        case BuiltInEvent.publish:
            guard case .object(let payload)? = data, case .string(let channel)? = payload.packetMember("channel") else {
                emit(.error(.malformedPacket(detail: "#publish without a string channel")))
                return
            }
            let name = undecorate(channel)
            if channels.state(of: name) != .unsubscribed {
                emit(.publication(.init(channel: name, data: payload.packetMember("data"))))
            }
        case BuiltInEvent.kickOut:
            guard let channel = data?["channel"]?.stringValue else {
                emit(.error(.malformedPacket(detail: "#kickOut without a string channel")))
                return
            }
            kickOut(channel: undecorate(channel), message: data?["message"]?.stringValue)
        case BuiltInEvent.setAuthToken:
            guard let token = data?["token"]?.stringValue else {
                emit(.error(.malformedPacket(detail: "No token data provided by #setAuthToken event")))
                return
            }
            acceptServerToken(token)
        case BuiltInEvent.removeAuthToken:
            removeTokenOnServerRequest()
        default:
            emit(.message(.init(event: event, data: data)))
        }
    }

    /// A server invoke; `cidText` is its cid's wire text when that is not the decimal `cid`
    /// (the answer's `rid` is then that text, so it is the number the server sent).
    mutating func handleInvoke(event: String, data: JSONValue?, cid: Int64, cidText: String? = nil, now: MonotonicInstant) {
        switch event {
        case BuiltInEvent.setAuthToken:
            if let token = data?["token"]?.stringValue {
                acceptServerToken(token)
                sendResponse(cid: cid, cidText: cidText, result: .success(nil))
            } else {
                let error = RemoteError(
                    name: "InvalidMessageError",
                    message: "No token data provided by #setAuthToken event")
                sendResponse(cid: cid, cidText: cidText, result: .failure(error))
            }
        case BuiltInEvent.removeAuthToken:
            removeTokenOnServerRequest()
            sendResponse(cid: cid, cidText: cidText, result: .success(nil))
        default:
            guard let transport = connection.transportID else { return }
            let request = ServerRequestID(connection: transport.rawValue, cid: cid, cidText: cidText)
            updateLink { $0.openRequests.insert(request) }
            emit(.request(.init(event: event, data: data, id: request)))
        }
    }

    /// Sends the answer to server invoke `cid`, with `cidText` as its `rid` when set.
    private mutating func sendResponse(cid: Int64, cidText: String?, result: Result<JSONValue?, RemoteError>) {
        guard let cidText else {
            send(.response(rid: cid, result: result))
            return
        }
        let bytes = Packet.serializedResponse(ridText: cidText, result: result)
        if batch != nil {
            batch?.packets.append(bytes)
        } else {
            sendMessage(bytes)
        }
    }

    /// Answers a server invoke, exactly once: a second answer throws `alreadyResponded`, an
    /// answer after its connection ended throws `requestExpired`.
    package mutating func respond(
        to request: ServerRequestID, with result: Result<JSONValue?, RemoteError>,
        now: MonotonicInstant
    ) throws(PubSubError) {
        guard let link = connection.link, link.transport.rawValue == request.connection, link.isOpen else {
            throw .requestExpired(request)
        }
        guard link.openRequests.contains(request) else { throw .alreadyResponded(request) }
        updateLink { $0.openRequests.remove(request) }
        sendResponse(cid: request.cid, cidText: request.cidText, result: result)
    }

    /// Whether the server request is still waiting for its answer.
    package func isAwaitingResponse(_ request: ServerRequestID) -> Bool {
        guard let link = connection.link else { return false }
        return link.transport.rawValue == request.connection && link.openRequests.contains(request)
    }
}
