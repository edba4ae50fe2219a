import GestureShellCore
import GestureTrace

#if canImport(Glibc)
    import Glibc
#endif

/// The admin PIN's backoff across restarts (``PinLockoutFile``): where it is kept, what the
/// kiosk says when it cannot be, and the save after every try.
extension KioskRuntime {
    /// The state file: `$STATE_DIRECTORY/admin-pin-lockout` under systemd (the unit's
    /// `StateDirectory=`), else `admin-pin-lockout` beside the operator log; nil with neither.
    static func pinLockoutFile(operatorLog: String?) -> PinLockoutFile? {
        let stateDirectory = getenv("STATE_DIRECTORY").map { String(cString: $0) }
        return PinLockoutFile.defaultPath(stateDirectory: stateDirectory, operatorLog: operatorLog).map {
            PinLockoutFile(path: $0)
        }
    }

    /// At start, with a PIN set: keeps `file` for the saves and logs what it held — a lockout
    /// or misses taken up (`adminLockout`), or a file that could not be used (`adminLockoutLost`,
    /// one stderr line: the count starts again). Without a place for the file, one stderr line
    /// and `adminLockoutInMemory`: a restart then gives a fresh set of guesses.
    func takeUp(_ file: PinLockoutFile?, found: PinLockoutFile.LoadResult?) {
        pinLockout = file
        let now = shell.clock.now()
        guard let file, let found else {
            writeAll(
                2,
                "gestures: warning: kiosk: the PIN backoff is kept in memory only (a restart resets it): "
                    + "set --log-events FILE or run under systemd with StateDirectory=\n")
            logEvent("adminLockoutInMemory", at: now)
            return
        }
        switch found {
        case .absent:
            break
        case .restored(let state) where state.misses > 0:
            logEvent("adminLockout", at: now) {
                $0.add("misses", state.misses)
                $0.add("remaining", quantize(file.remaining(of: state)))
            }
        case .restored:
            break
        case .unusable(let why):
            let reason = MessageText.line(why)
            writeAll(2, "gestures: warning: kiosk: \(reason); the PIN backoff starts again\n")
            logEvent("adminLockoutLost", at: now) { $0.add("reason", reason) }
        }
    }

    /// Saves the backoff after a try; the first failure of a run of them is said once (stderr
    /// and `adminLockoutNotSaved`) and the kiosk runs on, the backoff in memory.
    func savePinLockout(_ state: (PinLockoutFile) -> PinLockout) {
        guard let pinLockout, let why = pinLockout.save(state(pinLockout)) else { return }
        let reason = MessageText.line(why)
        writeAll(2, "gestures: warning: kiosk: \(reason); the PIN backoff is kept in memory until it can be saved\n")
        logEvent("adminLockoutNotSaved", at: shell.clock.now()) { $0.add("reason", reason) }
    }
}
