import Foundation
import GestureTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The command line where `/proc` is not mounted (a fresh chroot, a minimal container): the
/// arguments still arrive. The Swift runtime finds `argv` through `/proc/self/maps`; without it
/// `CommandLine.arguments` is empty, and `gestures --version` parsed as `gestures` alone opened
/// the window. Each case runs the binary in its own mount namespace with an empty tmpfs over
/// `/proc` (`unshare --mount`, which needs root: CI runs as root).
@Suite(
    .enabled(if: CLI.available, "the gestures executable is built beside the tests"),
    .enabled(
        if: getuid() == 0 && access("/usr/bin/unshare", X_OK) == 0,
        "hiding /proc needs root and unshare(1) (CI runs as root)"))
struct NoProcTests {
    /// `gestures ARGUMENTS` with `/proc` hidden; status 99 if `/proc/self/maps` was still there.
    static func runWithoutProc(_ arguments: [String]) throws -> CLI.Result {
        let script = #"mount -t tmpfs none /proc && test ! -e /proc/self/maps || exit 99; exec "$@""#
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        p.arguments =
            ["--mount", "--propagation", "private", "/bin/sh", "-c", script, "sh", CLI.executable] + arguments
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = ":9999"  // a window that opens by mistake fails at once
        p.environment = env
        let out = Pipe()
        let err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return CLI.Result(
            status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
            stderr: String(decoding: e, as: UTF8.self))
    }

    @Test func versionWithoutProc() throws {
        let expected = try CLI.run(["--version"])
        let r = try Self.runWithoutProc(["--version"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr == "")
        #expect(r.stdout == expected.stdout)
    }

    /// Every argument arrives, in order: a replay with options prints what it prints with `/proc`.
    @Test func replayWithoutProc() throws {
        let trace = write("noproc-tap.jsonl", CLITests.tapTrace)
        let arguments = ["replay", trace, "--size", "640x480"]
        let expected = try CLI.run(arguments)
        #expect(expected.status == 0, "\(expected.stderr)")
        let r = try Self.runWithoutProc(arguments)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == expected.stdout)
    }
}
