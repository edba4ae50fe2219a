import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Finds a program in `PATH` (and the sbin directories), or nil.
package func findProgram(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    let dirs = path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/sbin", "/bin"]
    return dirs.map { $0 + "/" + name }.first { access($0, X_OK) == 0 }
}

/// Starts an X server with `-displayfd` (the server picks a free display number and writes it
/// once it accepts connections), so tests never collide with each other or with a desktop.
private func startServer(
    program: String, arguments: [String], directory: TemporaryDirectory, what: String,
    timeout: Double = 20
) throws -> (ChildProcess, String) {
    guard let executable = findProgram(program) else {
        throw XTestError(
            "\(program) not found: install it (scripts/test-x/setup.sh) to run the X tests")
    }
    let stderrPath = directory.file("\(program).stderr")
    let pipe = try Pipe2()
    let process: ChildProcess
    do {
        process = try ChildProcess(
            executable, arguments + ["-displayfd", "3"], stderr: .file(stderrPath),
            extraDescriptors: [3: pipe.writeEnd])
    } catch {
        close(pipe.readEnd)
        close(pipe.writeEnd)
        throw error
    }
    close(pipe.writeEnd)
    defer { close(pipe.readEnd) }
    guard let line = readLine(from: pipe.readEnd, timeout: timeout),
        let number = Int(line.trimmingCharacters(in: .whitespaces))
    else {
        let status = process.wait(timeout: 0.5)
        process.stop()
        throw XTestError(
            "\(what) did not start within \(timeout) s"
                + (status.map { " (exit status \($0))" } ?? "")
                + ": \(tail(stderrPath, lines: 8))")
    }
    return (process, ":\(number)")
}

/// `Xvfb -screen 0 1280x800x24 -noreset -nolisten tcp` on a display it picks itself (docs/DESIGN.md §6).
/// The server is killed when this object goes away (or at `stop()`).
package final class TestXServer {
    package let display: String
    package let process: ChildProcess
    package let directory: TemporaryDirectory
    package let width: Int
    package let height: Int

    /// `extraArguments` e.g. `["-extension", "MIT-SHM"]` for a server without shared memory;
    /// `launcher` a program that runs Xvfb (e.g. `["unshare", "--ipc"]`: a server in its own IPC
    /// namespace, which cannot attach its clients' shared memory).
    package init(width: Int = 1280, height: Int = 800, extraArguments: [String] = [], launcher: [String] = []) throws {
        self.width = width
        self.height = height
        directory = try TemporaryDirectory(prefix: "gestures-xvfb")
        let arguments = ["-screen", "0", "\(width)x\(height)x24", "-noreset", "-nolisten", "tcp"] + extraArguments
        (process, display) = try startServer(
            program: launcher.first ?? "Xvfb",
            arguments: launcher.isEmpty ? arguments : Array(launcher.dropFirst()) + ["Xvfb"] + arguments,
            directory: directory, what: "Xvfb")
        try waitUntilAcceptingConnections(display, process: process)
    }

    package var log: String { tail(directory.file("\((process.executable as NSString).lastPathComponent).stderr")) }

    package func stop() { process.stop() }

    deinit { process.stop() }
}

/// Opens and closes a connection until one succeeds (`-displayfd` already means ready; this is
/// the belt to its braces).
private func waitUntilAcceptingConnections(_ display: String, process: ChildProcess) throws {
    let ok = poll(timeout: 10, interval: 0.01) { () -> Bool? in
        if !process.isRunning { return false }
        guard let connection = try? XConnection(display) else { return nil }
        _ = connection
        return true
    }
    guard ok == true else {
        throw XTestError("X server on \(display) does not accept connections")
    }
}

/// The condition of the tests that start Xorg with the inputtest driver (`XorgInputTest`): Xorg
/// starts only as root here, so for any other user they are skipped with this reason instead of
/// failing. CI runs the X tests as root, so there they always run.
package let xorgNeedsRoot = ConditionTrait.enabled(
    if: geteuid() == 0,
    Comment(
        rawValue: "needs root: Xorg with the dummy and inputtest drivers (genuine XI2 touch) starts only as root; "
            + "run the X tests as root, as CI does"))

/// Xorg with the `dummy` video driver and `inputtest` input devices (docs/DESIGN.md §6): genuine XI 2.2
/// touch events and XI 2.4 touchpad gestures. Needs root (CI runs as root). One connection per
/// device is held for the server's life (a reconnect is not served), so every test gets a
/// fresh server.
package final class XorgInputTest {
    package let display: String
    package let process: ChildProcess
    package let directory: TemporaryDirectory
    package let width: Int
    package let height: Int
    /// A direct-touch device (touchscreen), attached to the virtual core pointer.
    package let touchscreen: InputTestDevice
    /// A touchpad (`PointerGesture`): relative motion plus XI 2.4 pinch and swipe gestures.
    package let touchpad: InputTestDevice
    /// A keyboard (xkb defaults), so the server has a real core keyboard.
    package let keyboard: InputTestDevice

    package init(width: Int = 1280, height: Int = 800) throws {
        self.width = width
        self.height = height
        guard geteuid() == 0 else {
            throw XTestError("Xorg with the inputtest driver needs root (run the X tests as root)")
        }
        for file in [
            "/usr/lib/xorg/modules/input/inputtest_drv.so",
            "/usr/lib/xorg/modules/drivers/dummy_drv.so",
        ] where access(file, R_OK) != 0 {
            throw XTestError(
                "\(file) missing: apt-get install xserver-xorg-core xserver-xorg-video-dummy")
        }
        directory = try TemporaryDirectory(prefix: "gestures-xorg")
        let configPath = directory.file("xorg.conf")
        let configDir = directory.file("xorg.conf.d")
        mkdir(configDir, 0o755)
        let config = XorgInputTest.config(
            width: width, height: height,
            devices: [
                ("touchscreen", "Touch", directory.file("touch.sock"), "CorePointer"),
                ("touchpad", "PointerGesture", directory.file("touchpad.sock"), "SendCoreEvents"),
                ("keyboard", "Keyboard", directory.file("keyboard.sock"), "CoreKeyboard"),
            ])
        try config.write(toFile: configPath, atomically: true, encoding: .utf8)
        let logPath = directory.file("Xorg.log")
        (process, display) = try startServer(
            program: "Xorg",
            arguments: [
                "-config", configPath, "-configdir", configDir, "-noreset", "-nolisten", "tcp",
                "-logfile", logPath, "-novtswitch", "-sharevts", "-nopn",
            ],
            directory: directory, what: "Xorg (dummy + inputtest)")
        do {
            touchscreen = try InputTestDevice(
                socketPath: directory.file("touch.sock"), screenWidth: width,
                screenHeight: height)
            touchpad = try InputTestDevice(
                socketPath: directory.file("touchpad.sock"), screenWidth: width,
                screenHeight: height)
            keyboard = try InputTestDevice(
                socketPath: directory.file("keyboard.sock"), screenWidth: width,
                screenHeight: height)
            try waitUntilAcceptingConnections(display, process: process)
        } catch {
            process.stop()
            throw XTestError("\(error) — Xorg log: \(tail(logPath, lines: 8))")
        }
    }

    package var log: String { tail(directory.file("Xorg.log"), lines: 30) }

    /// Stops the server first, then closes the device sockets (a client disconnecting from a
    /// live server makes the inputtest driver spin).
    package func stop() {
        process.stop()
        touchscreen.close()
        touchpad.close()
        keyboard.close()
    }

    deinit { stop() }

    package static func config(
        width: Int, height: Int, devices: [(name: String, type: String, socket: String, use: String)]
    ) -> String {
        let modeline =
            "Modeline \"\(width)x\(height)\" 83.50 \(width) \(width + 72) \(width + 200) "
            + "\(width + 400) \(height) \(height + 3) \(height + 9) \(height + 31)"
        var text = """
            Section "ServerFlags"
                Option "AutoAddDevices" "false"
                Option "AutoEnableDevices" "false"
                Option "DontVTSwitch" "true"
                Option "BlankTime" "0"
                Option "StandbyTime" "0"
                Option "SuspendTime" "0"
                Option "OffTime" "0"
            EndSection
            Section "Device"
                Identifier "dummy"
                Driver "dummy"
                VideoRam 32768
            EndSection
            Section "Monitor"
                Identifier "monitor"
                HorizSync 5.0-1000.0
                VertRefresh 5.0-200.0
                \(modeline)
            EndSection
            Section "Screen"
                Identifier "screen"
                Device "dummy"
                Monitor "monitor"
                DefaultDepth 24
                SubSection "Display"
                    Depth 24
                    Modes "\(width)x\(height)"
                    Virtual \(width) \(height)
                EndSubSection
            EndSection

            """
        for device in devices {
            text += """
                Section "InputDevice"
                    Identifier "\(device.name)"
                    Driver "inputtest"
                    Option "SocketPath" "\(device.socket)"
                    Option "DeviceType" "\(device.type)"
                EndSection

                """
        }
        text += "Section \"ServerLayout\"\n    Identifier \"layout\"\n    Screen \"screen\"\n"
        for device in devices {
            text += "    InputDevice \"\(device.name)\" \"\(device.use)\"\n"
        }
        text += "EndSection\n"
        return text
    }
}

/// A display name no server answers on (for the no-display test).
package func unusedDisplay() -> String {
    var n = 99
    while access("/tmp/.X11-unix/X\(n)", F_OK) == 0 || access("/tmp/.X\(n)-lock", F_OK) == 0 {
        n += 1
    }
    return ":\(n)"
}
