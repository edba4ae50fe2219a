import Foundation
import GestureTestSupport
import Testing

/// `scripts/test-filter` (quiet logs that show failures in full): what it keeps
/// of Swift Testing's output, its count, and — when the test process dies before the closing
/// line — the tests that were running (a crash otherwise leaves a backtrace and "0 passed",
/// and nothing says which test died).
@Suite("scripts/test-filter: failures in full, a count, the tests running at a crash")
struct TestFilterTests {
    static func filter(_ input: String) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: repositoryRoot + "/scripts/test-filter")
        let stdin = Pipe()
        let stdout = Pipe()
        p.standardInput = stdin
        p.standardOutput = stdout
        try p.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        return String(decoding: out, as: UTF8.self)
    }

    static let start = """
        ◇ Test run started.
        ◇ Suite "Parsing" started.
        ◇ Test "reads a line" started.
        ◇ Test cases(n:) started.
        ◇ Test case passing 1 argument n → 1 to cases(n:) started.
        ✔ Test "reads a line" passed after 0.001 seconds.
        ◇ Test "throws" started.
        ✘ Test "throws" recorded an issue at P.swift:9:5: Expectation failed: 1 == 2
        ↳ a detail
        ✘ Test "throws" failed after 0.002 seconds with 1 issue.
        ◇ Test "needs a server" started.
        ➜ Test "needs a server" skipped: "no server"

        """

    @Test("a whole run: failures and skips in full, started and passed records hidden, a count")
    func wholeRun() throws {
        let out = try Self.filter(
            Self.start + """
                ✔ Test cases(n:) with 1 test case passed after 0.003 seconds.
                ✘ Test run with 4 tests in 1 suite failed after 0.01 seconds with 1 issue.

                """)
        #expect(
            out == """
                ✘ Test "throws" recorded an issue at P.swift:9:5: Expectation failed: 1 == 2
                ↳ a detail
                ✘ Test "throws" failed after 0.002 seconds with 1 issue.
                ➜ Test "needs a server" skipped: "no server"
                ✘ Test run with 4 tests in 1 suite failed after 0.01 seconds with 1 issue.
                tests: 2 passed, 1 failed, 1 skipped

                """)
    }

    @Test("a run cut short: the crash's lines, then the tests started and not finished")
    func crashedRun() throws {
        let out = try Self.filter(Self.start + "💣 Program crashed: Bad pointer dereference\n")
        #expect(
            out.hasSuffix(
                """
                💣 Program crashed: Bad pointer dereference
                swift test ended before its closing line (a crash?); tests started, not finished:
                  Test cases(n:)
                tests: 1 passed, 1 failed, 1 skipped

                """), "\(out)")
    }
}
