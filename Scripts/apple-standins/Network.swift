// Stand-in for Apple's Network framework, for Scripts/apple-compile-check.sh only: the part of
// its Swift API this package uses, as declarations without behaviour. Never linked, never run.
// Sources are marked as in Security.swift: [doc] Apple's documentation page, copied as it reads
// (`@preconcurrency` and `@Sendable` included: they decide what Swift 6 accepts in our closures);
// [C] the C API imported by Swift's rules; [not found] no declaration was found to copy, and the
// shape is what our code and public Apple-platform sources rely on. Every name here is available
// from macOS 10.14 / iOS 12, below this package's minimums.
import Dispatch
import Foundation
@_exported import Security

// MARK: Errors

/// [doc] `enum NWError` with `posix(POSIXErrorCode)`, `dns(DNSServiceErrorType)`, `tls(OSStatus)`;
/// conforms to `Error`, `Equatable`, `CustomDebugStringConvertible`, `Sendable` (and
/// `CustomNSError`, left out: Linux's Foundation has it but nothing here needs it).
public enum NWError: Error, Equatable, CustomDebugStringConvertible, Sendable {
    case posix(POSIXErrorCode)
    case dns(DNSServiceErrorType)
    case tls(OSStatus)
    public var debugDescription: String { "" }
}
/// [C] `typedef int32_t DNSServiceErrorType` (dns_sd.h).
public typealias DNSServiceErrorType = Int32

// MARK: Endpoints and addresses

/// [doc] `enum NWEndpoint` with `hostPort(host:port:)`.
public enum NWEndpoint: Sendable {
    case hostPort(host: NWEndpoint.Host, port: NWEndpoint.Port)

    /// [doc] `NWEndpoint.Host`, "a name or address"; [not found] `init(_ name: String)` is not on
    /// the pages found; the shape is what public sources call (`NWEndpoint.Host("example.com")`).
    public enum Host: Sendable, Hashable {
        case name(String, NWInterface?)
        public init(_ string: String) { self = .name(string, nil) }
    }

    /// [doc] `struct Port` with `init?(_ service: String)`; [not found] its `RawRepresentable`
    /// conformance (`init?(rawValue: UInt16)`, `rawValue: UInt16`) is not on the pages found;
    /// public sources use it as declared here.
    public struct Port: Sendable, Hashable, RawRepresentable {
        public let rawValue: UInt16
        public init?(rawValue: UInt16) { self.rawValue = rawValue }
        public init?(_ service: String) {
            guard let value = UInt16(service) else { return nil }
            rawValue = value
        }
    }
}

/// [doc] `struct NWInterface` (only named here, by `NWEndpoint.Host`).
public struct NWInterface: Sendable, Hashable {}

/// [doc] `struct IPv4Address` with `init?(_ string: String)`.
public struct IPv4Address: Sendable, Hashable {
    public init?(_ string: String) { return nil }
}
/// [doc] `struct IPv6Address` with `init?(_ string: String)` (its other `init?(_:_:)` takes `Data`).
public struct IPv6Address: Sendable, Hashable {
    public init?(_ string: String) { return nil }
}

// MARK: Parameters and protocol options

/// [doc] `class NWProtocolOptions` (base of the options classes).
public class NWProtocolOptions: @unchecked Sendable {}

/// [doc] namespace of `NWProtocolTLS.Options`.
public final class NWProtocolTLS {
    /// [doc] `class Options`, conforms to `Sendable`, inherits `NWProtocolOptions`; `init()`;
    /// `var securityProtocolOptions: sec_protocol_options_t { get }`.
    public class Options: NWProtocolOptions, @unchecked Sendable {
        public override init() {}
        public var securityProtocolOptions: sec_protocol_options_t { fatalError() }
    }
}

/// [doc] namespace of `NWProtocolTCP.Options`.
public final class NWProtocolTCP {
    /// [doc] `init()`. [not found] `noDelay: Bool` and `connectionTimeout: Int` as Swift
    /// properties (their C setters are `nw_tcp_options_set_no_delay(_:_: Bool)` and
    /// `nw_tcp_options_set_connection_timeout(_:_: UInt32)` in seconds).
    public class Options: NWProtocolOptions, @unchecked Sendable {
        public override init() {}
        public var noDelay: Bool = false
        public var connectionTimeout: Int = 0
    }
}

/// [doc] `final class NWParameters`; `convenience init(tls: NWProtocolTLS.Options?, tcp: NWProtocolTCP.Options = NWProtocolTCP.Options())`.
public final class NWParameters: @unchecked Sendable {
    public init() {}
    public convenience init(tls: NWProtocolTLS.Options?, tcp: NWProtocolTCP.Options = NWProtocolTCP.Options()) { self.init() }
}

// MARK: Connections

/// [doc] the class and the members below. [not found] its `Sendable` conformance on the pages
/// found; its handlers are all `@Sendable`, and it is used across queues as `@unchecked Sendable`.
public final class NWConnection: @unchecked Sendable {
    /// [doc] `enum State`: `setup`, `waiting(NWError)`, `preparing`, `ready`, `failed(NWError)`, `cancelled`.
    public enum State: Sendable, Equatable {
        case setup
        case waiting(NWError)
        case preparing
        case ready
        case failed(NWError)
        case cancelled
    }

    /// [doc] `class ContentContext` with `static let defaultMessage: NWConnection.ContentContext`.
    public final class ContentContext: @unchecked Sendable {
        public static let defaultMessage = ContentContext()
    }

    /// [doc] `enum SendCompletion`: `@preconcurrency case contentProcessed(@Sendable (NWError?) -> Void)`, `idempotent`.
    public enum SendCompletion {
        case contentProcessed(@Sendable (NWError?) -> Void)
        case idempotent
    }

    /// [doc] `convenience init(host: NWEndpoint.Host, port: NWEndpoint.Port, using: NWParameters)`.
    public init(host: NWEndpoint.Host, port: NWEndpoint.Port, using: NWParameters) {}

    /// [doc] `@preconcurrency final var stateUpdateHandler: (@Sendable (NWConnection.State) -> Void)? { get set }`.
    @preconcurrency public final var stateUpdateHandler: (@Sendable (NWConnection.State) -> Void)?

    /// [doc] `final func start(queue: DispatchQueue)`, `final func cancel()`.
    public final func start(queue: DispatchQueue) {}
    public final func cancel() {}

    /// [doc] `@preconcurrency final func send(content: Data?, contentContext: NWConnection.ContentContext = .defaultMessage, isComplete: Bool = true, completion: NWConnection.SendCompletion)`.
    @preconcurrency public final func send(
        content: Data?, contentContext: NWConnection.ContentContext = .defaultMessage, isComplete: Bool = true,
        completion: NWConnection.SendCompletion
    ) {}

    /// [doc] `@preconcurrency final func receive(minimumIncompleteLength: Int, maximumLength: Int, completion: @escaping @Sendable (Data?, NWConnection.ContentContext?, Bool, NWError?) -> Void)`.
    @preconcurrency public final func receive(
        minimumIncompleteLength: Int, maximumLength: Int,
        completion: @escaping @Sendable (Data?, NWConnection.ContentContext?, Bool, NWError?) -> Void
    ) {}
}

// MARK: Path monitoring

/// [doc] `NWPath.Status` (`enum Status`) with `unsatisfied`, `satisfied`, `requiresConnection`;
/// [not found] the page of `NWPath.status` itself, declared as `let status: NWPath.Status`.
public struct NWPath: Sendable {
    public enum Status: Sendable, Equatable {
        case satisfied, unsatisfied, requiresConnection
    }
    public let status: Status
}

/// [doc] `final class NWPathMonitor`; `init()`; `start(queue:)`; `cancel()`;
/// `@preconcurrency final var pathUpdateHandler: (@Sendable (NWPath) -> Void)? { get set }`.
/// [not found] its `Sendable` conformance on the pages found.
public final class NWPathMonitor: @unchecked Sendable {
    public init() {}
    @preconcurrency public final var pathUpdateHandler: (@Sendable (NWPath) -> Void)?
    public final func start(queue: DispatchQueue) {}
    public final func cancel() {}
}
