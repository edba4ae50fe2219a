import Foundation
import GestureShellCore
import GestureTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The admin PIN's backoff kept on disk across restarts, on a virtual wall clock: a "restart"
/// is a new ``AdminExit`` and a new ``PinLockoutFile`` reading what the last one wrote.
@Suite("PIN backoff across restarts (state file, virtual wall clock)")
struct PinLockoutFileTests {
    /// A wall clock the test moves.
    final class WallClock: @unchecked Sendable {
        var now: Double
        init(_ now: Double) { self.now = now }
    }

    /// A kiosk start: the admin exit with what `path` holds taken up, as the `gestures` command
    /// does (at shell time 0).
    static func start(
        _ path: String, _ wall: WallClock
    ) throws -> (admin: AdminExit, file: PinLockoutFile, found: PinLockoutFile.LoadResult) {
        let file = PinLockoutFile(path: path) { wall.now }
        var admin = try AdminExit(hold: 0, pin: "2468")
        let found = file.load()
        if case .restored(let state) = found {
            admin.restore(misses: state.misses, lockedFor: file.remaining(of: state), at: 0)
        }
        return (admin, file, found)
    }

    /// A wrong PIN typed at shell time `t` (the pad brought up first when it is not), saved as
    /// the kiosk saves it.
    static func miss(_ a: inout AdminExit, _ file: PinLockoutFile, at t: Double) -> AdminExit.Outcome? {
        if !a.asksForPIN, let refused = a.gestureCompleted(at: t), refused != .pinRequested { return refused }
        for d in [1, 3, 5, 7] { _ = a.padPressed(.digit(d), at: t) }
        let outcome = a.padPressed(.ok, at: t)
        if case .pinRejected(let misses, let lockedFor) = outcome {
            #expect(file.save(file.state(misses: misses, lockedFor: lockedFor)) == nil)
        }
        return outcome
    }

    @Test("Round trip: the text written reads back as the same state; the file is mode 0600 and no temporary is left")
    func roundTrip() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file(PinLockoutFile.fileName)
        let wall = WallClock(1_800_000_000.25)
        let file = PinLockoutFile(path: path) { wall.now }
        #expect(file.load() == .absent)
        let state = file.state(misses: 4, lockedFor: 60)
        #expect(state == PinLockout(misses: 4, lockedUntil: 1_800_000_060.25))
        #expect(file.save(state) == nil)
        #expect(PinLockoutFile(path: path).load() == .restored(state))
        var st = stat()
        #expect(stat(path, &st) == 0 && st.st_mode & 0o777 == 0o600, "mode \(String(st.st_mode & 0o777, radix: 8))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == [PinLockoutFile.fileName])
        #expect(file.state(misses: 1, lockedFor: 0) == PinLockout(misses: 1, lockedUntil: 0))
    }

    @Test(
        "Three misses, then a restart 10 s later: the gesture is refused for the 20 s left, and the next miss locks 60 s, not 30"
    )
    func lockoutSurvivesRestart() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file(PinLockoutFile.fileName)
        let wall = WallClock(1_800_000_000)
        var (a, file, found) = try Self.start(path, wall)
        #expect(found == .absent)
        #expect(Self.miss(&a, file, at: 1) == .pinRejected(misses: 1, lockedFor: 0))
        #expect(Self.miss(&a, file, at: 2) == .pinRejected(misses: 2, lockedFor: 0))
        wall.now += 3
        #expect(Self.miss(&a, file, at: 3) == .pinRejected(misses: 3, lockedFor: 30))
        // The kiosk is killed; it starts again 10 s later (its shell clock from 0).
        wall.now += 10
        var (b, file2, found2) = try Self.start(path, wall)
        #expect(found2 == .restored(PinLockout(misses: 3, lockedUntil: 1_800_000_033)))
        #expect(b.misses == 3)
        #expect(b.gestureCompleted(at: 0) == .lockedOut(remaining: 20))
        #expect(b.gestureCompleted(at: 19.5) == .lockedOut(remaining: 0.5))
        // After the lockout, the next miss goes on doubling.
        wall.now += 20
        #expect(Self.miss(&b, file2, at: 20) == .pinRejected(misses: 4, lockedFor: 60))
        // The right PIN clears it on disk too.
        wall.now += 60
        #expect(b.advance(to: 80) == .pinCancelled, "the pad's timeout")
        #expect(b.gestureCompleted(at: 80) == .pinRequested)
        for d in [2, 4, 6, 8] { _ = b.padPressed(.digit(d), at: 80) }
        #expect(b.padPressed(.ok, at: 80) == .exit)
        #expect(file2.save(PinLockout(misses: 0, lockedUntil: 0)) == nil)
        let (c, _, found3) = try Self.start(path, wall)
        #expect(found3 == .restored(PinLockout(misses: 0, lockedUntil: 0)))
        #expect(c.misses == 0)
    }

    @Test("An expired lockout: the restart asks for the PIN at once, the misses still counted")
    func expiredLockout() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file(PinLockoutFile.fileName)
        let wall = WallClock(1_800_000_000)
        let file = PinLockoutFile(path: path) { wall.now }
        #expect(file.save(file.state(misses: 5, lockedFor: 120)) == nil)
        wall.now += 121
        var (a, file2, _) = try Self.start(path, wall)
        #expect(a.misses == 5)
        #expect(a.gestureCompleted(at: 0) == .pinRequested)
        #expect(Self.miss(&a, file2, at: 1) == .pinRejected(misses: 6, lockedFor: 240))
    }

    @Test("A wall clock set back a day: the lockout is cut to the longest its misses can start, never longer")
    func clockSetBack() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file(PinLockoutFile.fileName)
        let wall = WallClock(1_800_000_000)
        let file = PinLockoutFile(path: path) { wall.now }
        #expect(file.save(file.state(misses: 3, lockedFor: 30)) == nil)
        wall.now -= 86_400
        var (a, _, _) = try Self.start(path, wall)
        #expect(a.gestureCompleted(at: 0) == .lockedOut(remaining: 30))
    }

    @Test(
        "A damaged, empty, oversized or unreadable file: unusable with a reason, and the kiosk starts fresh",
        arguments: [
            "garbage\n", "", "gestures-admin-pin-lockout 1\nmisses 3\n",
            "gestures-admin-pin-lockout 1\nmisses -2\nlocked-until 5\n",
            "gestures-admin-pin-lockout 1\nmisses 3\nlocked-until nan\n",
            "gestures-admin-pin-lockout 1\nmisses 3\nlocked-until 1800000033\nextra\n",
            String(repeating: "x", count: 300),
        ])
    func corrupt(text: String) throws {
        let dir = try TemporaryDirectory()
        let path = dir.file(PinLockoutFile.fileName)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        let wall = WallClock(1_800_000_000)
        var (a, file, found) = try Self.start(path, wall)
        guard case .unusable(let why) = found else {
            Issue.record("\(found) for \(text.debugDescription)")
            return
        }
        #expect(why.contains(path), "\(why)")
        #expect(a.misses == 0)
        #expect(a.gestureCompleted(at: 0) == .pinRequested)
        // The next save replaces it with a good file.
        #expect(Self.miss(&a, file, at: 1) == .pinRejected(misses: 1, lockedFor: 0))
        #expect(PinLockoutFile(path: path).load() == .restored(PinLockout(misses: 1, lockedUntil: 0)))
    }

    @Test("A folder in place of the file is unusable, not a crash")
    func directoryInPlace() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file(PinLockoutFile.fileName)
        mkdir(path, 0o700)
        guard case .unusable = PinLockoutFile(path: path).load() else {
            Issue.record("a directory was read as a state")
            return
        }
    }

    @Test("A folder that cannot be written: the first failure is reported, a run of them once; after a success again")
    func writeFailures() throws {
        let dir = try TemporaryDirectory()
        let missing = dir.file("gone/\(PinLockoutFile.fileName)")
        let file = PinLockoutFile(path: missing)
        let first = file.save(PinLockout(misses: 1, lockedUntil: 0))
        #expect(first?.contains("cannot write") == true, "\(String(describing: first))")
        #expect(file.save(PinLockout(misses: 2, lockedUntil: 0)) == nil, "reported twice")
        #expect(file.failing)
        mkdir(dir.file("gone"), 0o700)
        #expect(file.save(PinLockout(misses: 3, lockedUntil: 0)) == nil)
        #expect(!file.failing)
        // A folder where the temporary file goes: writing fails again.
        mkdir(missing + ".new", 0o700)
        #expect(file.save(PinLockout(misses: 4, lockedUntil: 0)) != nil, "a new failure after a success is said again")
    }

    @Test(
        "Where it lives: $STATE_DIRECTORY (first of a list), else beside the operator log; nowhere for stdout or no log"
    )
    func location() {
        let name = PinLockoutFile.fileName
        #expect(PinLockoutFile.defaultPath(stateDirectory: "/s/g", operatorLog: "/l/e.jsonl") == "/s/g/\(name)")
        #expect(PinLockoutFile.defaultPath(stateDirectory: "/s/a:/s/b", operatorLog: nil) == "/s/a/\(name)")
        #expect(PinLockoutFile.defaultPath(stateDirectory: nil, operatorLog: "/l/e.jsonl") == "/l/\(name)")
        #expect(PinLockoutFile.defaultPath(stateDirectory: "", operatorLog: "e.jsonl") == name)
        #expect(PinLockoutFile.defaultPath(stateDirectory: nil, operatorLog: "/e.jsonl") == "/\(name)")
        #expect(PinLockoutFile.defaultPath(stateDirectory: nil, operatorLog: "-") == nil)
        #expect(PinLockoutFile.defaultPath(stateDirectory: nil, operatorLog: nil) == nil)
    }
}
