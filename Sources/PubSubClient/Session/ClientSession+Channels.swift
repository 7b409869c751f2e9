extension ClientSession {
    // MARK: Public channel commands

    /// Subscribes to `channel` (Protocol.md §8): it becomes pending, and `#subscribe` (always an
    /// invoke) goes out when open, authenticated if `waitForAuth`, and nothing is in flight for
    /// it. Subscribing again replaces the options and sends nothing.
    package mutating func subscribe(
        _ channel: String, options: SubscriptionOptions = SubscriptionOptions(),
        now: MonotonicInstant
    ) {
        channels.add(channel, options: options)
        processPendingSubscriptions()
    }

    /// `subscribe` whose call completes when the server confirms (`.success(nil)`) or refuses
    /// the current attempt, or the connection drops before it answers, or with `.timeout` after
    /// `ackTimeout` without any of these (a `waitForAuth` channel while unauthenticated, a closed
    /// client, a slow server): the subscription itself stays pending and goes on.
    package mutating func subscribeWithAck(
        _ channel: String, options: SubscriptionOptions = SubscriptionOptions(),
        now: MonotonicInstant
    ) -> CallID {
        let call = makeCallID()
        channels.add(channel, options: options)
        if channels.state(of: channel) == .subscribed {
            complete(call, .success(nil))
        } else {
            channels.addWaiter(call, to: channel)
            subscribeWaitDeadlines.insert(now + configuration.ackTimeout, call.rawValue)
            subscribeWaitChannels[call.rawValue] = channel
            processPendingSubscriptions()
        }
        return call
    }

    /// Unsubscribes locally at once and, when open, sends `#unsubscribe` as a transmit with the
    /// bare channel name (Protocol.md §8). An in-flight subscribe answer is then ignored.
    package mutating func unsubscribe(_ channel: String, now: MonotonicInstant) {
        guard removeChannel(channel) else { return }
        if state == .open {
            send(.transmit(event: BuiltInEvent.unsubscribe, data: .string(decorate(channel))))
        }
    }

    /// `unsubscribe` sent as an invoke, which the server acknowledges (or refuses with a
    /// `BrokerError` when the socket was not subscribed). When not open, the server holds no
    /// subscription for this client, so the call succeeds at once.
    package mutating func unsubscribeWithAck(_ channel: String, ackTimeout: Duration? = nil, now: MonotonicInstant) -> CallID {
        let call = makeCallID()
        removeChannel(channel)
        if state == .open {
            let cid = acks.allocateCid()
            let timeout = ackTimeout ?? configuration.ackTimeout
            acks.register(
                PendingCall(
                    cid: cid, event: BuiltInEvent.unsubscribe, purpose: .user(call),
                    deadline: now + timeout))
            send(.invoke(event: BuiltInEvent.unsubscribe, data: .string(decorate(channel)), cid: cid))
        } else {
            complete(call, .success(nil))
        }
        return call
    }

    /// Publishes without an ack (a `#publish` transmit). Queued while not open.
    package mutating func publish(_ channel: String, data: JSONValue?, now: MonotonicInstant) throws(PubSubError) {
        try transmit(BuiltInEvent.publish, payload: .publication(channel: decorate(channel), data: data), now: now)
    }

    /// Publishes with an ack (a `#publish` invoke); completes when the server accepted it.
    package mutating func publishWithAck(
        _ channel: String, data: JSONValue?, ackTimeout: Duration? = nil,
        now: MonotonicInstant
    ) -> CallID {
        invoke(BuiltInEvent.publish, payload: .publication(channel: decorate(channel), data: data), ackTimeout: ackTimeout, now: now)
    }

    /// The state of `channel` (unsubscribed when unknown).
    package func channelState(_ channel: String) -> ChannelState { channels.state(of: channel) }

    /// The options `channel` was subscribed with, if it is pending or subscribed.
    package func channelOptions(_ channel: String) -> SubscriptionOptions? { channels.channel(channel)?.options }

    /// Subscribed channels, plus pending ones when `includePending`, in subscription order.
    package func subscriptions(includePending: Bool = false) -> [String] { channels.names(includePending: includePending) }

    // MARK: Internals

    func decorate(_ channel: String) -> String { (configuration.channelPrefix ?? "") + channel }

    func undecorate(_ channel: String) -> String {
        guard let prefix = configuration.channelPrefix, !prefix.isEmpty, channel.hasPrefix(prefix) else { return channel }
        return String(channel.dropFirst(prefix.count))
    }

    /// Sends `#subscribe` for every channel that is ready, highest priority first.
    mutating func processPendingSubscriptions() {
        guard state == .open else { return }
        for channel in channels.readyToSubscribe(isAuthenticated: auth.state == .authenticated) {
            var payload: [String: JSONValue] = ["channel": .string(decorate(channel.name))]
            if channel.options.waitForAuth { payload["waitForAuth"] = true }
            if let data = channel.options.data, data.isTruthy { payload["data"] = data }
            let cid = acks.allocateCid()
            acks.register(
                PendingCall(
                    cid: cid, event: BuiltInEvent.subscribe, purpose: .subscribe(channel: channel.name),
                    deadline: nil))
            channels.markSubscribeSent(channel.name, cid: cid)
            send(.invoke(event: BuiltInEvent.subscribe, data: .object(payload), cid: cid))
            emit(.subscribeRequested(.init(channel: channel.name, options: channel.options)))
        }
    }

    mutating func handleSubscribeResponse(channel name: String, cid: Int64, result: Result<JSONValue?, RemoteError>) {
        switch result {
        case .success:
            guard let channel = channels.subscribeSucceeded(name, cid: cid) else { return }
            emit(.channelStateChanged(.init(channel: name, old: .pending, new: .subscribed)))
            emit(.subscribed(.init(channel: name, options: channel.options)))
            for waiter in channel.waiters { complete(waiter, .success(nil)) }
        case .failure(let remote):
            let error = PubSubError.remote(remote)
            switch channels.subscribeFailed(name, cid: cid, isAuthenticated: auth.state == .authenticated) {
            case .ignored:
                return
            case .removed(let channel):
                emit(.subscribeFailed(.init(channel: name, error: error, willRetry: false)))
                for waiter in channel.waiters { complete(waiter, .failure(error)) }
            case .keptPending(let channel):
                emit(.subscribeFailed(.init(channel: name, error: error, willRetry: true)))
                for waiter in channel.waiters { complete(waiter, .failure(error)) }
            }
        }
    }

    /// Removes a channel locally; reports the state change if it was subscribed. Returns
    /// whether the channel existed.
    @discardableResult
    mutating func removeChannel(_ name: String) -> Bool {
        guard let removed = channels.remove(name) else { return false }
        // Its `#subscribe` still in flight has no timeout and is answered to no one now: forget
        // it, or toggling a channel on a connection whose server is slow to answer grows the
        // ack registry by one entry per toggle.
        if let cid = removed.subscribeCid { _ = acks.resolve(rid: cid) }
        for waiter in removed.waiters { complete(waiter, .failure(.channelClosed(channel: name))) }
        if removed.state == .subscribed {
            emit(.channelStateChanged(.init(channel: name, old: .subscribed, new: .unsubscribed)))
            emit(.unsubscribed(.init(channel: name)))
        }
        return true
    }

    mutating func kickOut(channel name: String, message: String?) {
        // With a `#subscribe` still in flight, the server sent this kick-out before it read that
        // subscribe (its answer would otherwise have arrived first on the one connection): the
        // kick-out ends an older subscription, and the answer will subscribe the channel again.
        // Dropping the channel here would leave the server subscribed and the client not.
        guard let channel = channels.channel(name), channel.subscribeCid == nil else { return }
        emit(.kickedOut(.init(channel: name, message: message)))
        removeChannel(name)
    }
}
