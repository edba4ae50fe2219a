import ArgumentParser
import GestureTrace
import GestureX11

/// `gestures monitors`: the X screen's monitors, one a line, in the server's order (the index
/// `--monitor` takes): `INDEX NAME WIDTHxHEIGHT+X+Y`, then `primary` for the primary one —
/// `0 HDMI-1 1920x1080+0+0 primary`. (The order and numbering are `xrandr --listmonitors`'.)
/// Names are shown as ``MessageText/bare(_:)`` shows a token: control characters escaped,
/// cut after 80 characters.
struct MonitorsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "monitors",
        abstract: "List the X screen's monitors (for --monitor): index, name, geometry, primary.",
        discussion: """
            Monitors are RandR 1.5's (outputs, or rectangles set with xrandr --setmonitor); a \
            server without RandR 1.5, or one running classic Xinerama over several screens, lists \
            Xinerama's screens (xinerama-0, xinerama-1, …); one with neither has one, "screen", \
            the whole screen.
            Exit status: 0, or 1 when the display cannot be opened.
            """)

    @Option(name: .long, help: ArgumentHelp("The X display (default: $DISPLAY).", valueName: "NAME"))
    var display: String?

    func run() throws {
        let monitors = try MainActor.assumeIsolated { () throws(CommandFailure) -> [Monitor] in
            do throws(ShellError) {
                return try X11Shell.monitors(display: display)
            } catch {
                throw .runtime(error.description)
            }
        }
        for (i, m) in monitors.enumerated() {
            // The name is the server's (any bytes a client set with xrandr --setmonitor):
            // escaped and cut like every quoted token (MessageText).
            writeLine("\(i) \(MessageText.bare(m.name)) \(m.geometry)" + (m.primary ? " primary" : ""))
        }
    }
}
