import ArgumentParser
import GestureShellCore
import GesturesDemo

#if canImport(Glibc)
    import Glibc
#endif

/// The `gestures` executable (docs/DESIGN.md §4.4): `run` (the default: the demo window on X11),
/// `replay` (headless), `layout` and `monitors`.
///
/// Exit status: 0 success; 1 a runtime failure; 2 bad usage or bad input, with one line on
/// stderr (`gestures: t.jsonl:3: expected …`) and nothing on stdout. Argument-parser usage errors
/// are folded into that one line (swift-argument-parser itself would print the usage and exit 64).
@main
struct Gestures: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gestures",
        abstract: "UIKit-style multitouch gestures on Linux: the Gestures demo app, and headless replays.",
        discussion: """
            Without a subcommand, `gestures` runs the demo window (`gestures run`).
            """ + "\n" + exitStatusLine,
        version: version,
        subcommands: [
            RunCommand.self, ReplayCommand.self, LayoutCommand.self, MonitorsCommand.self, DoctorCommand.self,
        ],
        defaultSubcommand: RunCommand.self)

    /// The version `gestures --version` prints (and the man page's footer): the one place it is
    /// written.
    static let version = "0.9.0"

    /// The exit statuses (docs/DESIGN.md §4.4), for `--help` and the man page's EXIT STATUS section
    /// (scripts/make-man splits this line at the semicolons).
    static let exitStatuses: [(status: Int32, meaning: String)] = [
        (0, "success (the window was closed, the replay or layout was printed)"),
        (
            1,
            "runtime failure (no display, a lost X connection, standard output or the --log-events or --record "
                + "file failing: a closed pipe, a full disk, the file size limit, with one line on standard error "
                + "and a regular file cut back to its last whole line)"
        ),
        (
            2,
            "bad usage or bad input (one line on standard error names the file, the line and what is wrong, "
                + "with input quoted in it escaped and cut at 80 characters)"
        ),
    ]

    static var exitStatusLine: String {
        "Exit status: " + exitStatuses.map { "\($0.status) \($0.meaning)" }.joined(separator: "; ") + "."
    }

    static func main() {
        do {
            let arguments = Array(Arguments.all.dropFirst())
            // A `run`'s picture first: a big JPEG's decode is the floor of its start. (Looked
            // for here, so that a start without one runs no code the order file does not pack.)
            for argument in arguments where argument.hasPrefix("--image") {
                PicturePrefetch.start(arguments: arguments, defaultSize: ShellOptions.defaultSize)
                break
            }
            var command = try directRun(arguments) ?? parseAsRoot(arguments)
            try command.run()
        } catch let failure as CommandFailure {
            failAndExit(failure)
        } catch let code as ExitCode {
            Glibc.exit(code.rawValue)
        } catch {
            // Argument-parser errors: help and version print and exit 0 (`--help` arrives from
            // `run()` of its help command); usage errors become one line and status 2.
            let code = exitCode(for: error)
            if code == .success { exit(withError: error) }
            let message = Gestures.message(for: error)
                .split(whereSeparator: \.isNewline)
                .map { $0.trimmingCharacters(in: " ") }
                .filter { !$0.isEmpty }
                .joined(separator: " ")
            if code == .validationFailure {
                failAndExit(.usage(message + " (see gestures --help)"))
            }
            failAndExit(.runtime(message))
        }
    }
}

extension Gestures {
    /// `gestures run …` (or `gestures` with options only, the default subcommand) parsed by
    /// `RunCommand` itself, the start's path to the window. The root's parse of the same line is
    /// the same options into the same command, but on the way swift-argument-parser asks whether
    /// `run` (as the matched and as the default subcommand) captures passthrough arguments, and
    /// builds `run`'s whole argument set by reflection for each question: three more Mirror walks
    /// of its ~45 options (callgrind: 24.4 → 17.5 M instructions to the X connection; exec →
    /// drawn and settled 15.2 → 12.9 ms median over 7 interleaved launches). Nothing is decided
    /// here: a line `RunCommand` does not accept as it stands — help, `--version`, an error,
    /// another subcommand's name — returns nil and goes to the root's parse, so every message,
    /// status and help text stays the root's (the parse has no side effects: `validate()` only
    /// checks values).
    static func directRun(_ arguments: [String]) -> RunCommand? {
        var arguments = arguments
        if arguments.first == "run" {
            arguments.removeFirst()
        } else if let first = arguments.first, !first.hasPrefix("-") {
            return nil
        }
        return (try? RunCommand.parseAsRoot(arguments)) as? RunCommand
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: Character) -> Substring {
        var s = self
        while s.first == set { s = s.dropFirst() }
        while s.last == set { s = s.dropLast() }
        return s
    }
}
