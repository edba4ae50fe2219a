import ArgumentParser
import GestureX11

/// `gestures doctor`: what the app finds where it runs, as stable `key: value` lines
/// (docs/doctor.md), then an `advice:` line for each missing piece. The first thing to run
/// when something does not work.
struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract:
            "Print what the app finds on the X display: server, window manager, monitors, scale, input, extensions.",
        discussion: """
            One "key: value" line each: display, server (Xorg, Xwayland or Xvfb, and its version), \
            vendor, window-manager, monitor (one a line: name, geometry, physical size, primary), \
            xft-dpi, scale (and why), xinput, device (one a line: touchscreen, touchpad, \
            absolute-pointer or pointer, its name and id), touch, touchpad-gestures, mit-shm, \
            present, screensaver-extension, dpms, inhibit-service (a D-Bus screen-saver inhibit \
            service on the session bus, asked with dbus-send), then one "advice:" line for each \
            missing piece.
            Exit status: 0, or 1 when the display cannot be opened.
            """)

    @Option(name: .long, help: ArgumentHelp("The X display (default: $DISPLAY).", valueName: "NAME"))
    var display: String?

    @Option(name: .long, help: ArgumentHelp("The --scale the app would be given.", valueName: "S"))
    var scale: Double?

    func run() throws {
        let lines = try MainActor.assumeIsolated { () throws(CommandFailure) -> [Doctor.Line] in
            do throws(ShellError) {
                return try Doctor.examine(display: display, scaleOption: scale)
            } catch {
                throw .runtime(error.description)
            }
        }
        for line in lines { writeLine(line.text) }
    }
}
