import Foundation
import GestureTestSupport
import Testing

/// scripts/install with `DESTDIR` (a staged install, as scripts/package makes one): every file
/// lands under `DESTDIR/PREFIX`, nothing under `PREFIX`, and what the files say names `PREFIX`
/// alone — the systemd unit's `ExecStart` must not carry the staging folder.
@Suite(.enabled(if: CLI.available, "the gestures executable is built beside the tests"))
struct StagedInstallTests {
    @Test func destdirStagesWithoutWritingTheStagingPathIntoTheFiles() throws {
        let base = scratch + "/staged-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: base) }
        let prefix = base + "/prefix"
        let stage = base + "/stage"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: repositoryRoot + "/scripts/install")
        p.arguments = ["--bin", CLI.executable, prefix]
        p.environment = ProcessInfo.processInfo.environment.merging(
            ["DESTDIR": stage, "EXAMPLESDIR": "/usr/share/doc/gestures/examples"]
        ) { $1 }
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "\(text)")

        let files = FileManager.default
        #expect(!files.fileExists(atPath: prefix), "a staged install wrote into PREFIX itself")
        for path in [
            "/bin/gestures", "/share/gestures/tour.jsonl", "/share/gestures/flower.png",
            "/share/applications/gestures.desktop", "/share/man/man1/gestures.1",
            "/share/icons/hicolor/scalable/apps/gestures.svg",
        ] {
            #expect(files.fileExists(atPath: stage + prefix + path), "\(path) not staged")
        }
        for example in ["xinitrc-kiosk", "kiosk.conf"] {
            #expect(files.fileExists(atPath: stage + "/usr/share/doc/gestures/examples/" + example))
        }
        let unit = try String(
            contentsOfFile: stage + prefix + "/lib/systemd/user/gestures-kiosk.service", encoding: .utf8)
        let execStart = unit.split(separator: "\n").filter { $0.hasPrefix("ExecStart=") }
        #expect(execStart == ["ExecStart=\(prefix)/bin/gestures run --kiosk --log-events %S/gestures/events.jsonl"])
        #expect(!unit.contains(stage))
        #expect(!unit.contains("@BINDIR@"))
    }
}
