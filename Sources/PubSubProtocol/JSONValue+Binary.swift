import Foundation

extension JSONValue {
    /// The sc-formatter wrapper for binary data, `{"base64":true,"data":"<standard base64>"}`
    /// (Protocol.md §2). JavaScript peers deliver this object as-is; they never turn it back into bytes.
    /// In MessagePack (``messagePackBytes()``, ``MessagePackDecoder``) the wrapper is a `bin`, the
    /// form of a JavaScript `ArrayBuffer`.
    public static func binary(_ data: Data) -> JSONValue {
        .object(["base64": .bool(true), "data": .string(data.base64EncodedString())])
    }

    /// The bytes inside a `{"base64":true,"data":"..."}` wrapper, or nil when this is not such a
    /// wrapper or its `data` is not valid standard base64.
    public var binaryData: Data? {
        guard case .object(let members) = self, members["base64"] == .bool(true),
            case .string(let encoded)? = members["data"]
        else { return nil }
        return Data(base64Encoded: encoded)
    }
}
