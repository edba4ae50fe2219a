import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A Wayland compositor from Debian with Xwayland, for running the app where most touch
/// machines now run it: as an X11 client of Xwayland. Three of them (``Kind``): sway 1.7 and
/// cage 0.1.4 (wlroots 0.15) and Weston 10 — a tiling desktop, a kiosk compositor and the
/// reference compositor, whose window managers differ (sway and cage tile or maximize an X
/// window over its output, Weston floats it with its own frame).
///
/// - **Headless** (sway and cage: `WLR_BACKENDS=headless`, `WLR_LIBINPUT_NO_DEVICES=1`; Weston:
///   `headless-backend.so`): outputs side by side, no input devices; input reaches the app
///   through XTest on the Xwayland display. Xwayland names the outputs `XWAYLAND0…n` in the
///   compositor's order. sway sizes them as asked; cage keeps wlroots' headless size
///   (1280×720); Weston's headless backend has one output.
/// - **Nested** (sway and cage: `WLR_BACKENDS=x11`; Weston: `x11-backend.so`, on another X
///   server, e.g. Xorg + inputtest): the compositor's window on that server is its output, and
///   the touches that server gives the window reach Xwayland as `wl_touch` events — genuine
///   Xwayland touch input.
///
/// Runs anywhere the tests do, root included: sway refuses to run as root ("Unable to drop
/// root"), so as root every compositor runs as `nobody` (util-linux `setpriv`), and the test's
/// user is let into Xwayland with `xhost +si:localuser:…` (sway and cage: their first client;
/// Weston, which starts no client of ours: run as the compositor's user once it listens). Its
/// environment is clean (only `PATH`, `HOME`, the backend variables) with its own 0700
/// `XDG_RUNTIME_DIR`, so a desktop's `WAYLAND_DISPLAY` or `DISPLAY` never leaks in. Xwayland
/// is started at once; ``display`` is the `DISPLAY` the compositor gives its clients. Stopped at
/// deinit.
package final class WaylandCompositor {
    /// Which compositor.
    package enum Kind: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case sway, cage, weston
        package var testDescription: String { rawValue }
        /// The program, and the Debian package it comes in.
        package var program: String { rawValue }
        /// The output size a headless output has when the compositor cannot be told (cage).
        package static let cageHeadlessSize = (width: 1280, height: 720)
    }

    package let kind: Kind
    /// The Xwayland display (`:N`).
    package let display: String
    /// The compositor's `XDG_RUNTIME_DIR` (holds `wayland-N` and sway's IPC socket).
    package let runtimeDirectory: String
    package let process: ChildProcess
    /// The outputs' sizes in compositor pixels, left to right (headless), as the compositor
    /// made them.
    package let outputSizes: [(width: Int, height: Int)]
    private let directory: TemporaryDirectory

    /// How the compositor shows its outputs.
    package enum Backend {
        /// Headless outputs of these sizes (pixels), left to right.
        case headless(outputs: [(width: Int, height: Int)])
        /// `outputs` windows of this size on the X server `display`, left to right.
        case nested(display: String, width: Int, height: Int, outputs: Int = 1)
    }

    /// `kind` on `backend`; `scale` (sway, Weston) is every output's scale; `config` lines are
    /// added to sway's configuration (e.g. `for_window … move to output …`).
    package init(
        _ kind: Kind, _ backend: Backend, scale: Int = 1, config extra: [String] = [],
        timeout: Double = 20
    ) throws {
        guard let program = findProgram(kind.program), findProgram("Xwayland") != nil, findProgram("xhost") != nil
        else {
            throw XTestError(
                "\(kind.program), Xwayland or xhost not found: apt-get install \(kind.program) xwayland x11-xserver-utils"
            )
        }
        self.kind = kind
        directory = try TemporaryDirectory(prefix: "gestures-\(kind.rawValue)")
        chmod(directory.path, 0o755)
        runtimeDirectory = directory.file("runtime")
        mkdir(runtimeDirectory, 0o700)
        var environment = [
            "PATH": "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin", "HOME": directory.path,
            "XDG_RUNTIME_DIR": runtimeDirectory, "WLR_LIBINPUT_NO_DEVICES": "1",
            // No GPU in CI: the software renderer.
            "WLR_RENDERER": "pixman",
        ]
        let displayFile = runtimeDirectory + "/display"
        let me = geteuid()
        // The first client (with the compositor's DISPLAY) lets the test's user in, then says
        // where it is; under cage it is cage's one client, so it stays until cage goes.
        let announce =
            "xhost +si:localuser:\(userName(me)) >/dev/null && echo \"$DISPLAY\" > \(displayFile).new"
            + " && mv \(displayFile).new \(displayFile)"
        var arguments: [String]
        var sizes: [(width: Int, height: Int)] = []
        switch (kind, backend) {
        case (.sway, _), (.cage, _):
            switch backend {
            case .headless(let outputs):
                environment["WLR_BACKENDS"] = "headless"
                environment["WLR_HEADLESS_OUTPUTS"] = "\(outputs.count)"
                sizes = kind == .sway ? outputs : outputs.map { _ in Kind.cageHeadlessSize }
            case .nested(let host, let width, let height, let count):
                environment["WLR_BACKENDS"] = "x11"
                environment["WLR_X11_OUTPUTS"] = "\(count)"
                environment["DISPLAY"] = host
                sizes = Array(repeating: (width, height), count: count)
            }
            if kind == .sway {
                var config = "xwayland force\nfocus_follows_mouse no\ndefault_border none\n"
                var x = 0
                for (i, o) in sizes.enumerated() {
                    let name = { if case .nested = backend { "X11-\(i + 1)" } else { "HEADLESS-\(i + 1)" } }()
                    config += "output \(name) resolution \(o.width)x\(o.height) position \(x) 0 scale \(scale)\n"
                    x += o.width
                }
                config += extra.map { $0 + "\n" }.joined()
                config += "exec sh -c '\(announce)'\n"
                try config.write(toFile: directory.file("config"), atomically: true, encoding: .utf8)
                arguments = ["-c", directory.file("config"), "-d"]
            } else {
                guard scale == 1 else { throw XTestError("cage 0.1.4 cannot scale its outputs") }
                // -d: no client-side decorations asked; `-m extend`: every output in the layout.
                // The client waits for cage to go (its end would end cage).
                arguments = [
                    "-d", "-m", "extend", "--", "/bin/sh", "-c",
                    announce + "; while kill -0 $PPID 2>/dev/null; do sleep 1; done",
                ]
            }
        case (.weston, .headless(let outputs)):
            guard outputs.count == 1, let o = outputs.first else {
                throw XTestError("Weston 10's headless backend has one output")
            }
            sizes = outputs
            arguments = [
                "--backend=headless-backend.so", "--width=\(o.width)", "--height=\(o.height)", "--scale=\(scale)",
            ]
        case (.weston, .nested(let host, let width, let height, let count)):
            environment["DISPLAY"] = host
            sizes = Array(repeating: (width, height), count: count)
            arguments = [
                "--backend=x11-backend.so", "--width=\(width)", "--height=\(height)", "--scale=\(scale)",
                "--output-count=\(count)",
            ]
        }
        if kind == .weston {
            // No idle blanking, no lock screen: the app's own blanking control is what is tested;
            // no animations, so a window is where it is as soon as it is mapped.
            try "[core]\nidle-time=0\n[shell]\nlocking=false\nanimation=none\nstartup-animation=none\n".write(
                toFile: directory.file("weston.ini"), atomically: true, encoding: .utf8)
            arguments += ["--xwayland", "--config=\(directory.file("weston.ini"))", "--socket=wayland-test"]
        }
        outputSizes = sizes

        var executable = program
        var compositorUser: (uid: uid_t, gid: gid_t)?
        if me == 0 {
            guard let setpriv = findProgram("setpriv") else {
                throw XTestError("setpriv not found (util-linux): sway refuses to run as root")
            }
            let nobody = getpwnam("nobody")
            let uid = nobody?.pointee.pw_uid ?? 65534
            let gid = nobody?.pointee.pw_gid ?? 65534
            compositorUser = (uid, gid)
            chown(runtimeDirectory, uid, gid)
            arguments = ["--reuid=\(uid)", "--regid=\(gid)", "--clear-groups", program] + arguments
            executable = setpriv
            // wlroots makes /tmp/.X11-unix itself when it is missing — 0755 and owned by
            // nobody, which would lock every other user's X server out of it.
            if access("/tmp/.X11-unix", F_OK) != 0 {
                mkdir("/tmp/.X11-unix", 0o1777)
                chmod("/tmp/.X11-unix", 0o1777)
            }
        }
        let logPath = directory.file("compositor.log")
        let child = try ChildProcess(
            executable, arguments, environment: environment, stdout: .file(logPath), stderr: .file(logPath))
        process = child
        let found = poll(timeout: timeout, interval: 0.02) { () -> String? in
            if !child.isRunning { return "" }
            if kind == .weston {
                // "xserver listening on display :N"
                guard let range = readText(logPath).range(of: "listening on display ") else { return nil }
                let rest = readText(logPath)[range.upperBound...]
                let name = String(rest.prefix { !$0.isWhitespace })
                return name.isEmpty ? nil : name
            }
            let text = readText(displayFile).trimmingCharacters(in: .whitespacesAndNewlines)
            return text.isEmpty ? nil : text
        }
        guard let found, !found.isEmpty else {
            let status = child.wait(timeout: 0.5)
            child.stop()
            throw XTestError(
                "\(kind.program) with Xwayland did not start within \(timeout) s"
                    + (status.map { " (exit status \($0))" } ?? "") + ": \(tail(logPath, lines: 8))")
        }
        display = found
        if kind == .weston {
            // Weston starts Xwayland at the first connection: the xhost, as the compositor's user.
            let xhost = findProgram("xhost") ?? "xhost"
            var command = ["+si:localuser:\(userName(me))"]
            var runnerProgram = xhost
            if let user = compositorUser {
                command = ["--reuid=\(user.uid)", "--regid=\(user.gid)", "--clear-groups", xhost] + command
                runnerProgram = executable
            }
            let runner = try ChildProcess(
                runnerProgram, command, environment: ["PATH": "/usr/bin:/bin", "DISPLAY": found],
                stdout: .file(logPath + ".xhost"), stderr: .file(logPath + ".xhost"))
            guard runner.wait(timeout: timeout) == 0 else {
                child.stop()
                throw XTestError("xhost on Weston's Xwayland \(found) failed: \(readText(logPath + ".xhost"))")
            }
        }
        let connected = poll(timeout: 10, interval: 0.02) { () -> Bool? in
            (try? XConnection(found)) != nil ? true : nil
        }
        guard connected == true else {
            child.stop()
            throw XTestError("Xwayland on \(found) does not accept connections: \(tail(logPath, lines: 8))")
        }
    }

    /// The compositor's log (sway `-d`), for failure messages.
    package var log: String { tail(directory.file("compositor.log"), lines: 30) }

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
