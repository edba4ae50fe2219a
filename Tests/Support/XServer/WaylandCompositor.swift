import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A Wayland compositor from Debian (sway 1.7, wlroots 0.15) with Xwayland, for running the app
/// where most touch machines now run it: as an X11 client of Xwayland.
///
/// - **Headless** (`WLR_BACKENDS=headless`, `WLR_LIBINPUT_NO_DEVICES=1`): outputs of the given
///   sizes side by side, no input devices; input reaches the app through XTest on the Xwayland
///   display. Xwayland names the outputs `XWAYLAND0…n` in the compositor's order.
/// - **Nested** (`WLR_BACKENDS=x11` on another X server, e.g. Xorg + inputtest): the compositor's
///   window on that server is its output, and the touches that server gives the window reach
///   Xwayland as `wl_touch` events — genuine Xwayland touch input.
///
/// Runs anywhere the tests do, root included: sway refuses to run as root ("Unable to drop
/// root"), so as root it runs as `nobody` (util-linux `setpriv`), and the compositor's first
/// client grants the test's user access to Xwayland (`xhost +si:localuser:…`). Its environment
/// is clean (only `PATH`, `HOME`, the backend variables) with its own 0700 `XDG_RUNTIME_DIR`, so
/// a desktop's `WAYLAND_DISPLAY` or `DISPLAY` never leaks in. Xwayland is started at once
/// (`xwayland force`); ``display`` is the `DISPLAY` sway gives its clients. Stopped at deinit.
package final class WaylandCompositor {
    /// The Xwayland display (`:N`).
    package let display: String
    /// The compositor's `XDG_RUNTIME_DIR` (holds `wayland-N` and sway's IPC socket).
    package let runtimeDirectory: String
    package let process: ChildProcess
    private let directory: TemporaryDirectory

    /// How the compositor shows its outputs.
    package enum Backend {
        /// Headless outputs of these sizes (pixels), left to right.
        case headless(outputs: [(width: Int, height: Int)])
        /// One window of this size on the X server `display`.
        case nested(display: String, width: Int, height: Int)
    }

    package init(_ backend: Backend, timeout: Double = 20) throws {
        guard let sway = findProgram("sway"), findProgram("Xwayland") != nil, findProgram("xhost") != nil else {
            throw XTestError("sway, Xwayland or xhost not found: apt-get install sway xwayland x11-xserver-utils")
        }
        directory = try TemporaryDirectory(prefix: "gestures-sway")
        chmod(directory.path, 0o755)
        runtimeDirectory = directory.file("runtime")
        mkdir(runtimeDirectory, 0o700)
        var environment = [
            "PATH": "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin", "HOME": directory.path,
            "XDG_RUNTIME_DIR": runtimeDirectory, "WLR_LIBINPUT_NO_DEVICES": "1",
            // No GPU in CI: the software renderer.
            "WLR_RENDERER": "pixman",
        ]
        var config = "xwayland force\nfocus_follows_mouse no\ndefault_border none\n"
        switch backend {
        case .headless(let outputs):
            environment["WLR_BACKENDS"] = "headless"
            environment["WLR_HEADLESS_OUTPUTS"] = "\(outputs.count)"
            var x = 0
            for (i, o) in outputs.enumerated() {
                config += "output HEADLESS-\(i + 1) resolution \(o.width)x\(o.height) position \(x) 0\n"
                x += o.width
            }
        case .nested(let host, let width, let height):
            environment["WLR_BACKENDS"] = "x11"
            environment["WLR_X11_OUTPUTS"] = "1"
            environment["DISPLAY"] = host
            config += "output X11-1 resolution \(width)x\(height) position 0 0\n"
        }
        let displayFile = runtimeDirectory + "/display"
        let me = geteuid()
        // The first client (with sway's DISPLAY) lets the test's user in, then says where it is.
        config +=
            "exec sh -c 'xhost +si:localuser:\(userName(me)) >/dev/null && echo \"$DISPLAY\" > \(displayFile).new"
            + " && mv \(displayFile).new \(displayFile)'\n"
        try config.write(toFile: directory.file("config"), atomically: true, encoding: .utf8)

        var arguments = ["-c", directory.file("config"), "-d"]
        var executable = sway
        if me == 0 {
            guard let setpriv = findProgram("setpriv") else {
                throw XTestError("setpriv not found (util-linux): sway refuses to run as root")
            }
            let nobody = getpwnam("nobody")
            let uid = nobody?.pointee.pw_uid ?? 65534
            let gid = nobody?.pointee.pw_gid ?? 65534
            chown(runtimeDirectory, uid, gid)
            arguments = ["--reuid=\(uid)", "--regid=\(gid)", "--clear-groups", sway] + arguments
            executable = setpriv
            // wlroots makes /tmp/.X11-unix itself when it is missing — 0755 and owned by
            // nobody, which would lock every other user's X server out of it.
            if access("/tmp/.X11-unix", F_OK) != 0 {
                mkdir("/tmp/.X11-unix", 0o1777)
                chmod("/tmp/.X11-unix", 0o1777)
            }
        }
        let logPath = directory.file("sway.log")
        let child = try ChildProcess(
            executable, arguments, environment: environment, stdout: .file(logPath), stderr: .file(logPath))
        process = child
        let found = poll(timeout: timeout, interval: 0.02) { () -> String? in
            if !child.isRunning { return "" }
            let text = readText(displayFile).trimmingCharacters(in: .whitespacesAndNewlines)
            return text.isEmpty ? nil : text
        }
        guard let found, !found.isEmpty else {
            let status = child.wait(timeout: 0.5)
            child.stop()
            throw XTestError(
                "sway with Xwayland did not start within \(timeout) s"
                    + (status.map { " (exit status \($0))" } ?? "") + ": \(tail(logPath, lines: 8))")
        }
        display = found
        let connected = poll(timeout: 10, interval: 0.02) { () -> Bool? in
            (try? XConnection(found)) != nil ? true : nil
        }
        guard connected == true else {
            child.stop()
            throw XTestError("Xwayland on \(found) does not accept connections: \(tail(logPath, lines: 8))")
        }
    }

    /// The compositor's log (sway `-d`), for failure messages.
    package var log: String { tail(directory.file("sway.log"), lines: 30) }

    /// Runs `swaymsg` with `arguments` against this compositor's IPC socket; its output, or
    /// nil when it failed. E.g. `["-t", "get_outputs"]`, `["create_output"]`,
    /// `["output", "HEADLESS-1", "scale", "2"]`.
    @discardableResult
    package func swaymsg(_ arguments: [String]) -> String? {
        guard let swaymsg = findProgram("swaymsg") else { return nil }
        let sockets = (try? FileManager.default.contentsOfDirectory(atPath: runtimeDirectory)) ?? []
        guard let socket = sockets.first(where: { $0.hasPrefix("sway-ipc.") }) else { return nil }
        let outPath = directory.file("swaymsg.out")
        let environment = ["PATH": "/usr/bin:/bin", "SWAYSOCK": runtimeDirectory + "/" + socket]
        guard
            let child = try? ChildProcess(
                swaymsg, arguments, environment: environment, stdout: .file(outPath), stderr: .file(outPath)),
            child.wait(timeout: 10) == 0
        else { return nil }
        return readText(outPath)
    }

    package func stop() { process.stop() }

    deinit { process.stop() }
}

/// The login name of `uid` (for `xhost +si:localuser:NAME`), or its number.
private func userName(_ uid: uid_t) -> String {
    guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return "\(uid)" }
    return String(cString: name)
}
