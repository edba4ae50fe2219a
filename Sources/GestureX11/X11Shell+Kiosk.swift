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
///   leaves the saver alone. A server without the extension (or older than 1.1): the saver is
///   reset (`ForceScreenSaver Reset`, as if input had come) at half its timeout instead, and
///   ``screenSaverSuspended`` is false, so that the app asks the session (the `gestures`
///   command's idle inhibit on the session bus; a compositor's own idle timer is beyond X).
/// - **Locked down.** `WM_DELETE_WINDOW` (a WM's close button, Alt+F4, `xdotool windowclose`
///   through a WM) and `_NET_CLOSE_WINDOW` (`wmctrl -c`) are refused, each with one stderr
///   line and ``ShellKioskEvent/closeRefused(_:)``. The quit keys are off (``KeyBindings``).
/// - **Admin exit** (``AdminExit``): the chord held, two fingers held in opposite corners
///   (``CornerPress``, for a table without a keyboard) or the four corners tapped in order
///   (``CornerTaps``, for a touchscreen that is one pointer) bring up the PIN pad, drawn by the
///   scene (``ShellScene/showPinPad(_:)``); the right PIN exits with status 0. Without a PIN the
///   gesture is only logged.
/// - **Every other end is non-zero**, so `Restart=on-failure` restarts it too: SIGTERM and
///   SIGINT end with 128 + the signal (143, 130: the shell's convention, which systemd's
///   `SuccessExitStatus=143` accepts for `systemctl stop`); the window destroyed by another
///   client (`xkill`-like tools): status 1 with one line; a lost X connection: status 1.
///   SIGHUP does not end a kiosk: it calls ``X11Shell/onHangup`` (reload, reopen the log).
extension X11Shell {
    /// Kiosk set-up after the window exists: screen and monitor notifications, the screen saver.
    /// (The admin exit is set up with ``kiosk``, `KioskServices`.)
    func setUpKiosk() {
        if options.fullscreen || options.kiosk { watchScreenChanges() }
        guard options.kiosk else { return }
        if !options.allowBlanking { suspendScreenSaver(true) }
    }

    /// The kind of X server the window is on, as `gestures doctor` names it (`Xwayland`, `Xvfb`,
    /// `Xorg` or the vendor), and the window manager's name (nil: none) — for messages that
    /// name the setting to change. Round trips: call it once, not per frame.
    public func serverAndWindowManager() -> (server: String, windowManager: String?) {
        let setup = xcb_get_setup(x.raw)!
        let vendor = String(
            decoding: UnsafeRawBufferPointer(
                start: xcb_setup_vendor(setup), count: Int(xcb_setup_vendor_length(setup))), as: UTF8.self)
        let server = Doctor.serverKind(
            extensions: Doctor.listExtensions(x), vendor: vendor, outputs: Self.queryMonitors(x) ?? [])
        return (server, Doctor.windowManagerName(x))
    }

    /// Whether the X server holds the screen on (MIT-SCREEN-SAVER 1.1 suspend): false without
    /// the extension (rootless Xwayland), where the kiosk asks the session instead.
    public var screenSaverSuspended: Bool { kiosk.saverSuspended }

    /// MIT-SCREEN-SAVER suspend (true) or release (false).
    func suspendScreenSaver(_ on: Bool) {
        guard on else {
            if kiosk.releaseSaver() { xcb_screensaver_suspend(x.raw, 0) }
            return
        }
        var version: (major: UInt16, minor: UInt16)?
        if options.useSaverSuspend, let ext = gestures_screensaver_extension(x.raw), ext.pointee.present != 0,
            let v = xcb_screensaver_query_version_reply(x.raw, xcb_screensaver_query_version(x.raw, 1, 1), nil)
        {
            version = (v.pointee.server_major_version, v.pointee.server_minor_version)
            free(v)
        }
        x.exitIfBroken()
        guard let version, version.major > 1 || version.minor >= 1 else {
            // The caller asks the session bus (and says once what will blank the screen).
            kiosk.saverSuspendRefused(at: clock.now())
            return
        }
        xcb_screensaver_suspend(x.raw, 1)
        kiosk.saverSuspendGranted()
    }

    /// Resets the screen saver when it is due (servers without MIT-SCREEN-SAVER 1.1): at half
    /// the server's saver timeout (`xset s`, asked with each reset: it may change), at most every
    /// 20 s. Never waits on the server (see ``ScreenSaverReset``).
    func resetSaverIfDue(now: Double) {
        guard kiosk.saverResetDue(at: now) else { return }
        xcb_force_screen_saver(x.raw, UInt8(XCB_SCREEN_SAVER_RESET.rawValue))
        let query = kiosk.pendingSaverQuery == nil ? xcb_get_screen_saver(x.raw).sequence : nil
        kiosk.saverResetSent(at: now, query: query)
    }

    /// Reads the saver timeout asked with a reset, when its reply has come (the event loop calls
    /// this after each read); a shorter interval brings the next reset forward.
    func pollSaverReply() {
        guard let seq = kiosk.pendingSaverQuery else { return }
        var reply: UnsafeMutableRawPointer?
        var error: UnsafeMutablePointer<xcb_generic_error_t>?
        guard xcb_poll_for_reply(x.raw, seq, &reply, &error) != 0 else { return }
        free(error)
        // GetScreenSaver's reply: the timeout (seconds) is the CARD16 at offset 8.
        kiosk.saverReplied(timeout: reply.flatMap { XConnection.withReply($0) { XReplyBytes($0).u16(8) } })
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
        windowState.lifecycle.destroyedByOther()
        if options.kiosk {
            writeStderr("gestures: kiosk: the window was destroyed by another client")
            quit(status: 1)
        } else {
            quit(status: 0)
        }
    }

    /// Offers a key to the admin exit (kiosk only); true when it took the key.
    func adminKey(keysym: UInt, pressed: Bool, modifiers: UInt32, repeated: Bool, at t: Double) -> Bool {
        let (taken, actions) = kiosk.adminKey(
            keysym: keysym, pressed: pressed, modifiers: modifiers, repeated: repeated, at: t)
        perform(actions)
        return taken
    }

    /// Runs the admin exit's timers (the chord's hold, the pad's timeout, its lockout countdown,
    /// the corner hold).
    func runAdminTimer(now: Double) {
        perform(kiosk.advanceAdmin(to: now))
    }

    /// A real touch frame in kiosk mode: the admin gestures see it; while the PIN pad is up,
    /// touches that begin on it press its keys and go no further. The rest of the frame for the
    /// scene (nil: nothing left).
    func adminTouches(_ frame: TouchFrame) -> TouchFrame? {
        let (rest, actions) = kiosk.routeTouches(frame, in: size)
        perform(actions)
        return rest
    }

    /// Carries out what the admin exit asks, in order.
    private func perform(_ actions: [KioskServices.AdminAction]) {
        for action in actions {
            switch action {
            case .outcome(let outcome): adminOutcome(outcome)
            case .showPad: showAdminPad()
            }
        }
    }

    /// Shows the PIN pad as the admin exit has it now (or hides it).
    func showAdminPad() {
        scene.showPinPad(kiosk.pad(at: clock.now()))
    }

    private func adminOutcome(_ outcome: AdminExit.Outcome) {
        onKioskEvent?(.admin(outcome))
        showAdminPad()
        switch outcome {
        case .exit:
            writeStderr("gestures: kiosk: admin exit")
            quit(status: 0)
        case .pinRequested:
            writeStderr("gestures: kiosk: admin exit: enter the PIN on the pad (or type it and Enter)")
        case .pinRejected(let misses, let lockedFor):
            writeStderr(
                "gestures: kiosk: admin exit refused: wrong PIN (\(misses) in a row"
                    + (lockedFor > 0 ? "; locked for \(Int(lockedFor)) s)" : ")"))
        case .pinCancelled: writeStderr("gestures: kiosk: admin exit cancelled (Escape, Cancel or timeout)")
        case .noPIN:
            writeStderr(
                "gestures: kiosk: admin gesture refused: no PIN is set (--admin-pin-file or GESTURES_ADMIN_PIN); "
                    + "stop the service to exit")
        case .lockedOut(let remaining):
            writeStderr("gestures: kiosk: admin gesture refused: locked for \(Int(remaining.rounded(.up))) s more")
        }
    }

    /// SIGINT and SIGTERM end the loop (status 0; a kiosk 128 + the signal); SIGHUP calls
    /// ``onHangup`` when set, else ends like the others. Whatever the loop was doing: the pipe
    /// is watched in every state, and no drawing or output waits without a bound.
    func handleSignal(_ signal: Int32) {
        if signal == SIGHUP, let onHangup {
            kiosk.watchdog?.reloading()
            onHangup()
            kiosk.watchdog?.reloaded()
            return
        }
        quit(status: options.kiosk ? 128 + signal : 0)
    }
}

extension X11Shell {
    /// Draws the whole window at the next frame (after the scene was replaced).
    public func redrawAll() {
        drawing.forceRedraw = true
    }
}
