import Foundation
import GestureShellCore
import GestureTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `gestures doctor` on each kind of server, field by field.
func runDoctor(display: String, arguments: [String] = [], environment: [String: String] = [:]) throws -> (
    status: Int32?, fields: [(String, String)], stdout: String, stderr: String
) {
    let directory = try TemporaryDirectory(prefix: "gestures-doctor")
    let (out, err) = (directory.file("stdout"), directory.file("stderr"))
    var env = ["PATH": "/usr/bin:/bin", "HOME": directory.path]
    for (k, v) in environment { env[k] = v }
    let child = try ChildProcess(
        try gesturesBinary(), ["doctor", "--display", display] + arguments, environment: env, stdout: .file(out),
        stderr: .file(err))
    let status = child.wait(timeout: 20)
    let text = readText(out)
    let fields = text.split(separator: "\n").map { line -> (String, String) in
        let parts = line.split(separator: ":", maxSplits: 1)
        return (String(parts[0]), parts.count > 1 ? String(parts[1].dropFirst()) : "")
    }
    return (status, fields, text, readText(err))
}

func values(_ fields: [(String, String)], _ key: String) -> [String] { fields.filter { $0.0 == key }.map(\.1) }

extension XServerTests {
    @Suite("gestures doctor on Xvfb, Xorg and Xwayland")
    struct Doctor {
        /// The keys every report has, in this order (docs/doctor.md).
        static let keys = [
            "display", "server", "vendor", "window-manager", "monitor", "xft-dpi", "scale", "xinput", "touch",
            "touchpad-gestures", "mit-shm", "present", "screensaver-extension", "dpms", "inhibit-service",
        ]

        static func expectKeys(_ fields: [(String, String)], _ stdout: String) {
            var seen: [String] = []
            for (k, _) in fields where !["device", "advice"].contains(k) && seen.last != k { seen.append(k) }
            #expect(seen == keys, "\(stdout)")
        }

        @Test("Xvfb: server, no window manager, its one monitor, scale 1 from 96 dpi, its mouse, extensions")
        func xvfb() throws {
            let server = try TestXServer(width: 1280, height: 800)
            defer { server.stop() }
            let r = try runDoctor(display: server.display)
            #expect(r.status == 0, "\(r.stderr)")
            Self.expectKeys(r.fields, r.stdout)
            let f = r.fields
            #expect(values(f, "display") == [server.display])
            #expect(values(f, "server").first?.hasPrefix("Xvfb 21.") == true, "\(r.stdout)")
            #expect(values(f, "vendor") == ["The X.Org Foundation"])
            #expect(values(f, "window-manager") == ["none"])
            let monitor = try #require(values(f, "monitor").first)
            #expect(monitor.hasPrefix("screen 1280x800+0+0 ") && monitor.hasSuffix("mm"), "\(monitor)")
            #expect(values(f, "xft-dpi") == ["none"])
            #expect(values(f, "scale").first?.hasPrefix("1 (screen ") == true, "\(r.stdout)")
            #expect(values(f, "xinput") == ["2.4"])
            #expect(values(f, "device") == [#"pointer "Xvfb mouse" id=6"#], "\(r.stdout)")
            #expect(values(f, "touch") == ["no touchscreen"])
            #expect(values(f, "touchpad-gestures") == ["yes (XInput 2.4)"])
            #expect(values(f, "mit-shm") == ["yes"] && values(f, "present") == ["yes"])
            #expect(values(f, "screensaver-extension") == ["yes"])
            #expect(values(f, "inhibit-service") == ["no session bus"])
            let advice = values(f, "advice")
            #expect(advice.contains { $0.hasPrefix("no window manager") }, "\(r.stdout)")
            #expect(advice.contains { $0.hasPrefix("Xft.dpi is not set") }, "\(r.stdout)")
            #expect(advice.contains { $0.hasPrefix("no touchscreen") }, "\(r.stdout)")
            #expect(!advice.contains { $0.contains("MIT-SCREEN-SAVER") }, "\(r.stdout)")
        }

        @Test("Xft.dpi, --scale and GDK_SCALE win over the monitor, with the reason")
        func scaleSources() throws {
            let server = try TestXServer(width: 1280, height: 800)
            defer { server.stop() }
            #expect(
                values(try runDoctor(display: server.display, arguments: ["--scale", "1.5"]).fields, "scale") == [
                    "1.5 (--scale)"
                ])
            #expect(
                values(try runDoctor(display: server.display, environment: ["GDK_SCALE": "2"]).fields, "scale")
                    == ["2 (GDK_SCALE=2)"])
            let directory = try TemporaryDirectory(prefix: "gestures-xrdb")
            try "Xft.dpi: 192\n".write(toFile: directory.file("res"), atomically: true, encoding: .utf8)
            let load = try ChildProcess(
                "xrdb", ["-display", server.display, "-merge", directory.file("res")],
                environment: ["PATH": "/usr/bin:/bin"])
            #expect(load.wait(timeout: 10) == 0)
            let r = try runDoctor(display: server.display, environment: ["GDK_SCALE": "3"])
            #expect(
                values(r.fields, "xft-dpi") == ["192"] && values(r.fields, "scale") == ["2 (Xft.dpi 192)"],
                "\(r.stdout)")
            #expect(!values(r.fields, "advice").contains { $0.hasPrefix("Xft.dpi") }, "\(r.stdout)")
        }

        @Test("No display: one line, status 1")
        func noDisplay() throws {
            let r = try runDoctor(display: unusedDisplay())
            #expect(r.status == 1)
            #expect(r.stdout.isEmpty && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        }

        @Test("Xorg + inputtest: a touchscreen and a touchpad by kind, touch and XI 2.4 gestures")
        func xorg() throws {
            let xorg = try XorgInputTest()
            defer { xorg.stop() }
            let r = try runDoctor(display: xorg.display)
            #expect(r.status == 0, "\(r.stderr)")
            Self.expectKeys(r.fields, r.stdout)
            let f = r.fields
            #expect(values(f, "server").first?.hasPrefix("Xorg 21.") == true, "\(r.stdout)")
            let devices = values(f, "device")
            #expect(devices.contains { $0.hasPrefix(#"touchscreen "touchscreen""#) }, "\(r.stdout)")
            #expect(devices.contains { $0.hasPrefix(#"touchpad "touchpad""#) }, "\(r.stdout)")
            #expect(values(f, "touch") == ["yes"])
            #expect(values(f, "touchpad-gestures") == ["yes (XInput 2.4)"])
            #expect(values(f, "screensaver-extension") == ["yes"], "\(r.stdout)")
            #expect(!values(f, "advice").contains { $0.hasPrefix("no touchscreen") }, "\(r.stdout)")
        }

        /// Xwayland under each compositor, field by field. sway and Weston on a scale-2 output
        /// (cage cannot scale its outputs): sway's Xwayland screen is in logical pixels (960×540
        /// for 1920×1080), Weston 10's in the output's pixels with the pixel size as its
        /// "physical" size. No Xft.dpi: the scale stays 1 and says why; no MIT-SCREEN-SAVER or
        /// DPMS, with the compositor's idle setting as advice.
        @Test(
            "Xwayland: server, window manager, XWAYLAND0, scale 1 and why, input, extensions, blanking advice",
            arguments: WaylandCompositor.Kind.allCases)
        func xwayland(_ kind: WaylandCompositor.Kind) throws {
            let scale = kind == .cage ? 1 : 2
            let compositor = try WaylandCompositor(kind, .headless(outputs: [(1920, 1080)]), scale: scale)
            defer { compositor.stop() }
            let output = try #require(compositor.outputSizes.first)
            let logical = kind == .sway ? (output.width / scale, output.height / scale) : (output.width, output.height)
            let geometry = "XWAYLAND0 \(logical.0)x\(logical.1)+0+0 "
            // Xwayland follows the output's size once the compositor has told it.
            var r = try runDoctor(display: compositor.display)
            for _ in 0..<100 where values(r.fields, "monitor").first?.hasPrefix(geometry) != true {
                usleep(50_000)
                r = try runDoctor(display: compositor.display)
            }
            #expect(r.status == 0, "\(r.stderr)")
            Self.expectKeys(r.fields, r.stdout)
            let f = r.fields
            #expect(values(f, "display") == [compositor.display])
            #expect(values(f, "server").first?.hasPrefix("Xwayland 22.") == true, "\(r.stdout)")
            #expect(values(f, "window-manager") == [kind == .weston ? "Weston WM" : "wlroots wm"], "\(r.stdout)")
            #expect(values(f, "monitor").first?.hasPrefix(geometry) == true, "\(r.stdout)")
            #expect(values(f, "xft-dpi") == ["none"])
            #expect(values(f, "scale").first?.hasPrefix("1 (XWAYLAND0 ") == true, "\(r.stdout)")
            // Headless, no input devices: XInput 2.4 and its gestures, no touchscreen.
            #expect(values(f, "xinput") == ["2.4"], "\(r.stdout)")
            #expect(values(f, "touch") == ["no touchscreen"], "\(r.stdout)")
            #expect(values(f, "touchpad-gestures") == ["yes (XInput 2.4)"], "\(r.stdout)")
            #expect(values(f, "mit-shm") == ["yes"] && values(f, "present") == ["yes"], "\(r.stdout)")
            #expect(values(f, "screensaver-extension") == ["no"] && values(f, "dpms") == ["no"], "\(r.stdout)")
            #expect(values(f, "inhibit-service") == ["no session bus"], "\(r.stdout)")
            let advice = values(f, "advice")
            #expect(
                advice.contains { $0.contains("under Xwayland the X screen is usually in logical pixels") },
                "\(r.stdout)")
            #expect(advice.contains { $0.hasPrefix("no touchscreen") }, "\(r.stdout)")
            #expect(advice.contains { $0.hasPrefix("no MIT-SCREEN-SAVER") && $0.contains("compositor") }, "\(r.stdout)")
            // GDK_SCALE=2 is obeyed there too (the user asked for it).
            #expect(
                values(try runDoctor(display: compositor.display, environment: ["GDK_SCALE": "2"]).fields, "scale") == [
                    "2 (GDK_SCALE=2)"
                ])
        }
    }
}
