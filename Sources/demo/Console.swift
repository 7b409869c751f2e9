import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the person at the keyboard (or the pipe feeding standard input) did.
enum ConsoleInput: Sendable, Equatable {
    /// The first character of a new line arrived (`first` is its first byte, as text).
    case startedTyping(first: String)
    /// A complete line, without its newline.
    case line(String)
    /// End of input (EOF, or Ctrl-D on an empty line).
    case end
    /// Ctrl-C (SIGINT), or the process was asked to end (SIGTERM, SIGHUP).
    case interrupt
}

/// The chat's terminal: reads standard input byte by byte on its own thread, edits the line
/// locally when standard input is a terminal (so it can tell when typing starts), and prints
/// incoming lines above the line being typed.
/// `@unchecked Sendable`: `pending`, `escape` and `savedMode` are only touched while holding `lock`.
final class Console: @unchecked Sendable {
    /// Whether standard input is a terminal (else a pipe or a file: no echo, no prompt).
    let isTerminal = isatty(STDIN_FILENO) == 1
    private let prompt: String
    private let lock = NSLock()
    private var pending: [UInt8] = []
    private var escape = EscapeState.none
    private var savedMode: termios?
    private let (stream, continuation) = AsyncStream<ConsoleInput>.makeStream()

    private enum EscapeState { case none, escape, sequence }

    init(prompt: String) { self.prompt = prompt }

    /// Starts reading; call once.
    func inputs() -> AsyncStream<ConsoleInput> {
        if isTerminal { enterCharacterMode() }
        let thread = Thread { [self] in readLoop() }
        thread.start()
        return stream
    }

    /// Reports a signal (Ctrl-C...) as an input.
    func interrupt() { continuation.yield(.interrupt) }

    /// Prints `line`, keeping the prompt and the line being typed below it.
    func show(_ line: String) {
        lock.withLock {
            if isTerminal {
                Output.raw("\r\u{1B}[2K" + line + "\n" + prompt + String(decoding: pending, as: UTF8.self))
            } else {
                Output.line(line)
            }
        }
    }

    /// Puts the terminal back the way it was.
    func restore() {
        lock.withLock {
            guard var mode = savedMode else { return }
            tcsetattr(STDIN_FILENO, TCSANOW, &mode)
            savedMode = nil
            Output.raw("\r\u{1B}[2K")
        }
    }

    /// No canonical line editing and no echo: bytes arrive as typed and are echoed here.
    /// Signals stay on, so Ctrl-C still raises SIGINT.
    private func enterCharacterMode() {
        var mode = termios()
        guard tcgetattr(STDIN_FILENO, &mode) == 0 else { return }
        lock.withLock { savedMode = mode }
        mode.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &mode.c_cc) { controls in
            controls[Int(VMIN)] = 1
            controls[Int(VTIME)] = 0
        }
        tcsetattr(STDIN_FILENO, TCSANOW, &mode)
    }

    private func readLoop() {
        var buffer = [UInt8](repeating: 0, count: 512)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            for byte in buffer[0..<count] where !accept(byte) {
                continuation.finish()
                return
            }
        }
        let last = lock.withLock { () -> [UInt8] in
            defer { pending.removeAll() }
            return pending
        }
        if !last.isEmpty { continuation.yield(.line(String(decoding: last, as: UTF8.self))) }
        continuation.yield(.end)
        continuation.finish()
    }

    /// Handles one input byte; false once input has ended.
    private func accept(_ byte: UInt8) -> Bool {
        lock.withLock {
            switch (escape, byte) {
            case (.escape, UInt8(ascii: "[")):
                escape = .sequence
                return true
            case (.escape, _):
                escape = .none
                return true
            case (.sequence, 0x40...0x7E):
                escape = .none
                return true
            case (.sequence, _):
                return true
            case (.none, _):
                break
            }
            switch byte {
            case 0x0A, 0x0D:
                let line = String(decoding: pending, as: UTF8.self)
                pending.removeAll()
                if isTerminal { Output.raw("\n" + prompt) }
                continuation.yield(.line(line))
            case 0x7F, 0x08:
                guard !pending.isEmpty else { break }
                while let last = pending.popLast(), last & 0xC0 == 0x80 {}
                if isTerminal { Output.raw("\u{8} \u{8}") }
            case 0x04 where isTerminal && pending.isEmpty:
                continuation.yield(.end)
                return false
            case 0x1B:
                escape = .escape
            case 0x00..<0x20:
                break
            default:
                if pending.isEmpty { continuation.yield(.startedTyping(first: String(decoding: [byte], as: UTF8.self))) }
                pending.append(byte)
                if isTerminal { FileHandle.standardOutput.write(Data([byte])) }
            }
            return true
        }
    }
}
