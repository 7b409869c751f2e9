@_spi(Cores) import MonotonicTime

extension ClientSession {
    /// Sends an event with no reply expected (no `cid`; `data` omitted when nil). While not
    /// open it is queued (a closed client starts connecting) and dropped with an error event
    /// if it cannot be sent within `ackTimeout`. Throws `outboundQueueFull` if it cannot be queued.
    package mutating func transmit(
        _ event: String, data: JSONValue?, ackTimeout: Duration? = nil,
        now: MonotonicInstant
    ) throws(PubSubError) {
        try transmit(event, payload: .value(data), ackTimeout: ackTimeout, now: now)
    }

    /// `transmit` of an `OutboundPayload`.
    mutating func transmit(
        _ event: String, payload: OutboundPayload, ackTimeout: Duration? = nil, now: MonotonicInstant
    ) throws(PubSubError) {
        let timeout = ackTimeout ?? configuration.ackTimeout
        try submit(.transmit(event: event, data: payload), deadline: now + timeout, now: now)
    }

    /// Calls a server procedure. The returned call completes exactly once: with the server's
    /// data, its error (`.remote`), `.timeout` after `ackTimeout` (counted from now, queue time
    /// included) or `.badConnection` if the connection ends first.
    package mutating func invoke(
        _ event: String, data: JSONValue?, ackTimeout: Duration? = nil,
        now: MonotonicInstant
    ) -> CallID {
        invoke(event, payload: .value(data), ackTimeout: ackTimeout, now: now)
    }

    /// `invoke` of an `OutboundPayload`.
    mutating func invoke(_ event: String, payload: OutboundPayload, ackTimeout: Duration? = nil, now: MonotonicInstant) -> CallID {
        let call = makeCallID()
        let timeout = ackTimeout ?? configuration.ackTimeout
        do {
            try submit(.invoke(event: event, data: payload, purpose: .user(call)), deadline: now + timeout, now: now)
        } catch {
            complete(call, .failure(error))
        }
        return call
    }

    /// Cancels a call that has not completed: it leaves the outbound queue or the ack registry
    /// and completes with `.cancelled`; a later answer from the server is ignored (except that
    /// an `authenticate`'s still sets the auth state, since the server acted on it). No-op for a
    /// completed call, or a subscribe with ack (the subscription itself is not a call).
    package mutating func cancel(_ call: CallID, now: MonotonicInstant) {
        func owns(_ purpose: CallPurpose) -> Bool {
            switch purpose {
            case .user(let id), .authenticate(let id, _): return id == call
            case .handshake, .subscribe: return false
            }
        }
        let queued = outbound.remove { entry in
            if case .invoke(_, _, let purpose) = entry.item { return owns(purpose) }
            return false
        }
        if let entry = queued.first {
            complete(call, .failure(.cancelled(event: entry.item.event)))
            return
        }
        if let sent = acks.remove(where: { owns($0.purpose) }).first {
            if case .authenticate(let id, let token) = sent.purpose {
                // The server still acts on the `#authenticate` it reads: its answer keeps deciding
                // the auth state, though the call is over.
                updateLink { $0.abandonedAuthenticates[sent.cid] = AbandonedAuthenticate(call: id, token: token) }
            }
            complete(call, .failure(.cancelled(event: sent.event)))
        }
    }

    // MARK: Batching (Protocol.md §2)

    /// From now on packets (responses included, pongs and `#handshake` excluded) are collected
    /// until `flushBatch()` or `cancelBatch()`.
    package mutating func startBatch() {
        if batch == nil { batch = Batch() }
    }

    /// Sends the collected packets as one batch frame (a JSON array, or the codec's) and stops
    /// batching.
    package mutating func flushBatch() {
        guard let packets = batch?.packets else { return }
        batch = nil
        guard !packets.isEmpty else { return }
        sendMessage(usesJSONCodec ? Packet.batchFrame(packets) : configuration.codec.encodeBatch(packets))
    }

    /// Discards the collected packets and stops batching. Invokes among them complete with
    /// `batchCancelled`; channel subscriptions among them are sent again.
    package mutating func cancelBatch() {
        guard let cids = batch.map({ Set($0.cids) }) else { return }
        batch = nil
        for call in acks.remove(where: { cids.contains($0.cid) }) {
            switch call.purpose {
            case .user(let id), .authenticate(let id, _):
                complete(id, .failure(.batchCancelled(event: call.event)))
            case .subscribe(let channel):
                channels.markSubscribeCancelled(channel, cid: call.cid)
            case .handshake:
                break
            }
        }
        processPendingSubscriptions()
    }

    // MARK: Internals

    /// Writes `item` now when open, else queues it (starting a connection when closed).
    mutating func submit(_ item: OutboundQueue.Item, deadline: MonotonicInstant, now: MonotonicInstant) throws(PubSubError) {
        if state == .open {
            write(item, deadline: deadline)
            return
        }
        let bytes = packet(for: item, cid: 0).serialized().utf8.count
        try outbound.enqueue(OutboundQueue.Entry(item: item, deadline: deadline, bytes: bytes))
        if state == .closed { startConnecting(now: now) }
    }

    mutating func write(_ item: OutboundQueue.Item, deadline: MonotonicInstant?) {
        switch item {
        case .transmit(_, .publication(let channel, let data)) where usesJSONCodec:
            send(encoded: Packet.serializedPublication(channel: channel, data: data, cid: nil), cid: nil)
        case .transmit:
            send(packet(for: item, cid: 0))
        case .invoke(let event, let payload, let purpose):
            let cid = acks.allocateCid()
            acks.register(PendingCall(cid: cid, event: event, purpose: purpose, deadline: deadline))
            if usesJSONCodec, case .publication(let channel, let data) = payload {
                send(encoded: Packet.serializedPublication(channel: channel, data: data, cid: cid), cid: cid)
            } else {
                send(packet(for: item, cid: cid))
            }
        }
    }

    func packet(for item: OutboundQueue.Item, cid: Int64) -> Packet {
        switch item {
        case .transmit(let event, let payload): return .transmit(event: event, data: payload.value)
        case .invoke(let event, let payload, _): return .invoke(event: event, data: payload.value, cid: cid)
        }
    }

    /// Sends everything queued, in order (after the handshake and pending subscribes).
    mutating func flushOutbound(now: MonotonicInstant) {
        for entry in outbound.drain() {
            write(entry.item, deadline: entry.deadline)
        }
    }
}
