#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What every executable of the package does with its command line: `-h` or `--help` anywhere
/// prints the usage on standard output and exits 0; a command line it refuses prints one line and
/// a hint on standard error and exits 2.
public enum CommandLineManners {
    /// Exit status of a refused command line.
    public static let usageExitStatus: Int32 = 2

    /// The exit statuses the benchmark executables share, for their usage texts.
    public static let benchmarkExitStatuses = """
        exit status: 0 the run completed and every check passed, 1 the run failed (connection,
                     verification; the last stdout line is {"ok":false,"error":...}), 2 usage error
        """

    /// Whether `arguments` (without the program name) ask for help.
    public static func asksForHelp(_ arguments: [String]) -> Bool {
        arguments.contains { $0 == "-h" || $0 == "--help" }
    }

    /// Prints `usage` on standard output and exits 0 when `arguments` ask for help.
    public static func answerHelp(_ arguments: [String], usage: String) {
        guard asksForHelp(arguments) else { return }
        BenchReport.emit(usage + "\n", to: 1)
        exit(0)
    }

    /// The options of this process's command line: `usage` on `-h`/`--help` (exit 0), what
    /// `parse` makes of the arguments otherwise, or the refusal of its usage error (exit 2).
    public static func options<Options>(
        usage: String, _ parse: ([String]) throws(ArgumentReader.UsageError) -> Options
    ) -> Options {
        let arguments = Array(CommandLine.arguments.dropFirst())
        answerHelp(arguments, usage: usage)
        do {
            return try parse(arguments)
        } catch {
            refuse("\(error)")
        }
    }

    /// Prints `message` and the hint to run `--help` on standard error, then exits 2.
    public static func refuse(_ message: String) -> Never {
        let program = BenchReport.program
        BenchReport.emit("\(program): \(message)\nRun '\(program) --help' for usage.\n", to: 2)
        exit(usageExitStatus)
    }
}
