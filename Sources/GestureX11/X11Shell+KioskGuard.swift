import CXCB

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What the kiosk guard knows between turns of the loop (`KioskServices` holds one, for ``X11Shell``).
struct KioskGuardState {
    /// When the window is put back (several triggers in a row make one restore).
    var restoreDue: Double?
    var lastRestore = -Double.infinity
    /// When the keyboard grab is tried again (it failed, or the window was unmapped).
    var grabDue: Double?
    /// The GrabKeyboard request whose reply is awaited.
    var grabSequence: UInt32?
    var grabbed = false
    var warnedGrab = false
    /// GetProperty requests whose replies are awaited: sequence number and property.
    var pendingReads: [(sequence: UInt32, property: xcb_atom_t)] = []
    /// The last state seen of each watched property (a restore follows a change to a bad one).
    var lastState: [xcb_atom_t: [UInt32]] = [:]
    /// Restores so far (for the log lines: the first 20 are told).
    var restores = 0
    /// Why the restore that is due is made (each reason once), for the operator log.
    var reasons: [String] = []
}

/// The kiosk under a window manager: the public must not get out.
///
/// - **The keyboard is the kiosk's**: an active keyboard grab (owner events: the window's own
///   XInput 2 selections still get every key), so no window manager key binding fires — Super+D,
///   Ctrl+Alt+arrows, Alt+Space, Alt+Tab. A grab that fails (another client holds one, the window
///   is not viewable) is tried again every 0.25 s; one lost when the window is unmapped is taken
///   again when it is back.
/// - **Above, fullscreen, on every desktop**: `_NET_WM_STATE` FULLSCREEN + ABOVE and
///   `_NET_WM_BYPASS_COMPOSITOR` are set before the map; once mapped the window asks to be sticky
///   (`_NET_WM_STATE_STICKY` and `_NET_WM_DESKTOP` 0xFFFFFFFF). (Not as a property before the map:
///   xfwm4 takes a `_NET_WM_DESKTOP` of 0xFFFFFFFF there for its last desktop and hides the window.)
/// - **Put back within a moment**: iconified (`WM_STATE` Iconic, `_NET_WM_STATE_HIDDEN`, an
///   UnmapNotify: also what a switch to another desktop does to a window that is not sticky, e.g.
///   under i3), no longer fullscreen or above,
///   covered (VisibilityNotify) or unfocused (FocusOut): 50 ms later (at most 5 times a second)
///   the window is mapped again, asked fullscreen, above and sticky, activated
///   (`_NET_ACTIVE_WINDOW` as a pager would: source 2), raised, and grabs the keyboard. Property
///   values are read without waiting (the replies are picked up by the loop), and a restore
///   follows a *change* to a bad value, so a window manager that refuses a state is not asked
///   again and again. Each trigger is told on stderr (the first 20), and each restore is one
///   `restored` line in the operator log with its reasons (`ShellKioskEvent.restored`).
extension X11Shell {
    /// Whether the guard runs: a kiosk under a window manager.
    var kioskGuarded: Bool { options.kiosk && windowState.hasWindowManager }

    /// The properties set before the map (kiosk): fullscreen and above, sticky, no compositing.
    func kioskGuardProperties() {
        guard options.kiosk else { return }
        x.setProperty(
            xid, x.atom("_NET_WM_STATE"), type: PredefinedAtom.atom,
            words: [x.atom("_NET_WM_STATE_FULLSCREEN"), x.atom("_NET_WM_STATE_ABOVE")])
        x.setProperty(xid, x.atom("_NET_WM_BYPASS_COMPOSITOR"), type: PredefinedAtom.cardinal, words: [1])
    }

    /// The next time the guard needs the loop (nil: none).
    var kioskGuardDeadline: Double? {
        [kiosk.windowGuard.restoreDue, kiosk.windowGuard.grabDue].compactMap { $0 }.min()
    }

    /// Something may have moved the window out of reach: restore it soon.
    func kioskGuardTrigger(_ why: String) {
        guard kioskGuarded, windowState.lifecycle.hasBeenMapped else { return }
        let now = clock.now()
        let due = max(now + 0.05, kiosk.windowGuard.lastRestore + 0.2)
        if kiosk.windowGuard.restoreDue == nil || due < kiosk.windowGuard.restoreDue! {
            kiosk.windowGuard.restoreDue = due
        }
        if kiosk.windowGuard.restores < 20 { writeStderr("gestures: kiosk: \(why); putting the window back") }
        if !kiosk.windowGuard.reasons.contains(why) { kiosk.windowGuard.reasons.append(why) }
        kiosk.windowGuard.restores += 1
    }

    /// The window was mapped: grab the keyboard (and after the first map, check the state).
    func kioskGuardMapped() {
        guard kioskGuarded else { return }
        kiosk.windowGuard.grabbed = false
        grabKeyboard()
        askSticky()
    }

    /// Asks the window manager to show the window on every desktop.
    private func askSticky() {
        let mask = XCB_EVENT_MASK_SUBSTRUCTURE_REDIRECT.rawValue | XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY.rawValue
        var sticky: [UInt32] = [1, x.atom("_NET_WM_STATE_STICKY"), 0, 2, 0]
        gestures_send_client_message(x.raw, x.root, xid, x.atom("_NET_WM_STATE"), &sticky, mask)
        var desktop: [UInt32] = [0xFFFF_FFFF, 2, 0, 0, 0]
        gestures_send_client_message(x.raw, x.root, xid, x.atom("_NET_WM_DESKTOP"), &desktop, mask)
    }

    /// The window was unmapped: the grab is gone with it.
    func kioskGuardUnmapped() {
        guard kioskGuarded else { return }
        kiosk.windowGuard.grabbed = false
        kioskGuardTrigger("the window was unmapped (iconified or hidden)")
    }

    /// A PropertyNotify on the window: the watched properties are read (without waiting).
    func kioskGuardPropertyChanged(_ e: xcb_property_notify_event_t) {
        guard kioskGuarded, e.window == xid else { return }
        let watched = [x.atom("WM_STATE"), x.atom("_NET_WM_STATE")]
        guard watched.contains(e.atom) else { return }
        let cookie = xcb_get_property(x.raw, 0, xid, e.atom, 0, 0, 64)
        kiosk.windowGuard.pendingReads.append((cookie.sequence, e.atom))
    }

    /// A VisibilityNotify: anything but unobscured is a window above the kiosk's.
    func kioskGuardVisibility(_ e: xcb_visibility_notify_event_t) {
        guard kioskGuarded, e.window == xid, e.state != 0 else { return }
        kioskGuardTrigger(e.state == 1 ? "the window is partly covered" : "the window is covered")
    }

    /// A FocusOut that is not a grab's: another window took the focus.
    func kioskGuardFocusOut(_ e: xcb_focus_out_event_t) {
        guard kioskGuarded, e.event == xid else { return }
        // NotifyNormal (0) and NotifyWhileGrabbed (3); NotifyGrab/Ungrab come with our own grab.
        if e.mode == 0 || e.mode == 3 { kioskGuardTrigger("the window lost the focus") }
    }

    /// Takes the replies that have come (property reads, the grab); never waits.
    func pollKioskGuardReplies() {
        guard kioskGuarded else { return }
        while let first = kiosk.windowGuard.pendingReads.first {
            var reply: UnsafeMutableRawPointer?
            var error: UnsafeMutablePointer<xcb_generic_error_t>?
            guard xcb_poll_for_reply(x.raw, first.sequence, &reply, &error) != 0 else { break }
            kiosk.windowGuard.pendingReads.removeFirst()
            free(error)
            guard let reply else { continue }
            let value = XConnection.withReply(reply) { XReplyDecoder.property($0) }
            propertyRead(first.property, words: value.map { Self.words($0) } ?? [])
        }
        if let seq = kiosk.windowGuard.grabSequence {
            var reply: UnsafeMutableRawPointer?
            var error: UnsafeMutablePointer<xcb_generic_error_t>?
            if xcb_poll_for_reply(x.raw, seq, &reply, &error) != 0 {
                kiosk.windowGuard.grabSequence = nil
                free(error)
                // GrabKeyboard's status byte (offset 1): 0 Success.
                let status = reply.map { XConnection.withReply($0) { XReplyBytes($0).u8(1) ?? 255 } } ?? 255
                kiosk.windowGuard.grabbed = status == 0
                if status != 0 {
                    kiosk.windowGuard.grabDue = clock.now() + 0.25
                    if !kiosk.windowGuard.warnedGrab {
                        kiosk.windowGuard.warnedGrab = true
                        writeStderr("gestures: kiosk: cannot grab the keyboard yet (status \(status)); trying again")
                    }
                }
            }
        }
    }

    /// The 32-bit items of a property value.
    static func words(_ p: XReplyDecoder.Property) -> [UInt32] {
        guard p.format == 32 else { return [] }
        return p.value.withUnsafeBytes { b in
            (0..<(b.count / 4)).map { b.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self) }
        }
    }

    private func propertyRead(_ property: xcb_atom_t, words: [UInt32]) {
        let before = kiosk.windowGuard.lastState[property]
        kiosk.windowGuard.lastState[property] = words
        guard before != words else { return }
        if property == x.atom("WM_STATE") {
            if words.first == 3 { kioskGuardTrigger("the window was iconified") }
        } else if property == x.atom("_NET_WM_STATE") {
            let hidden = words.contains(x.atom("_NET_WM_STATE_HIDDEN"))
            let full = words.contains(x.atom("_NET_WM_STATE_FULLSCREEN"))
            let above = words.contains(x.atom("_NET_WM_STATE_ABOVE"))
            if hidden {
                kioskGuardTrigger("the window was hidden")
            } else if !full {
                kioskGuardTrigger("the window left fullscreen")
            } else if !above && before != nil {
                kioskGuardTrigger("the window is no longer kept above")
            }
        }
    }

    /// Runs the guard's timers: the restore and the grab retry.
    func runKioskGuard(now: Double) {
        guard kioskGuarded else { return }
        if let due = kiosk.windowGuard.restoreDue, now >= due {
            kiosk.windowGuard.restoreDue = nil
            kiosk.windowGuard.lastRestore = now
            restoreKioskWindow()
            onKioskEvent?(.restored(kiosk.windowGuard.reasons.joined(separator: "; ")))
            kiosk.windowGuard.reasons = []
        }
        if let due = kiosk.windowGuard.grabDue, now >= due {
            kiosk.windowGuard.grabDue = nil
            if !kiosk.windowGuard.grabbed { grabKeyboard() }
        }
    }

    /// Asks the keyboard grab (the reply is picked up by ``pollKioskGuardReplies()``).
    private func grabKeyboard() {
        guard kiosk.windowGuard.grabSequence == nil else { return }
        // owner_events True: the window's own selections get the keys; async pointer and keyboard.
        kiosk.windowGuard.grabSequence = xcb_grab_keyboard(x.raw, 1, xid, 0, 1, 1).sequence
    }

    /// Maps, fullscreens, raises, activates the window and grabs the keyboard; requests only.
    private func restoreKioskWindow() {
        let mask = XCB_EVENT_MASK_SUBSTRUCTURE_REDIRECT.rawValue | XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY.rawValue
        xcb_map_window(x.raw, xid)
        // _NET_WM_STATE: remove (0) HIDDEN, add (1) FULLSCREEN and ABOVE; source 2 (a pager:
        // window managers follow those without focus-stealing rules).
        var remove: [UInt32] = [0, x.atom("_NET_WM_STATE_HIDDEN"), 0, 2, 0]
        gestures_send_client_message(x.raw, x.root, xid, x.atom("_NET_WM_STATE"), &remove, mask)
        var add: [UInt32] = [1, x.atom("_NET_WM_STATE_FULLSCREEN"), x.atom("_NET_WM_STATE_ABOVE"), 2, 0]
        gestures_send_client_message(x.raw, x.root, xid, x.atom("_NET_WM_STATE"), &add, mask)
        askSticky()
        if let index = windowState.placement?.index {
            var monitors: [UInt32] = [UInt32(index), UInt32(index), UInt32(index), UInt32(index), 2]
            gestures_send_client_message(x.raw, x.root, xid, x.atom("_NET_WM_FULLSCREEN_MONITORS"), &monitors, mask)
        }
        var active: [UInt32] = [2, 0, 0, 0, 0]
        gestures_send_client_message(x.raw, x.root, xid, x.atom("_NET_ACTIVE_WINDOW"), &active, mask)
        var above: [UInt32] = [UInt32(XCB_STACK_MODE_ABOVE.rawValue)]
        xcb_configure_window(x.raw, xid, UInt16(XCB_CONFIG_WINDOW_STACK_MODE.rawValue), &above)
        if !kiosk.windowGuard.grabbed { grabKeyboard() }
    }
}
