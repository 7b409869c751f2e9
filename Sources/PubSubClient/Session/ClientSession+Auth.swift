@_spi(Cores) import MonotonicTime

extension ClientSession {
    /// Sends `#authenticate` with `signedToken` (an invoke whose data is the token string,
    /// Protocol.md §9). Completes with `{isAuthenticated, authError}` from the server, or fails with
    /// the server's error (the client is then unauthenticated), a timeout or a bad connection
    /// (auth state unchanged; an answer that comes after the timeout on the same connection
    /// still sets it, as the server acted on it). Queued while not open.
    package mutating func authenticate(_ signedToken: String, ackTimeout: Duration? = nil, now: MonotonicInstant) -> CallID {
        let call = makeCallID()
        let timeout = ackTimeout ?? configuration.ackTimeout
        do {
            try submit(
                .invoke(
                    event: BuiltInEvent.authenticate, data: .value(.string(signedToken)),
                    purpose: .authenticate(call, token: signedToken)),
                deadline: now + timeout, now: now)
        } catch {
            complete(call, .failure(error))
        }
        return call
    }

    /// Deletes the stored token, tells the server with a `#removeAuthToken` transmit, and becomes
    /// unauthenticated (Protocol.md §9). Before the handshake nothing waits in the queue to tell
    /// the server (a queued message may expire): `authenticate` calls still queued are cancelled,
    /// the next handshake carries no token, and a handshake already sent with one is followed by
    /// `#removeAuthToken` as soon as it is answered.
    package mutating func deauthenticate(now: MonotonicInstant) {
        removeStoredToken()
        if state == .open {
            // The server reads this `#removeAuthToken` after every `#authenticate` sent so far, so
            // their answers no longer decide the auth state.
            authenticateCallsSuperseded = nextCallNumber
            try? submit(
                .transmit(event: BuiltInEvent.removeAuthToken, data: .value(nil)),
                deadline: now + configuration.ackTimeout, now: now)
        } else {
            let cancelled = outbound.remove { entry in
                if case .invoke(_, _, .authenticate) = entry.item { return true }
                return false
            }
            for entry in cancelled {
                if case .invoke(_, _, .authenticate(let id, _)) = entry.item {
                    complete(id, .failure(.cancelled(event: entry.item.event)))
                }
            }
            updateLink { link in
                if link.handshakeToken != nil { link.deauthenticateAfterHandshake = true }
                link.handshakeToken = nil
            }
        }
        becomeUnauthenticated()
    }

    /// Puts `signedToken` in the token store (nil removes it) so the next handshake sends it;
    /// the current connection is not re-authenticated (use `authenticate` for that).
    package mutating func setTokenForNextHandshake(_ signedToken: String?, now: MonotonicInstant) {
        if let signedToken { saveToken(signedToken) } else { removeStoredToken() }
    }

    /// The token the next handshake will send (the token store's copy).
    package var tokenForNextHandshake: String? { storedToken }

    // MARK: Internals

    mutating func handleAuthenticateResponse(call: CallID, token: String, result: Result<JSONValue?, RemoteError>) {
        switch result {
        case .success(let data):
            let response: AuthenticateResponse
            do throws(MalformedResponseError) {
                response = try AuthenticateResponse(parsing: data)
            } catch {
                complete(call, .failure(.invalidResponse(event: BuiltInEvent.authenticate, detail: error.message)))
                return
            }
            applyAuthenticateVerdict(call: call, token: token, isAuthenticated: response.isAuthenticated)
            complete(call, .success(data))
        case .failure(let error):
            applyAuthenticateVerdict(call: call, token: token, isAuthenticated: nil)
            complete(call, .failure(.remote(error)))
        }
    }

    /// The answer to an `#authenticate` whose call already timed out or was cancelled: the call
    /// stays completed, but the verdict is the server's auth state, so the client takes it too.
    mutating func handleLateAuthenticateAnswer(rid: Int64, result: Result<JSONValue?, RemoteError>) {
        guard let late = connection.link?.abandonedAuthenticates[rid] else { return }
        updateLink { $0.abandonedAuthenticates[rid] = nil }
        switch result {
        case .success(let data):
            guard let response = try? AuthenticateResponse(parsing: data) else { return }
            applyAuthenticateVerdict(call: late.call, token: late.token, isAuthenticated: response.isAuthenticated)
        case .failure:
            applyAuthenticateVerdict(call: late.call, token: late.token, isAuthenticated: nil)
        }
    }

    /// Takes the server's answer to `call`'s `#authenticate` (`isAuthenticated` nil: an error).
    private mutating func applyAuthenticateVerdict(call: CallID, token: String, isAuthenticated: Bool?) {
        // A `deauthenticate` since this call was sent: the server reads its `#removeAuthToken`
        // after this `#authenticate`, so it ends unauthenticated, and so does the client.
        guard call.rawValue > authenticateCallsSuperseded else { return }
        guard let isAuthenticated else { return becomeUnauthenticated() }
        if isAuthenticated { becomeAuthenticated(signedToken: token) } else { becomeUnauthenticated() }
        // The JS client saves the token whatever the verdict (Protocol.md §9).
        saveToken(token)
    }

    /// `#setAuthToken` from the server: authenticated with the new token, which is persisted.
    mutating func acceptServerToken(_ token: String) {
        becomeAuthenticated(signedToken: token)
        saveToken(token)
    }

    /// `#removeAuthToken` from the server: the stored token is deleted, then unauthenticated.
    mutating func removeTokenOnServerRequest() {
        removeStoredToken()
        becomeUnauthenticated()
    }

    mutating func saveToken(_ token: String) {
        storedToken = token
        actions.append(.saveToken(name: configuration.tokenName, token: token))
    }

    mutating func removeStoredToken() {
        let old = storedToken
        storedToken = nil
        actions.append(.removeToken(name: configuration.tokenName))
        emit(.authTokenRemoved(.init(oldSignedToken: old)))
    }

    /// Protocol.md §9: pending `waitForAuth` subscriptions go out before `authStateChange`;
    /// `authenticated` is reported on every acceptance, renewals included.
    mutating func becomeAuthenticated(signedToken: String, byHandshake: Bool = false) {
        let decoded = JWT.decodePayload(signedToken)
        let old = auth.state
        auth = AuthStatus(state: .authenticated, signedToken: signedToken, token: decoded)
        if old != .authenticated {
            processPendingSubscriptions()
            emit(
                .authStateChanged(
                    .init(
                        old: old, new: .authenticated, signedToken: signedToken, token: decoded,
                        byHandshake: byHandshake)))
        }
        emit(.authenticated(.init(signedToken: signedToken, token: decoded)))
    }

    mutating func becomeUnauthenticated(byHandshake: Bool = false) {
        guard auth.state != .unauthenticated else {
            auth = .unauthenticated
            return
        }
        let old = auth
        auth = .unauthenticated
        emit(
            .authStateChanged(
                .init(
                    old: .authenticated, new: .unauthenticated, signedToken: nil, token: nil,
                    byHandshake: byHandshake)))
        emit(.deauthenticated(.init(oldSignedToken: old.signedToken, oldToken: old.token)))
    }
}
