import CXCB
import GestureKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Events: read from XCB, decoded, handed to the input translator, the frame builder and the
/// scene.
extension X11Shell {
    /// Core event types (X.h).
    enum CoreEvent {
        static let error: UInt8 = 0
        static let keyPress: UInt8 = 2
        static let keyRelease: UInt8 = 3
        static let buttonPress: UInt8 = 4
        static let buttonRelease: UInt8 = 5
        static let motionNotify: UInt8 = 6
        static let leaveNotify: UInt8 = 8
        static let focusOut: UInt8 = 10
        static let expose: UInt8 = 12
        static let visibilityNotify: UInt8 = 15
        static let propertyNotify: UInt8 = 28
        static let destroyNotify: UInt8 = 17
        static let unmapNotify: UInt8 = 18
        static let mapNotify: UInt8 = 19
        static let reparentNotify: UInt8 = 21
        static let configureNotify: UInt8 = 22
        static let clientMessage: UInt8 = 33
        static let mappingNotify: UInt8 = 34
        static let genericEvent: UInt8 = 35
        static let sendEventBit: UInt8 = 0x80
    }

    /// Handles `first` and every event XCB holds; when `read`, reads the socket again and again
    /// until it is empty, so nothing the server sent is left queued there behind motion (at
    /// 1 kHz hover, reading once per wake-up left a click answered 23 s late and the server's
    /// buffers growing). Reading stops after ``readBudget`` of handling: the socket is then
    /// still readable and the next turn goes on after a frame. The moves of what was read reach
    /// the scene as one touch frame; a run of motions of one pointer is applied as its last
    /// (``HeldMotion``), so dead motion costs a decode and no more.
    func drainEvents(first: UnsafeMutablePointer<xcb_generic_event_t>?, read: Bool) {
        var next = first ?? x.nextEvent(read: read)
        input.received = clock.now()
        let stop = input.received + Self.readBudget
        input.readCut = false
        while let event = next {
            handle(event)
            free(event)
            if !running { return }
            next = x.nextEvent(read: false)
            if next == nil && read {
                if clock.now() >= stop {
                    input.readCut = true
                    break
                }
                next = x.nextEvent(read: true)
                if next != nil { input.received = clock.now() }
            }
        }
        applyHeldMotion()
        drawing.presenter.checkSync()
        pollKioskGuardReplies()
        pollSaverReply()
        if !holdTouchFrame() { flushFrame() }
        applyPendingResize()
    }

    /// Reads the keyboard mapping (one round trip: at start, and after a MappingNotify, which the
    /// server just sent), within the reply's length (``KeyboardMap``).
    func readKeyboardMap() {
        guard let setup = xcb_get_setup(x.raw) else { return }
        let bytes = UnsafeRawBufferPointer(start: UnsafeRawPointer(setup), count: 8 + Int(setup.pointee.length) * 4)
        guard let low = XReplyBytes(bytes).u8(34), let high = XReplyBytes(bytes).u8(35), high >= low else { return }
        let cookie = xcb_get_keyboard_mapping(x.raw, low, high - low + 1)
        guard let reply = xcb_get_keyboard_mapping_reply(x.raw, cookie, nil) else {
            x.exitIfBroken()
            return
        }
        input.keyboardMap = XConnection.withReply(reply) {
            KeyboardMap(reply: $0, minKeycode: Int(low), maxKeycode: Int(high))
        }
    }

    /// The longest one turn of the loop goes on reading (seconds): half a 60 Hz frame, so a
    /// flood of input still leaves room to draw.
    static let readBudget = 0.008

    /// Whether the touch frame being built waits for the rest of its device frame (a finger of
    /// its touchscreen that is down has not reported yet; see ``TouchFrameBuilder``): the loop
    /// then polls until `frames.holdDeadline` at most.
    func holdTouchFrame() -> Bool {
        var missing = false
        if let device = input.frames.touchDevice {
            missing = input.translator.hasTouch(of: device, missingFrom: input.frames)
        }
        return input.frames.hold(missingFinger: missing, now: clock.now())
    }

    /// The shell time of an event stamped `server`.
    func eventTime(_ server: UInt32) -> Double {
        quantize(max(input.timeMapper.map(server: UInt64(server), received: input.received), input.lastFed))
    }

    /// Adds the translator's changes (in `scratch`) to the frame being built for time `t`
    /// (`touchDevice`: the touchscreen they came from, nil for other sources).
    func addChanges(at t: Double, touchDevice: Int32? = nil) {
        guard !input.scratch.isEmpty else { return }
        if input.frames.mustFlush(before: input.scratch, at: t) { flushFrame() }
        input.frames.add(input.scratch, at: t, touchDevice: touchDevice)
        input.scratch.removeAll(keepingCapacity: true)
    }

    func flushFrame() {
        do {
            guard let frame = input.frames.frame else { return }
            feed(.touches(frame), real: true)
        }
        input.frames.clear()
    }

    /// A core event of XCB's queue as the wire struct `T` (XCB gives every core event 36 bytes:
    /// the 32 of the wire and its full sequence number).
    private func core<T>(_ event: UnsafeMutablePointer<xcb_generic_event_t>, as _: T.Type) -> T {
        precondition(MemoryLayout<T>.size <= 36)
        return UnsafeRawPointer(event).loadUnaligned(as: T.self)
    }

    func handle(_ event: UnsafeMutablePointer<xcb_generic_event_t>) {
        let type = event.pointee.response_type & ~CoreEvent.sendEventBit
        if input.heldMotion != nil && type != CoreEvent.genericEvent { applyHeldMotion() }
        if type == CoreEvent.error { drawing.presenter.takeRefusal(UnsafeRawPointer(event)) }
        drawing.presenter.serverProcessed(through: event.pointee.full_sequence)
        switch type {
        case CoreEvent.error:
            x.report(UnsafeRawPointer(event))
        case CoreEvent.genericEvent:
            handleGeneric(event)
        case CoreEvent.expose:
            let e = core(event, as: xcb_expose_event_t.self)
            let r = PixelRect(x: Int(e.x), y: Int(e.y), width: Int(e.width), height: Int(e.height))
            drawing.exposedRect = drawing.exposedRect.map { $0.union(r) } ?? r
            windowState.lifecycle.exposed()
        case CoreEvent.configureNotify:
            let c = core(event, as: xcb_configure_notify_event_t.self)
            if c.window == x.root && c.event == x.root { screenChanged() }
            guard c.window == xid, c.event == xid else { return }
            windowState.pendingPixelSize = drawnSize(width: Int(c.width), height: Int(c.height))
            let sent = event.pointee.response_type & CoreEvent.sendEventBit != 0
            if sent || windowState.parentIsRoot { windowMoved(x: Int32(c.x), y: Int32(c.y)) }
        case CoreEvent.reparentNotify:
            let r = core(event, as: xcb_reparent_notify_event_t.self)
            if r.window == xid { windowState.parentIsRoot = r.parent == x.root }
        case CoreEvent.destroyNotify:
            // Another client destroyed the window (xdotool windowclose, xkill of the window…).
            let d = core(event, as: xcb_destroy_notify_event_t.self)
            if d.window == xid && d.event == xid { windowDestroyedByOther() }
        case CoreEvent.unmapNotify:
            guard core(event, as: xcb_unmap_notify_event_t.self).event == xid else { return }
            kioskGuardUnmapped()
            flushFrame()
            input.translator.cancelAll(into: &input.scratch)
            addChanges(at: quantize(max(clock.now(), input.lastFed)))
            flushFrame()
        case CoreEvent.mapNotify:
            guard core(event, as: xcb_map_notify_event_t.self).event == xid else { return }
            if windowState.lifecycle.mapNotified() {
                applyPlacement()
                schedulePlacementCheck()
            }
            if !windowState.hasWindowManager {
                xcb_set_input_focus(x.raw, UInt8(XCB_INPUT_FOCUS_POINTER_ROOT.rawValue), xid, 0)
            }
            kioskGuardMapped()
        case CoreEvent.focusOut:
            input.translator.modifierHeld = false
            kioskGuardFocusOut(core(event, as: xcb_focus_out_event_t.self))
        case CoreEvent.propertyNotify:
            kioskGuardPropertyChanged(core(event, as: xcb_property_notify_event_t.self))
        case CoreEvent.visibilityNotify:
            kioskGuardVisibility(core(event, as: xcb_visibility_notify_event_t.self))
        case CoreEvent.mappingNotify:
            // MappingKeyboard (1): the keycodes' symbols changed.
            if core(event, as: xcb_mapping_notify_event_t.self).request == 1 { readKeyboardMap() }
        case CoreEvent.clientMessage:
            clientMessage(core(event, as: xcb_client_message_event_t.self))
        case CoreEvent.buttonPress, CoreEvent.buttonRelease:
            let b = core(event, as: xcb_button_press_event_t.self)
            let t = eventTime(b.time)
            let p = point(Double(b.event_x), Double(b.event_y))
            let mods = UInt32(b.state)
            if type == CoreEvent.buttonPress,
                let scroll = ScrollButtons.input(button: Int(b.detail), modifiers: mods, at: p, time: t)
            {
                flushFrame()
                feed(.scroll(scroll), real: true)
                return
            }
            if type == CoreEvent.buttonPress {
                input.translator.pointerPressed(
                    device: 0, button: Int(b.detail), at: p, modifiers: mods, into: &input.scratch)
            } else {
                input.translator.pointerReleased(
                    device: 0, button: Int(b.detail), at: p, modifiers: mods, into: &input.scratch)
            }
            if input.scratch.isEmpty { noteActivity() }
            addChanges(at: t)
        case CoreEvent.motionNotify:
            input.motionSeen = true
            let m = core(event, as: xcb_motion_notify_event_t.self)
            input.translator.pointerMoved(
                device: 0, to: point(Double(m.event_x), Double(m.event_y)), modifiers: UInt32(m.state),
                into: &input.scratch)
            if input.scratch.isEmpty { noteActivity() } else { addChanges(at: eventTime(m.time)) }
        case CoreEvent.keyPress, CoreEvent.keyRelease:
            let k = core(event, as: xcb_key_press_event_t.self)
            let state = UInt32(k.state)
            key(
                keycode: k.detail, group: Int((state >> 13) & 3), pressed: type == CoreEvent.keyPress,
                modifiers: state, repeated: false, pointer: point(Double(k.event_x), Double(k.event_y)),
                time: k.time)
        case CoreEvent.leaveNotify:
            if !input.translator.hasActiveFingers { input.translator.hover = nil }
        case _ where kiosk.isRandREvent(type):
            screenChanged()
        default:
            break
        }
    }

    /// An XInput 2 event: decoded by ``XI2Decoder``, which checks every length first; a
    /// malformed event is dropped with one warning line.
    private func handleGeneric(_ event: UnsafeMutablePointer<xcb_generic_event_t>) {
        let ge = core(event, as: xcb_ge_generic_event_t.self)
        if drawing.pacer.presentOpcode != 0 && ge.extension == drawing.pacer.presentOpcode {
            return drawing.pacer.handle(event, length: XI2Decoder.xcbEventSize(event) ?? 0)
        }
        guard input.xiOpcode != 0, ge.extension == input.xiOpcode else { return }
        let bytes = UnsafeRawBufferPointer(start: event, count: XI2Decoder.xcbEventSize(event) ?? 0)
        switch XI2Decoder.decode(bytes, xiOpcode: input.xiOpcode) {
        case .event(let e):
            if case .motion(_, let ex, let ey, let mods, let time, let flags) = e, !input.scrollAxes.isEmpty,
                flags & XI2Decoder.pointerEmulated == 0
            {
                scrollValuators(bytes, x: ex, y: ey, modifiers: mods, time: time)
            }
            handleXI2(e)
        case .ignored: break
        case .malformed(let why): reportMalformed(why)
        }
    }

    func reportMalformed(_ why: String) {
        guard input.malformedReported < 20 else { return }
        input.malformedReported += 1
        writeStderr("gestures: warning: dropped a malformed XInput 2 event (\(why))")
    }

    /// A pointer motion not yet given to the translator. The moves of a finger within one read
    /// coalesce into one frame anyway (``TouchFrameBuilder``), and a hovering pointer only sets
    /// where the simulated finger would go down, so of a run of motions of one pointer only the
    /// last is translated: it is applied before any other event is handled and at the end of the
    /// read. Motion that cannot change the picture is thus dropped in the app, never left unread.
    struct HeldMotion {
        var device: Int32
        /// In pixels (converted when applied).
        var x: Double
        var y: Double
        var modifiers: UInt32
        var time: UInt32
    }

    func applyHeldMotion() {
        guard let held = input.heldMotion else { return }
        input.heldMotion = nil
        apply(held)
    }

    private func apply(_ m: HeldMotion) {
        input.translator.pointerMoved(
            device: m.device, to: point(m.x, m.y), modifiers: m.modifiers, into: &input.scratch)
        if input.scratch.isEmpty { noteActivity() } else { addChanges(at: eventTime(m.time)) }
    }

    private func handleXI2(_ event: XI2Event) {
        if input.heldMotion != nil {
            if case .motion = event {} else { applyHeldMotion() }
        }
        switch event {
        case .touch(let phase, let device, let touch, let ex, let ey, let time, _):
            let p = point(ex, ey)
            switch phase {
            case .begin: input.translator.touchBegan(device: device, touch: touch, at: p, into: &input.scratch)
            case .update:
                input.motionSeen = true
                input.translator.touchMoved(device: device, touch: touch, to: p, into: &input.scratch)
            case .end: input.translator.touchEnded(device: device, touch: touch, at: p, into: &input.scratch)
            }
            addChanges(at: eventTime(time), touchDevice: device)
        case .motion(let device, let ex, let ey, let mods, let time, let flags):
            // The server's pointer emulation of a touch (the warp to a new touch comes before its
            // TouchBegin, sometimes in a read of its own) is not motion of ours: counted, it let a
            // touch that had not reached the scene yet start a batch, and the swipe's lift waited
            // out the 100 ms hold (monkey soak, seed 570101038937: touch swipes answered in 85–93 ms).
            if input.touchSelected && flags & XI2Decoder.pointerEmulated != 0 { return }
            input.motionSeen = true
            let motion = HeldMotion(device: device, x: ex, y: ey, modifiers: mods, time: time)
            if let held = input.heldMotion {
                if held.device == device {
                    input.heldMotion = motion  // its finger is down: only the last of a run counts
                    return
                }
                applyHeldMotion()
            }
            input.heldMotion = motion
        case .button(let pressed, let device, let button, let ex, let ey, let mods, let time, let flags):
            let p = point(ex, ey)
            // The wheel (and smooth scroll, which the server emulates as these buttons).
            if (4...7).contains(button) {
                // Emulated from smooth scroll, which the valuators already gave.
                if flags & XI2Decoder.pointerEmulated != 0 && !input.scrollAxes.isEmpty { return }
                if pressed,
                    let s = ScrollButtons.input(button: Int(button), modifiers: mods, at: p, time: eventTime(time))
                {
                    flushFrame()
                    feed(.scroll(s), real: true)
                }
                return
            }
            if input.touchSelected && flags & XI2Decoder.pointerEmulated != 0 { return }
            if pressed {
                input.translator.pointerPressed(
                    device: device, button: Int(button), at: p, modifiers: mods, into: &input.scratch)
            } else {
                input.translator.pointerReleased(
                    device: device, button: Int(button), at: p, modifiers: mods, into: &input.scratch)
            }
            if input.scratch.isEmpty { noteActivity() }
            addChanges(at: eventTime(time))
        case .key(let pressed, _, let keycode, let ex, let ey, let mods, let group, let time, let flags):
            key(
                keycode: UInt8(truncatingIfNeeded: keycode), group: Int(group), pressed: pressed, modifiers: mods,
                repeated: flags & XI2Decoder.keyRepeat != 0, pointer: point(ex, ey), time: time)
        case .leave(_, _):
            if !input.translator.hasActiveFingers { input.translator.hover = nil }
            forgetScrollBaselines()
        case .pinch(let phase, let cancelled, _, let ex, let ey, let scaleValue, let angle, let time):
            input.motionSeen = true
            let p: TouchpadPhase =
                switch phase {
                case .begin: .begin
                case .update: .update
                case .end: cancelled ? .cancel : .end
                }
            flushFrame()
            let pinch = TouchpadPinch(
                timestamp: eventTime(time), phase: p, location: point(ex, ey), scale: quantize(scaleValue),
                angleDelta: quantize(angle))
            feed(.touchpadPinch(pinch), real: true)
        case .swipe(let phase, let cancelled, let device, let ex, let ey, let dx, let dy, let time):
            input.motionSeen = true
            switch phase {
            case .begin: input.translator.swipeBegan(device: device, at: point(ex, ey), into: &input.scratch)
            case .update:
                input.translator.swipeUpdated(
                    device: device, delta: Vector(dx: dx / scale, dy: dy / scale), into: &input.scratch)
                for i in input.scratch.indices {
                    input.scratch[i].location = Point(
                        x: quantize(input.scratch[i].location.x), y: quantize(input.scratch[i].location.y))
                }
            case .end: input.translator.swipeEnded(device: device, cancelled: cancelled, into: &input.scratch)
            }
            addChanges(at: eventTime(time))
        case .hierarchy(let removed, let time):
            for device in removed { input.translator.deviceRemoved(device, into: &input.scratch) }
            queryScrollAxes()
            // New masters need nothing: the window's selection is for all master devices.
            addChanges(at: eventTime(time))
        }
    }

    private func key(
        keycode: UInt8, group: Int, pressed: Bool, modifiers: UInt32, repeated: Bool, pointer: Point, time: UInt32
    ) {
        // Auto-repeat is not a visitor: only a key's first press counts as activity.
        let repeated = input.keyRepeats.isRepeat(keycode: keycode, pressed: pressed, time: time, flagged: repeated)
        let level = modifiers & ModifierBits.shift != 0 ? 1 : 0
        let column = Int32(min(group, 1) * 2 + level)
        let sym = input.keyboardMap.map { UInt($0.keysym(keycode: Int(keycode), column: Int(column))) } ?? 0
        if options.simulateModifier.matches(keysym: sym) {
            input.translator.modifierHeld = pressed
            input.translator.hover = pointer
            return
        }
        input.translator.updateModifiers(modifiers)
        if options.kiosk,
            adminKey(keysym: sym, pressed: pressed, modifiers: modifiers, repeated: repeated, at: eventTime(time))
        {
            return
        }
        if let onKey, sym != 0 {
            flushFrame()
            onKey(
                KeyPress(
                    keysym: UInt32(truncatingIfNeeded: sym), modifiers: KeyModifiers(x: modifiers), isDown: pressed,
                    isRepeat: repeated))
        }
        guard pressed, let action = KeyBindings.action(keysym: sym, modifiers: modifiers, kiosk: options.kiosk) else {
            if pressed && !repeated { noteActivity() }
            return
        }
        flushFrame()
        let t = eventTime(time)
        switch action {
        case .command(let command):
            applyPendingResize()
            if !repeated { noteRealInput(at: t) }
            input.lastFed = t
            scene.perform(command, at: t)
        case .shake:
            if !repeated { feed(.shake(timestamp: t), real: true) }
        case .quit:
            if !repeated && quitsOnKeys { quit(status: 0) }
        case .toggleFullscreen:
            if !repeated { toggleFullscreen() }
        }
    }

    private func windowMoved(x px: Int32, y py: Int32) {
        let now = clock.now()
        if input.shakeDetector.move(toX: Double(px), y: Double(py), at: now) {
            flushFrame()
            feed(.shake(timestamp: quantize(max(now, input.lastFed))), real: true)
        }
    }
}
