import CXCB
import GestureKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The kiosk, as far as the shell goes: the screen kept on, close requests refused, the admin
/// exit, and exit statuses a supervisor can act on.
///
/// - **Screen on.** MIT-SCREEN-SAVER 1.1 `Suspend` while the kiosk runs (the server then runs
///   neither the screen saver nor DPMS, whatever `xset s` / `xset dpms` say, the attract tour
///   included — it is fed inside the app, so the server sees no input); released at exit (and
///   by the server when the connection goes). `--allow-blanking` (``ShellOptions/allowBlanking``)
///   leaves the saver alone. A server without the extension: one warning line.
/// - **Locked down.** `WM_DELETE_WINDOW` (a WM's close button, Alt+F4, `xdotool windowclose`
///   through a WM) and `_NET_CLOSE_WINDOW` (`wmctrl -c`) are refused, each with one stderr
///   line and ``ShellKioskEvent/closeRefused(_:)``. The quit keys are off (``KeyBindings``).
/// - **Admin exit** (``AdminExit``): the chord held, then the PIN if one is set; status 0.
/// - **Every other end is non-zero**, so `Restart=on-failure` restarts it too: SIGTERM and
///   SIGINT end with 128 + the signal (143, 130: the shell's convention, which systemd's
///   `SuccessExitStatus=143` accepts for `systemctl stop`); the window destroyed by another
///   client (`xkill`-like tools): status 1 with one line; a lost X connection: status 1.
///   SIGHUP does not end a kiosk: it calls ``X11Shell/onHangup`` (reload, reopen the log).
extension X11Shell {
    /// Kiosk set-up after the window exists: screen saver, notifications, admin chord.
    func setUpKiosk() {
        x.intern(["_NET_CLOSE_WINDOW", "_NET_WM_FULLSCREEN_MONITORS", "_NET_SUPPORTED"])
        if options.fullscreen || options.kiosk { watchScreenChanges() }
        guard options.kiosk else { return }
        admin = options.adminExit ?? (try? AdminExit())
        if !options.allowBlanking { suspendScreenSaver(true) }
    }

    /// MIT-SCREEN-SAVER suspend (true) or release (false).
    func suspendScreenSaver(_ on: Bool) {
        if on {
            guard let ext = gestures_screensaver_extension(x.raw), ext.pointee.present != 0,
                let v = xcb_screensaver_query_version_reply(x.raw, xcb_screensaver_query_version(x.raw, 1, 1), nil)
            else {
                x.exitIfBroken()
                writeStderr("gestures: warning: the X server has no MIT-SCREEN-SAVER extension; the screen may blank")
                return
            }
            let ok = v.pointee.server_major_version > 1 || v.pointee.server_minor_version >= 1
            free(v)
            guard ok else {
                writeStderr(
                    "gestures: warning: the X server's MIT-SCREEN-SAVER is older than 1.1; the screen may blank")
                return
            }
            xcb_screensaver_suspend(x.raw, 1)
            saverSuspended = true
        } else if saverSuspended {
            xcb_screensaver_suspend(x.raw, 0)
            saverSuspended = false
        }
    }

    /// A client message to the window (or, in kiosk mode, to the root about the window).
    func clientMessage(_ m: xcb_client_message_event_t) {
        let deleteWindow = m.type == x.atom("WM_PROTOCOLS") && m.data.data32.0 == x.atom("WM_DELETE_WINDOW")
        let netClose = m.type == x.atom("_NET_CLOSE_WINDOW") && m.window == xid
        guard deleteWindow || netClose else { return }
        if !options.kiosk {
            if deleteWindow { quit(status: 0) }
            return
        }
        let what = deleteWindow ? "WM_DELETE_WINDOW" : "_NET_CLOSE_WINDOW"
        writeStderr("gestures: kiosk: refused a close request (\(what)); use the admin exit")
        onKioskEvent?(.closeRefused(what))
    }

    /// The window was destroyed by another client.
    func windowDestroyedByOther() {
        windowDestroyed = true
        if options.kiosk {
            writeStderr("gestures: kiosk: the window was destroyed by another client")
            quit(status: 1)
        } else {
            quit(status: 0)
        }
    }

    /// Offers a key to the admin exit (kiosk only); true when it took the key.
    func adminKey(keysym: UInt, pressed: Bool, modifiers: UInt32, repeated: Bool, at t: Double) -> Bool {
        guard admin != nil else { return false }
        guard pressed else {
            admin!.keyReleased(keysym: keysym)
            return admin!.asksForPIN
        }
        let (taken, outcome) = admin!.keyPressed(keysym: keysym, modifiers: modifiers, repeated: repeated, at: t)
        if let outcome { adminOutcome(outcome) }
        return taken
    }

    /// Runs the admin exit's timers.
    func runAdminTimer(now: Double) {
        if let d = admin?.deadline, now >= d, let outcome = admin!.advance(to: now) { adminOutcome(outcome) }
    }

    private func adminOutcome(_ outcome: AdminExit.Outcome) {
        onKioskEvent?(.admin(outcome))
        switch outcome {
        case .exit:
            writeStderr("gestures: kiosk: admin exit")
            quit(status: 0)
        case .pinRequested: writeStderr("gestures: kiosk: admin exit: type the PIN and Enter")
        case .pinRejected: writeStderr("gestures: kiosk: admin exit refused (wrong PIN, Escape or timeout)")
        }
    }

    /// SIGINT and SIGTERM end the loop (status 0; a kiosk 128 + the signal); SIGHUP calls
    /// ``onHangup`` when set, else ends like the others. Whatever the loop was doing: the pipe
    /// is watched in every state, and no drawing or output waits without a bound.
    func handleSignal(_ signal: Int32) {
        if signal == SIGHUP, let onHangup {
            onHangup()
            return
        }
        quit(status: options.kiosk ? 128 + signal : 0)
    }
}

extension X11Shell {
    /// Draws the whole window at the next frame (after the scene was replaced).
    public func redrawAll() {
        forceRedraw = true
    }
}
