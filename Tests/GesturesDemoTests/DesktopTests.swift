import Foundation
import GestureShellCore
import GestureTestSupport
import GesturesDemo
import Testing

/// Desktop integration: `--version`, the man page generated from the command
/// definitions (scripts/make-man), the .desktop file, and the icon that scripts/install puts
/// into the hicolor theme.
@Suite(.enabled(if: CLI.available, "the gestures executable is built beside the tests"))
struct DesktopTests {
    static let manPage = repositoryRoot + "/dist/gestures.1"

    /// Runs a program; its exit status and what it printed (stdout and stderr together).
    static func run(_ program: String, _ arguments: [String]) throws -> (Int32, String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: program)
        p.arguments = arguments
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return (p.terminationStatus, text)
    }

    @Test func versionPrintsOneLineAndStatusZero() throws {
        let r = try CLI.run(["--version"])
        #expect(r.status == 0)
        #expect(r.stderr == "")
        let version = r.stdout.trimmingCharacters(in: .newlines)
        #expect(r.lines.count == 1)
        #expect(
            version.split(separator: ".").count == 3 && version.split(separator: ".").allSatisfy { Int($0) != nil },
            "\(r.stdout)")
        // The man page carries the same version (its footer).
        let page = try String(contentsOfFile: Self.manPage, encoding: .utf8)
        #expect(page.contains("\n.Os Gestures \(version)\n"), "dist/gestures.1 is older: run scripts/make-man")
    }

    /// Every option, flag and argument of every command in `--help` (with its help line), every
    /// key binding and every exit status is in dist/gestures.1. Fails until scripts/make-man is
    /// run after a change.
    @Test func manPageListsEveryOptionKeyAndStatus() throws {
        let r = try CLI.run(["--experimental-dump-help"])
        #expect(r.status == 0)
        let tool = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let root = try #require(tool["command"] as? [String: Any])
        let page = try String(contentsOfFile: Self.manPage, encoding: .utf8)
        var missing: [String] = []
        var seen = 0
        func visit(_ command: [String: Any]) {
            let name = command["commandName"] as? String ?? "?"
            for argument in command["arguments"] as? [[String: Any]] ?? [] {
                guard argument["shouldDisplay"] as? Bool == true else { continue }
                seen += 1
                let names = (argument["names"] as? [[String: String]] ?? []).map { n in
                    n["kind"] == "short" ? "Fl \(n["name"]!)" : "Fl -\(n["name"]!)"
                }
                let marks = names.isEmpty ? ["Ar \(argument["valueName"] as? String ?? "?")"] : names
                for mark in marks where !page.contains(mark) { missing.append("\(name): \(mark)") }
                if let help = argument["abstract"] as? String, !page.contains(help) {
                    missing.append("\(name): the help of \(marks[0]): \(help)")
                }
            }
            for sub in command["subcommands"] as? [[String: Any]] ?? [] { visit(sub) }
        }
        visit(root)
        #expect(seen > 25, "only \(seen) options in the help: the dump's format changed?")
        for (keys, action) in KeyBindings.summary where !page.contains(".It \"\(keys)\"\n\(action)\n") {
            missing.append("key \(keys): \(action)")
        }
        // EXIT STATUS: exactly 0, 1 and 2, each explained.
        let exitSection =
            try #require(page.components(separatedBy: ".Sh \"EXIT STATUS\"\n").last)
            .components(separatedBy: "\n.Sh ").first ?? ""
        let statuses = exitSection.split(separator: "\n").filter { $0.hasPrefix(".It ") }
        #expect(statuses == [#".It "0""#, #".It "1""#, #".It "2""#], "\(exitSection)")
        #expect(missing.isEmpty, "dist/gestures.1 lacks (run scripts/make-man): \(missing)")
    }

    @Test func desktopFileValidates() throws {
        let (status, text) = try Self.run("/usr/bin/desktop-file-validate", [repositoryRoot + "/dist/gestures.desktop"])
        #expect(status == 0 && text.isEmpty, "\(text)")
        let desktop = try String(contentsOfFile: repositoryRoot + "/dist/gestures.desktop", encoding: .utf8)
        #expect(desktop.contains("\nIcon=gestures\n"))
    }

    /// scripts/install (with the debug binary, no release build) into a scratch prefix: the icon
    /// in every size and the SVG land in share/icons/hicolor, where the installed binary finds them.
    @Test func installPutsTheIconIntoTheHicolorTheme() throws {
        let prefix = scratch + "/prefix-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: prefix) }
        let (status, text) = try Self.run(repositoryRoot + "/scripts/install", ["--bin", CLI.executable, prefix])
        #expect(status == 0, "\(text)")
        let theme = prefix + "/share/icons/hicolor"
        for size in [16, 22, 24, 32, 48, 64, 128, 256] {
            let png = "\(theme)/\(size)x\(size)/apps/gestures.png"
            let image = try DemoImage(path: png)
            #expect(image.size.width == Double(size) && image.size.height == Double(size), "\(png)")
        }
        let svg = try String(contentsOfFile: theme + "/scalable/apps/gestures.svg", encoding: .utf8)
        #expect(svg.contains("<svg") && svg.contains("viewBox=\"0 0 256 256\""))
        #expect(FileManager.default.fileExists(atPath: prefix + "/share/applications/gestures.desktop"))
        #expect(FileManager.default.fileExists(atPath: prefix + "/share/man/man1/gestures.1"))
        let installed = prefix + "/bin/gestures"
        for size in ResourceLocator.windowIconSizes {
            let found = ResourceLocator.iconPath(size: size, override: nil, executable: installed)
            #expect(found == prefix + "/bin/../share/icons/hicolor/\(size)x\(size)/apps/gestures.png")
        }
    }
}
