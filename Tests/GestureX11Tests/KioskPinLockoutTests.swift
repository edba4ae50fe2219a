import CX11
import Foundation
import GestureTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension XServerTests {
    /// The PIN backoff is kept across restarts: a kiosk killed during a lockout is still locked
    /// out when it comes back (its state file in `$STATE_DIRECTORY`, as under the unit).
    @Suite("gestures run --kiosk: the PIN lockout survives a restart")
    struct KioskPinLockout {
        @Test(
            "Three wrong PINs lock the pad for 30 s; the kiosk is killed and started again: the admin gesture is refused as locked, and logged"
        )
        func lockoutSurvivesKill() throws {
            let server = try TestXServer()
            defer { server.stop() }
            let connection = try XConnection(server.display)
            defer { connection.close() }
            let state = try TemporaryDirectory()
            let environment = ["GESTURES_ADMIN_PIN": "2468", "STATE_DIRECTORY": state.path]
            let arguments = ["--kiosk", "--admin-hold", "0.5", "--admin-corners", "0"]
            let first = try GesturesApp(
                on: server.display, connection: connection, arguments: arguments, environment: environment)
            holdChord(first, seconds: 0.8)
            _ = try first.log.waitFor("PIN asked") { $0.string("event") == "adminPin" }
            var from = 0
            for miss in 1...3 {
                typeKeys(first, [0x31, 0x31, 0x31, 0x31, 0xFF0D])
                let refused = try first.log.waitFor("miss \(miss)", from: from) {
                    $0.string("event") == "adminRefused"
                }
                #expect(refused.line.number("misses") == Double(miss), "\(refused.line)")
                from = refused.index + 1
                if miss == 3 { #expect(refused.line.number("lockedFor") == 30, "\(refused.line)") }
            }
            // A crash (or a pulled plug): no clean exit.
            first.process.signal(SIGKILL)
            _ = first.waitForExit(timeout: 5)
            var st = stat()
            #expect(stat(state.file("admin-pin-lockout"), &st) == 0 && st.st_mode & 0o777 == 0o600)

            let second = try GesturesApp(
                on: server.display, connection: connection, arguments: arguments, environment: environment)
            defer { second.process.stop() }
            let taken = try second.log.waitFor("adminLockout at start") { $0.string("event") == "adminLockout" }
            #expect(taken.line.number("misses") == 3, "\(taken.line)")
            let left = taken.line.number("remaining") ?? 0
            #expect(left > 10 && left <= 30, "\(taken.line)")
            holdChord(second, seconds: 0.8)
            let refused = try second.log.waitFor("refused as locked") { $0.string("event") == "adminRefused" }
            #expect(refused.line.string("reason") == "locked", "\(refused.line)")
            #expect((refused.line.number("remaining") ?? 0) > 5, "\(refused.line)")
            #expect(!second.log.lines(from: 0).contains { $0.string("event") == "adminPin" }, "the pad came up")
            #expect(second.stderr.contains("admin gesture refused: locked for"), "stderr: \(second.stderr)")
            #expect(second.process.isRunning)
        }
    }
}
