#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What the admin exit's backoff must remember across restarts: the wrong PINs in a row and
/// when the lockout they started ends, in wall-clock seconds (`CLOCK_REALTIME`, since the
/// epoch; 0 for no lockout). Wall-clock time because the shell's monotonic clock starts again
/// with every launch and `CLOCK_MONOTONIC` with every boot.
public struct PinLockout: Equatable, Sendable {
    public var misses: Int
    public var lockedUntil: Double

    public init(misses: Int, lockedUntil: Double) {
        self.misses = misses
        self.lockedUntil = lockedUntil
    }
}

/// The kiosk's PIN backoff on disk (UIKit has none: iOS keeps its passcode backoff in the
/// Secure Enclave), so that a restart — a crash, the watchdog, a visitor pulling the power —
/// does not give a fresh set of guesses.
///
/// **Where it lives**: `admin-pin-lockout` in `$STATE_DIRECTORY` when systemd sets it (the
/// unit's `StateDirectory=gestures`, `~/.local/state/gestures`), else in the operator log's
/// folder (`--log-events FILE`), the one place a sandboxed kiosk may write
/// (``PinLockoutFile/defaultPath(stateDirectory:operatorLog:)``). Without either, the backoff is
/// kept in memory only and the kiosk says so once at start.
///
/// **What it holds**: three lines of text, `gestures-admin-pin-lockout 1`, `misses N`,
/// `locked-until S` (wall-clock seconds, see ``PinLockout``). It is written after every wrong
/// PIN and after the right one (misses 0), atomically — a temporary file in the same folder,
/// `fsync`, then `rename` over the old one — with mode 0600, so a power cut leaves the old state
/// or the new one, never half a file.
///
/// **When it cannot be used**: an absent file is the normal state before the first wrong PIN
/// (nothing is said). A file that cannot be read or does not parse (or holds a count out of
/// range) is taken as no misses: the kiosk starts fresh and says so once (``load()`` returns
/// ``LoadResult/unusable(_:)``; the kiosk logs it on stderr and in the operator log), since a
/// kiosk that refused to start over a damaged state file would darken the exhibit. A file that
/// cannot be written (a full disk, a read-only folder) never stops the kiosk: ``save(_:)``
/// reports the first failure of a run of failures once and the backoff goes on in memory.
///
/// **Clocks**: a lockout end in the past has expired; one further ahead than the longest
/// lockout for its misses (the wall clock was set back) is cut to that longest lockout
/// (``remaining(of:)``), so a clock change can shorten a lockout but never lengthen it past
/// an hour.
public final class PinLockoutFile {
    /// What ``load()`` found.
    public enum LoadResult: Equatable, Sendable {
        /// No file: no wrong PIN to remember.
        case absent
        /// The state a previous run left.
        case restored(PinLockout)
        /// A file that cannot be read or parsed (the reason): the kiosk starts fresh.
        case unusable(String)
    }

    /// The state file's name in its folder.
    public static let fileName = "admin-pin-lockout"

    public let path: String
    /// The wall clock, seconds since the epoch (a virtual one in tests).
    public let wallClock: () -> Double
    /// Whether the last ``save(_:)`` failed (the next failure is then not reported again).
    public private(set) var failing = false

    public init(path: String, wallClock: @escaping () -> Double = PinLockoutFile.realtime) {
        self.path = path
        self.wallClock = wallClock
    }

    /// `CLOCK_REALTIME`, seconds.
    public static func realtime() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Where the state file lives: in `stateDirectory` (`$STATE_DIRECTORY`; the first of a
    /// colon-separated list) when given, else beside `operatorLog` (not `-`, stdout); nil when
    /// neither names a folder.
    public static func defaultPath(stateDirectory: String?, operatorLog: String?) -> String? {
        if let first = stateDirectory?.split(separator: ":").first, !first.isEmpty {
            return String(first) + "/" + fileName
        }
        guard let log = operatorLog, !log.isEmpty, log != "-" else { return nil }
        guard let slash = log.lastIndex(of: "/") else { return fileName }
        let folder = log[..<slash]
        return (folder.isEmpty ? "" : String(folder)) + "/" + fileName
    }

    /// Reads the state a previous run left.
    public func load() -> LoadResult {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else {
            if errno == ENOENT { return .absent }
            return .unusable("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else {
            return .unusable("\(path) is not a regular file")
        }
        var bytes = [UInt8](repeating: 0, count: 256)
        var count = 0
        while count < bytes.count {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { return .unusable("cannot read \(path): \(String(cString: strerror(errno)))") }
            if n == 0 { break }
            count += n
        }
        guard count < bytes.count, let state = Self.parse(String(decoding: bytes[..<count], as: UTF8.self)) else {
            return .unusable("\(path) is damaged (expected the lines misses N and locked-until S)")
        }
        return .restored(state)
    }

    /// The file's text for `state`.
    static func text(_ state: PinLockout) -> String {
        "gestures-admin-pin-lockout 1\nmisses \(state.misses)\nlocked-until \(state.lockedUntil)\n"
    }

    /// Parses the file's text; nil when it is not exactly what ``text(_:)`` writes.
    static func parse(_ text: String) -> PinLockout? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count == 4, lines[0] == "gestures-admin-pin-lockout 1", lines[3].isEmpty else { return nil }
        func value(_ line: Substring, _ key: String) -> Substring? {
            line.hasPrefix(key + " ") ? line.dropFirst(key.count + 1) : nil
        }
        guard let m = value(lines[1], "misses").flatMap({ Int($0) }), (0...1_000_000_000).contains(m),
            let until = value(lines[2], "locked-until").flatMap({ Double($0) }), until.isFinite, until >= 0
        else { return nil }
        return PinLockout(misses: m, lockedUntil: until)
    }

    /// Writes `state` atomically (temporary file, fsync, rename; mode 0600). Returns the reason
    /// when it fails and the previous save did not (a run of failures is reported once), else nil.
    @discardableResult
    public func save(_ state: PinLockout) -> String? {
        let why = write(Self.text(state))
        defer { failing = why != nil }
        guard let why, !failing else { return nil }
        return why
    }

    private func write(_ text: String) -> String? {
        let temporary = path + ".new"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { return "cannot write \(temporary): \(String(cString: strerror(errno)))" }
        // Mode 0600 whatever the umask and an older file said.
        _ = fchmod(fd, 0o600)
        let bytes = Array(text.utf8)
        var offset = 0
        var failure: String?
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                failure = "cannot write \(temporary): \(String(cString: strerror(n < 0 ? errno : ENOSPC)))"
                break
            }
            offset += n
        }
        if failure == nil && fsync(fd) != 0 {
            failure = "cannot write \(temporary): \(String(cString: strerror(errno)))"
        }
        close(fd)
        if failure == nil && rename(temporary, path) != 0 {
            failure = "cannot rename \(temporary) to \(path): \(String(cString: strerror(errno)))"
        }
        if failure != nil { unlink(temporary) }
        return failure
    }

    /// Seconds of `state`'s lockout left now (0: none), at most the longest lockout its misses
    /// can have started (``AdminExit/lockout(afterMisses:)``: a wall clock set back does not
    /// lengthen it).
    public func remaining(of state: PinLockout) -> Double {
        let left = state.lockedUntil - wallClock()
        guard left > 0 else { return 0 }
        return min(left, AdminExit.lockout(afterMisses: state.misses))
    }

    /// The state to save after a wrong PIN: `misses` in a row, locked for `lockedFor` seconds
    /// from now (``AdminExit/Outcome/pinRejected(misses:lockedFor:)``).
    public func state(misses: Int, lockedFor: Double) -> PinLockout {
        PinLockout(misses: misses, lockedUntil: lockedFor > 0 ? wallClock() + lockedFor : 0)
    }
}
