import Foundation
import GestureKit
import GestureTestSupport
import GestureTrace
import GesturesDemo
import Testing

/// The `gestures` executable, run as a subprocess: the build product beside this test bundle
/// (`.build*/debug/gestures`).
struct CLI {
    static let executable: String = {
        let bundle = ResourceLocator.executablePath() ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: bundle).deletingLastPathComponent().appendingPathComponent("gestures").path
    }()

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var lines: [String] { stdout.split(separator: "\n").map(String.init) }
    }

    static func run(_ arguments: [String], environment: [String: String]? = nil) throws -> Result {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = ":9999"  // replay and layout must not care
        for (k, v) in environment ?? [:] { env[k] = v }
        p.environment = env
        let out = Pipe()
        let err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Result(
            status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
            stderr: String(decoding: e, as: UTF8.self))
    }

    static var available: Bool { FileManager.default.isExecutableFile(atPath: executable) }
}

/// A scratch folder for this test run.
let scratch: String = {
    let dir = NSTemporaryDirectory() + "gestures-demo-tests-\(getpid())"
    try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    removeAtExit(dir)
    return dir
}()

func write(_ name: String, _ text: String) -> String {
    let path = scratch + "/" + name
    _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    return path
}

func writeMode(_ name: String, _ text: String, _ mode: mode_t) -> String {
    let path = write(name, text)
    chmod(path, mode)
    return path
}

@Suite(.enabled(if: CLI.available, "the gestures executable is built beside the tests"))
struct CLITests {
    static let tapTrace = """
        {"type":"viewport","width":800,"height":600}
        {"type":"down","t":0.0,"id":1,"x":200.0,"y":130.0}
        {"type":"up","t":0.1,"id":1,"x":200.0,"y":130.0}

        """

    @Test @MainActor func replayPrintsTheWholeLog() throws {
        let trace = write("tap.jsonl", Self.tapTrace)
        let r = try CLI.run(["replay", trace])
        #expect(r.status == 0)
        #expect(r.stderr == "")
        // The same log as the scene gives in-process.
        let loaded = try TraceReader.read(path: trace, size: nil, device: nil)
        let (_, expected) = replayLog(loaded.events, size: loaded.viewport)
        #expect(r.lines == expected)
        #expect(r.lines.first == DemoLayout(size: Size(width: 800, height: 600)).line)
        #expect(r.lines.contains { $0.contains(#""recognizer":"tap","kind":"tap","state":"ended""#) })
        #expect(r.lines.last?.hasPrefix(#"{"type":"final","label":"Tapped","#) == true)
    }

    @Test func sizeOptionWinsOverTheViewportLine() throws {
        let trace = write("tap2.jsonl", Self.tapTrace)
        let r = try CLI.run(["replay", trace, "--size", "1024x768"])
        #expect(r.status == 0)
        #expect(r.lines.first == layout1024.line)
    }

    @Test func replayIsRepeatable() throws {
        let tour = repositoryRoot + "/Resources/tour.jsonl"
        let a = try CLI.run(["replay", tour])
        let b = try CLI.run(["replay", tour])
        #expect(a.status == 0 && a.stdout == b.stdout)
        #expect(a.lines.count > 50)
        #expect(a.lines.last?.hasPrefix(#"{"type":"final","label":"Shaking things up!""#) == true)
    }

    @Test func pngOfTheFinalFrame() throws {
        let out = scratch + "/final.png"
        try? FileManager.default.removeItem(atPath: out)
        let r = try CLI.run(["replay", repositoryRoot + "/Resources/tour.jsonl", "--png", out, "--size", "640x480"])
        #expect(r.status == 0)
        let data = try #require(FileManager.default.contents(atPath: out))
        let bytes = [UInt8](data)
        #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        // IHDR: width and height big-endian at bytes 16…23.
        func be32(_ i: Int) -> Int { bytes[i..<(i + 4)].reduce(0) { $0 << 8 | Int($1) } }
        #expect(be32(16) == 640 && be32(20) == 480)
        #expect(bytes.count > 10_000)
    }

    @Test func playgroundReplayAndPNG() throws {
        let spec = write(
            "spec.json", #"[{"name":"t","kind":"tap","frame":[100,100,200,100]},{"name":"root pan","kind":"pan"}]"#)
        let trace = write("tap3.jsonl", Self.tapTrace)
        let out = scratch + "/playground.png"
        let r = try CLI.run(["replay", trace, "--recognizers", spec, "--png", out])
        #expect(r.status == 0)
        #expect(
            r.lines == [
                #"{"type":"gesture","t":0.1,"recognizer":"t","kind":"tap","state":"ended","x":200.0,"y":130.0,"touches":1,"taps":1}"#,
                #"{"type":"gesture","t":0.1,"recognizer":"root pan","kind":"pan","state":"failed","x":200.0,"y":130.0,"touches":1,"translation":[0.0,0.0],"velocity":[0.0,0.0]}"#,
            ])
        #expect(FileManager.default.contents(atPath: out)?.starts(with: [0x89, 0x50]) == true)
    }

    @Test func layoutCommand() throws {
        let r = try CLI.run(["layout"])
        #expect(r.status == 0 && r.lines == [layout1024.line])
        let s = try CLI.run(["layout", "--size", "800x600"])
        #expect(s.lines == [DemoLayout(size: Size(width: 800, height: 600)).line])
    }

    @Test func helpExitsZero() throws {
        for args in [["--help"], ["replay", "--help"], ["layout", "--help"], ["help", "replay"]] {
            let r = try CLI.run(args)
            #expect(r.status == 0, "\(args)")
            #expect(r.stdout.contains("USAGE: gestures"), "\(args)")
        }
    }

    /// `run` lines are parsed by `RunCommand` directly (Gestures.directRun); help and version still
    /// come from the root command, as `gestures run` (parsed as a root, `run` would call itself
    /// `run` and have no `--version`).
    @Test(arguments: [["run", "--help"], ["run", "-h"]])
    func runHelpIsTheRoots(arguments: [String]) throws {
        let r = try CLI.run(arguments)
        #expect(r.status == 0)
        #expect(r.stdout.contains("USAGE: gestures run <options>"))
        #expect(r.stderr == "")
    }

    /// The completion script asked after `run`: `run`'s direct parse (`Gestures.directRun`) must
    /// hand the line to the root's parse, which writes the script.
    @Test(arguments: ["bash", "zsh", "fish"])
    func runCompletionScriptIsTheRoots(shell: String) throws {
        let root = try CLI.run(["--generate-completion-script", shell])
        let run = try CLI.run(["run", "--generate-completion-script", shell])
        #expect(root.status == 0 && run.status == 0)
        #expect(root.stdout.contains("gestures"), "a script: \(root.stdout.prefix(80))")
        #expect(run.stdout == root.stdout)
        #expect(run.stderr == "")
    }

    @Test func runVersionIsTheRoots() throws {
        let root = try CLI.run(["--version"])
        let run = try CLI.run(["run", "--version"])
        #expect(root.status == 0 && run.status == 0)
        #expect(root.stdout.contains("."), "a version: \(root.stdout)")
        #expect(run.stdout == root.stdout)
        #expect(run.stderr == "")
    }

    @Test("Every kiosk option is in run --help with its default, and in the man page")
    func kioskOptionsDocumented() throws {
        let help = try CLI.run(["run", "--help"]).stdout
        let joined = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for (option, fallback) in [
            ("--kiosk-reset-after <S>", "(default: 60.0)"), ("--kiosk-tour-after <S>", "(default: 90.0)"),
            ("--kiosk-tour <TRACE>", "default: the bundled one"), ("--kiosk-config <FILE>", "(default: none)"),
            ("--allow-blanking", "(default: held off)"), ("--admin-chord <CHORD>", "(default: ctrl+alt+shift+q)"),
            ("--admin-hold <S>", "(default: 2.0)"), ("--admin-corners <S>", "(default: 5.0)"),
            ("--admin-pin-file <FILE>", "Without a PIN (this or $GESTURES_ADMIN_PIN) the admin gesture is only logged"),
            ("--monitor <NAME|INDEX|primary>", "(default: the whole X screen)"),
        ] {
            let at = try #require(joined.range(of: option), "\(option) is not in run --help")
            let rest = joined[at.upperBound...].prefix(260)
            #expect(rest.contains(fallback), "\(option): no \(fallback) in \(rest)")
        }
        let man = try String(contentsOfFile: repositoryRoot + "/dist/gestures.1", encoding: .utf8)
        // The page is generated from the command definitions (scripts/make-man): mdoc's
        // `.It Fl -option` lines.
        for option in [
            "kiosk-reset-after", "kiosk-tour-after", "kiosk-tour", "kiosk-config", "allow-blanking",
            "admin-chord", "admin-hold", "admin-corners", "admin-pin-file", "monitor",
        ] {
            #expect(
                man.contains(".It Fl -\(option) ") || man.contains(".It Fl -\(option)\n"),
                "--\(option) is not in dist/gestures.1")
        }
        #expect(man.contains(".It Em monitors"), "gestures monitors is not in dist/gestures.1")
        #expect(try CLI.run(["monitors", "--help"]).status == 0)
    }

    @Test func resourcesFromTheEnvironment() throws {
        // A folder without flower.png: the replay still works (a placeholder is drawn).
        let r = try CLI.run(["layout"], environment: ["GESTURES_RESOURCES": scratch + "/none"])
        #expect(r.status == 0 && r.lines == [layout1024.line])
        let out = scratch + "/placeholder.png"
        let p = try CLI.run(
            ["replay", repositoryRoot + "/Resources/tour.jsonl", "--png", out],
            environment: ["GESTURES_RESOURCES": scratch + "/none"])
        #expect(p.status == 0 && FileManager.default.fileExists(atPath: out))
    }

    /// Bad input: one line on stderr, status 2, nothing on stdout.
    @Test(arguments: [
        (["replay"], "gestures: Missing expected argument '<trace>' (see gestures --help)"),
        (["replay", "t.jsonl", "--frobnicate"], "gestures: Unknown option '--frobnicate' (see gestures --help)"),
        (["frob"], "gestures: Unexpected argument 'frob' (see gestures --help)"),
        (
            ["layout", "--size", "12"],
            #"gestures: --size: expected WIDTHxHEIGHT with positive numbers of points (like 1024x768), got "12""#
        ),
        (
            ["layout", "--size", "0x768"],
            #"gestures: --size: expected WIDTHxHEIGHT with positive numbers of points (like 1024x768), got "0x768""#
        ),
        (
            ["layout", "--size=-5x3"],
            #"gestures: --size: expected WIDTHxHEIGHT with positive numbers of points (like 1024x768), got "-5x3""#
        ),
        (
            ["layout", "--size", "1024x768x2"],
            #"gestures: --size: expected WIDTHxHEIGHT with positive numbers of points (like 1024x768), got "1024x768x2""#
        ),
        (
            ["layout", "--size", "nanxinf"],
            #"gestures: --size: expected WIDTHxHEIGHT with positive numbers of points (like 1024x768), got "nanxinf""#
        ),
        (
            ["replay", "@tap", "--size", "axb"],
            #"gestures: --size: expected WIDTHxHEIGHT with positive numbers of points (like 1024x768), got "axb""#
        ),
        (
            ["layout", "--image", "/nonexistent/x.png"],
            "gestures: /nonexistent/x.png: no such file; expected a PNG or JPEG image"
        ),
        (["replay", "@tap", "--image", "@tap"], "gestures: @tap: expected a PNG or JPEG image; this file is neither"),
        (
            ["replay", "@tap", "--recognizers", "/nonexistent/spec.json"],
            "gestures: /nonexistent/spec.json: no such file"
        ),
        (
            ["replay", "@tap", "--recognizers", "@badspec"],
            #"gestures: @badspec:2: unknown kind "tapp" (expected one of tap, longPress, swipe, pan, screenEdgePan, pinch, rotation, shake)"#
        ),
        (
            ["replay", "@tap", "--recognizers", "@badknob"],
            #"gestures: @badknob:1: expected "numberOfTapsRequired" to be a whole number ≥ 1, got "two""#
        ),
        (
            ["replay", "@tap", "--recognizers", "@badref"],
            #"gestures: @badref:1: "requireToFail" names "doble", which is not a recognizer of this spec (known: single)"#
        ),
        (
            ["replay", "@badspec", "--recognizers", "@tap"],
            "gestures: @tap:2: expected the end of the file after the JSON value"
        ),
        // `gestures run`'s own validation: status 2 like every usage error (not 1).
        (
            ["run", "--scale", "0"],
            "gestures: --scale: expected a number of pixels per point in (0, 8], got 0.0 (see gestures --help)"
        ),
        (
            ["run", "--scale", "nan"],
            "gestures: --scale: expected a number of pixels per point in (0, 8], got nan (see gestures --help)"
        ),
        (["run", "--exit-after-replay"], "gestures: --exit-after-replay needs --replay TRACE (see gestures --help)"),
        (["run", "--device", "x.desc"], "gestures: --device needs --replay TRACE (see gestures --help)"),
        (
            ["run", "--kiosk-reset-after", "0"],
            "gestures: --kiosk-reset-after: expected a positive number of seconds, got 0.0 (see gestures --help)"
        ),
        // Kiosk settings are checked before any window shows.
        // The PIN never on the command line (every local user sees it in ps); a PIN file only
        // its owner can read.
        (
            ["run", "--kiosk", "--admin-pin", "2468"],
            "gestures: --admin-pin: a PIN on the command line is visible to every local user (ps); put it in a file (--admin-pin-file FILE, mode 0600) or in GESTURES_ADMIN_PIN (see gestures --help)"
        ),
        (
            ["run", "--kiosk", "--admin-pin-file", "@pinopen"],
            "gestures: --admin-pin-file: @pinopen is readable by others (mode 644); chmod 600 it"
        ),
        (
            ["run", "--kiosk", "--admin-pin-file", "@pinshort"],
            "gestures: the admin PIN (--admin-pin-file or GESTURES_ADMIN_PIN): expected 4 to 12 digits"
        ),
        (
            ["run", "--kiosk", "--admin-chord", "q"],
            #"gestures: --admin-chord: a letter or digit needs at least one modifier (a visitor's keyboard types it): "q""#
        ),
        (
            ["run", "--kiosk", "--kiosk-config", "@badconf"],
            #"gestures: @badconf:2: reset-after: expected a positive number of seconds, got "soon""#
        ),
        (
            ["run", "--kiosk", "--kiosk-config", "@badkey"],
            #"gestures: @badkey:1: unknown key "delay" (expected image, reset-after, tour-after, tour)"#
        ),
        (["run", "--admin-pin-file", "/x"], "gestures: --admin-pin-file needs --kiosk (see gestures --help)"),
        // `run` lines with and without the subcommand's name (Gestures.directRun parses them, and
        // hands what it rejects to the root's parse): the root's one-line messages.
        (["run", "--frobnicate"], "gestures: Unknown option '--frobnicate' (see gestures --help)"),
        (["--frobnicate"], "gestures: Unknown option '--frobnicate' (see gestures --help)"),
        (
            ["--scale", "0"],
            "gestures: --scale: expected a number of pixels per point in (0, 8], got 0.0 (see gestures --help)"
        ),
        (["run", "run"], "gestures: Unexpected argument 'run' (see gestures --help)"),
        (
            ["replay", "@badspec", "--recognizers", "@object"],
            #"gestures: @object:1: expected an array of recognizer objects or an object with "views" and "recognizers", got one recognizer object (put it in [ ])"#
        ),
    ])
    func badInput(arguments: [String], message: String) throws {
        let files = [
            "@tap": write("ok.jsonl", Self.tapTrace),
            "@badspec": write("badspec.json", "[\n{\"kind\":\"tapp\"}]"),
            "@badknob": write("badknob.json", #"[{"kind":"tap","numberOfTapsRequired":"two"}]"#),
            "@object": write("object.json", #"{"kind":"tap"}"#),
            "@badref": write("badref.json", #"[{"kind":"tap","name":"single","requireToFail":["doble"]}]"#),
            "@badconf": write("bad.conf", "# kiosk\nreset-after = soon\n"),
            "@badkey": write("badkey.conf", "delay = 3\n"),
            "@pinopen": writeMode("pin-open", "2468\n", 0o644),
            "@pinshort": writeMode("pin-short", "12\n", 0o600),
        ]
        let args = arguments.map { files[$0] ?? $0 }
        var expected = message
        for (k, v) in files { expected = expected.replacingOccurrences(of: k, with: v) }
        let r = try CLI.run(args)
        #expect(r.status == 2)
        #expect(r.stdout == "")
        #expect(r.stderr == expected + "\n")
    }

    /// A malformed trace line: the reader's own message, prefixed, status 2, nothing replayed.
    @Test(arguments: [
        "{\"type\":\"down\",\"t\":0,\"id\":1,\"x\":1,\"y\":2}\n{\"type\":\"move\",\"t\":\"x\",\"id\":1,\"x\":1,\"y\":2}\n",
        "{\"type\":\"down\",\"t\":0,\"id\":1,\"x\":1,\"y\":2}\n{\"type\":\"down\",\"t\":0.1,\"id\":2,\"x\":1,\"y\":2}\nnot json\n",
        "{\"type\":\"down\",\"t\":1,\"id\":1,\"x\":1,\"y\":2}\n{\"type\":\"up\",\"t\":0.5,\"id\":1,\"x\":1,\"y\":2}\n",
        "{\"type\":\"teleport\",\"t\":1}\n",
    ])
    func badTrace(text: String) throws {
        let path = write("bad-\(abs(text.hashValue)).jsonl", text)
        var expected = ""
        do {
            _ = try TraceReader.read(path: path, size: nil, device: nil)
            Issue.record("the reader accepted \(text)")
        } catch {
            expected = "gestures: " + error.description + "\n"
            #expect(error.line > 0)
        }
        let r = try CLI.run(["replay", path])
        #expect(r.status == 2)
        #expect(r.stdout == "")
        #expect(r.stderr == expected)
        #expect(r.stderr.hasPrefix("gestures: \(path):"))
        #expect(r.stderr.split(separator: "\n").count == 1)
    }

    @Test func missingTraceFile() throws {
        let r = try CLI.run(["replay", "/nonexistent/t.jsonl"])
        #expect(r.status == 2 && r.stdout == "")
        #expect(r.stderr.hasPrefix("gestures: /nonexistent/t.jsonl: ") && r.stderr.split(separator: "\n").count == 1)
    }

    /// A `--png` that cannot be written is found before the replay, not after it.
    @Test(
        "An unwritable --png: usage error before anything is replayed",
        arguments: [
            ("/nonexistent/dir/x.png", "no such folder /nonexistent/dir"),
            ("@file/x.png", "no such folder @file"),
            ("@dir", "is a folder"),
        ])
    func unwritablePNGIsRefusedBeforeReplaying(path: String, why: String) throws {
        let trace = write("ok2.jsonl", Self.tapTrace)
        let file = write("not-a-folder", "x")
        let path = path.replacingOccurrences(of: "@file", with: file).replacingOccurrences(of: "@dir", with: scratch)
        let why = why.replacingOccurrences(of: "@file", with: file)
        let r = try CLI.run(["replay", trace, "--png", path])
        #expect(r.status == 2)
        #expect(r.stdout == "")  // nothing was replayed
        #expect(r.stderr == "gestures: --png: cannot write \(path): \(why)\n")
    }
}

@Suite struct MissingResourceTests {
    @Test("Without the bundled flower: one warning line, a placeholder, status 0", arguments: [["layout"], ["replay"]])
    func missingFlower(command: [String]) throws {
        var arguments = command
        if command == ["replay"] { arguments.append(write("missing-flower.jsonl", CLITests.tapTrace)) }
        let r = try CLI.run(arguments, environment: ["GESTURES_RESOURCES": scratch + "/no-resources-here"])
        #expect(r.status == 0)
        let warning =
            "gestures: warning: the bundled image (flower.png) is missing; the image region shows a placeholder"
        #expect(r.stderr == warning + "\n")
        #expect(r.lines.first?.contains("\"type\":\"layout\"") == true)
    }
}

@Suite struct ResourceLocatorTests {
    @Test func searchOrder() {
        #expect(ResourceLocator.candidates(override: "/opt/x", executable: "/usr/bin/gestures") == ["/opt/x"])
        #expect(
            ResourceLocator.candidates(override: nil, executable: "/usr/local/bin/gestures") == [
                "/usr/local/bin/../share/gestures", "/usr/local/bin/Resources", "/usr/local/Resources",
                "/usr/Resources",
                "/Resources",
            ])
        #expect(ResourceLocator.candidates(override: "", executable: nil) == [])
    }

    @Test func findsTheRepositoryFlowerFromABuildFolder() {
        let exe = repositoryRoot + "/.build/debug/gestures"
        #expect(
            ResourceLocator.path(of: "flower.png", override: nil, executable: exe) == repositoryRoot
                + "/Resources/flower.png"
        )
        #expect(ResourceLocator.path(of: "missing.png", override: nil, executable: exe) == nil)
    }

    @Test func theFlowerIsARealRGBAPicture() throws {
        let image = try DemoImage(path: repositoryRoot + "/Resources/flower.png")
        #expect(image.size == Size(width: 300, height: 300))
    }
}
