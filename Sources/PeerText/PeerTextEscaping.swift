/// Escapes text that came from a peer (a close reason, an HTTP body or header, a channel or user
/// name) before it is composed into text for a person: an error's description, a log record, a
/// line on a terminal. Without it a peer can clear the screen or move the cursor (ESC, CSI),
/// forge a log line (CR, LF), or reorder what is shown (bidi controls), CWE-117.
///
/// What is escaped, as Swift string literal escapes (`\n`, `\r`, `\t`, else `\u{1B}`, hex in
/// upper case):
/// - C0 controls U+0000-U+001F, TAB, CR and LF included (a tab can shift columns as well as a
///   line break can start a new line), and DEL U+007F;
/// - C1 controls U+0080-U+009F (U+009B is a one-character CSI, U+0085 a line break);
/// - U+2028 LINE SEPARATOR and U+2029 PARAGRAPH SEPARATOR;
/// - the bidi controls U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069 and the
///   deprecated U+206A-U+206F;
/// - the invisible U+200B ZERO WIDTH SPACE, U+2060 WORD JOINER and U+FEFF ZERO WIDTH NO-BREAK SPACE.
///
/// A backslash becomes `\\`, so every backslash of the result starts an escape and a peer's own
/// `\u{1B}` (six characters) cannot pass for an escaped ESC: the result reads back to exactly the
/// input. Everything else is kept, letters of every script and emoji included; so are the format
/// characters that scripts and emoji need (ZWNJ U+200C, ZWJ U+200D, variation selectors, tag
/// characters, the soft hyphen).
///
/// Escape the peer's part once, where it is composed (`"closed: \(reason)"`); a composed
/// description is already safe and escaping it again doubles its backslashes.
package enum PeerTextEscaping {
    /// `text` with every character listed above escaped; `text` itself when there is none.
    package static func escape(_ text: some StringProtocol) -> String {
        guard text.unicodeScalars.contains(where: { $0 == "\\" || escapes($0) }) else { return String(text) }
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case _ where escapes(scalar): escaped += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// Whether `escape` writes `scalar` as an escape (the backslash aside, which it doubles).
    package static func escapes(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x061C, 0x200B, 0x200E, 0x200F, 0x2028...0x202E, 0x2060, 0x2066...0x206F, 0xFEFF: true
        default: false
        }
    }
}
