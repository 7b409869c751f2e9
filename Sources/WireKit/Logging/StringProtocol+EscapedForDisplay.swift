import PeerText

extension StringProtocol {
    /// This text ready to be shown to a person (a terminal, a log line), for text that came from
    /// a peer: a close reason, an HTTP body or header, a channel or user name.
    ///
    /// Control characters become Swift string literal escapes (`\n`, `\r`, `\t`, `\u{1B}`): every
    /// C0 control (TAB, CR and LF included), DEL and every C1 control (U+0080-U+009F), the line
    /// and paragraph separators U+2028 and U+2029, the bidi controls (U+061C, U+200E, U+200F,
    /// U+202A-U+202E, U+2066-U+2069, and the deprecated U+206A-U+206F), and the invisible U+200B,
    /// U+2060 and U+FEFF. A backslash becomes `\\`, so the result is unambiguous: a peer's own
    /// `\u{1B}` shows as `\\u{1B}`. Letters of every script and emoji (with their joiners,
    /// variation selectors and tags) are kept as they are. Text with nothing to escape comes back
    /// unchanged.
    ///
    /// WireKit, PubSubClient and PubSubBroker already escape the peer's part of every error
    /// description and log record they build; use this for the lines you compose yourself, e.g.
    /// `print("closed: \(reason.escapedForDisplay)")`. Escape a text once: escaping a description
    /// again doubles its backslashes.
    public var escapedForDisplay: String { PeerTextEscaping.escape(self) }
}
