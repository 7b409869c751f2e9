// Stand-in for Apple's `os` module (the unified logging API), for Scripts/apple-compile-check.sh
// only: what the os.Logger bridge in the logging guide uses. Never linked, never run. Sources are
// marked as in Security.swift. `Logger` and `OSLogMessage` are macOS 11 / iOS 14 / tvOS 14 /
// watchOS 7, below this package's minimums.

/// [C] `os_log_type_t`, imported as the struct `OSLogType` with `default`, `info`, `debug`,
/// `error`, `fault` (the values of os/log.h).
public struct OSLogType: RawRepresentable, Equatable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let `default` = OSLogType(rawValue: 0x00)
    public static let info = OSLogType(rawValue: 0x01)
    public static let debug = OSLogType(rawValue: 0x02)
    public static let error = OSLogType(rawValue: 0x10)
    public static let fault = OSLogType(rawValue: 0x11)
}

/// [doc] `OSLogPrivacy` (`.auto` is the default of every interpolation); `public`, `private`.
public struct OSLogPrivacy: Sendable {
    public static let auto = OSLogPrivacy()
    public static let `public` = OSLogPrivacy()
    public static let `private` = OSLogPrivacy()
}

/// [doc] `OSLogStringAlignment` (`.none` is the default).
public struct OSLogStringAlignment: Sendable {
    public static let none = OSLogStringAlignment()
}

/// [doc] `@frozen struct OSLogInterpolation`; its string and `CustomStringConvertible`
/// interpolations as documented:
/// `mutating func appendInterpolation(_ argumentString: @autoclosure @escaping () -> String, align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto)`,
/// `mutating func appendInterpolation<T>(_ value: @autoclosure @escaping () -> T, align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto) where T : CustomStringConvertible`.
public struct OSLogInterpolation: StringInterpolationProtocol {
    public init(literalCapacity: Int, interpolationCount: Int) {}
    public mutating func appendLiteral(_ literal: String) {}
    public mutating func appendInterpolation(
        _ argumentString: @autoclosure @escaping () -> String, align: OSLogStringAlignment = .none,
        privacy: OSLogPrivacy = .auto
    ) {}
    public mutating func appendInterpolation<T>(
        _ value: @autoclosure @escaping () -> T, align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto
    ) where T: CustomStringConvertible {}
}

/// [doc] `OSLogMessage`, made from string literals and interpolations; `let interpolation: OSLogInterpolation`.
public struct OSLogMessage: ExpressibleByStringInterpolation {
    public let interpolation: OSLogInterpolation
    public init(stringLiteral value: String) { interpolation = OSLogInterpolation(literalCapacity: 0, interpolationCount: 0) }
    public init(stringInterpolation: OSLogInterpolation) { interpolation = stringInterpolation }
}

/// [doc] `struct Logger`; `init(subsystem: String, category: String)`;
/// `func log(level: OSLogType, _ message: OSLogMessage)`.
public struct Logger {
    public init(subsystem: String, category: String) {}
    public func log(level: OSLogType, _ message: OSLogMessage) {}
}
