import Foundation

/// The JS client's auto-reconnect delays (which close codes reconnect at all is
/// `SocketClusterCloseCode.reconnect`).
public struct ReconnectPolicy: Sendable, Hashable {
    /// Base delay before the first back-off retry (JS default 10 s).
    public var initialDelay: Duration
    /// Up to this much random delay added to `initialDelay` (JS default 10 s).
    public var randomness: Duration
    /// Growth factor per failed attempt (JS default 1.5).
    public var multiplier: Double
    /// Upper bound of any delay (JS default 60 s).
    public var maxDelay: Duration

    /// The JS defaults: 10 s initial delay, 10 s randomness, ×1.5, at most 60 s.
    public init(
        initialDelay: Duration = .seconds(10), randomness: Duration = .seconds(10),
        multiplier: Double = 1.5, maxDelay: Duration = .seconds(60)
    ) {
        self.initialDelay = initialDelay
        self.randomness = randomness
        self.multiplier = multiplier
        self.maxDelay = maxDelay
    }

    /// The delay before retry number `exponent` (0 for the first retry after a success), in
    /// whole milliseconds as the JS client computes it. `immediate` is true after a
    /// 4000/4001/1005 close; `random` is in `0..<1`.
    func delay(exponent: Int, immediate: Bool, random: Double) -> Duration {
        let maximum = maxDelay.wholeMilliseconds
        if immediate && exponent == 0 { return .milliseconds(min(0, maximum)) }
        let unit = random.isFinite ? min(max(random, 0), 1) : 0
        let base = (Double(initialDelay.wholeMilliseconds) + Double(randomness.wholeMilliseconds) * unit).jsRounded
        let grown = (base * pow(multiplier, Double(exponent))).jsRounded
        guard grown.isFinite, grown < Double(maximum) else { return .milliseconds(maximum) }
        return .milliseconds(max(0, Int64(grown)))
    }
}

extension Double {
    /// `Math.round`: halves round towards +∞.
    var jsRounded: Double { (self + 0.5).rounded(.down) }
}
