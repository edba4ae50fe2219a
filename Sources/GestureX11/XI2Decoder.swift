// The XInput 2 wire decoder: pure Swift (standard library only, no C module), so that it is unit
// tested and fuzzed without an X server (Fuzz/XI2Decoder, scripts/fuzz).

/// The phase of an XI2 touch (`XI_TouchBegin/Update/End`) or XI 2.4 touchpad gesture
/// (`XI_Gesture{Pinch,Swipe}{Begin,Update,End}`).
public enum XI2Phase: Sendable, Hashable {
    case begin, update, end
}

/// An XInput 2 event the X shell acts on, decoded from its wire structure. Coordinates are the
/// event's window-relative FP16.16 `event_x`/`event_y` in pixels; `modifiers` is the effective
/// state of the event's `mods` (`XIModifierInfo.effective`); `time` is the server time in ms;
/// `device` is the event's `deviceid` (the master device); `flags` are the event's raw flags
/// (`XIPointerEmulated`, `XIKeyRepeat`, `XITouchPendingEnd`, `XITouchEmulatingPointer`…).
public enum XI2Event: Equatable, Sendable {
    /// `XI_TouchBegin/Update/End` (XI 2.2, an `xXIDeviceEvent`); `touch` is its `detail`.
    case touch(phase: XI2Phase, device: Int32, touch: UInt32, x: Double, y: Double, time: UInt32, flags: UInt32)
    /// `XI_Motion` (an `xXIDeviceEvent`).
    case motion(device: Int32, x: Double, y: Double, modifiers: UInt32, time: UInt32, flags: UInt32)
    /// `XI_ButtonPress` / `XI_ButtonRelease` (an `xXIDeviceEvent`); `button` is its `detail`.
    case button(
        pressed: Bool, device: Int32, button: UInt32, x: Double, y: Double, modifiers: UInt32, time: UInt32,
        flags: UInt32)
    /// `XI_KeyPress` / `XI_KeyRelease` (an `xXIDeviceEvent`); `keycode` is its `detail`, `group`
    /// the effective group of its `XIGroupInfo`.
    case key(
        pressed: Bool, device: Int32, keycode: UInt32, x: Double, y: Double, modifiers: UInt32, group: UInt8,
        time: UInt32, flags: UInt32)
    /// `XI_Leave` (an `xXIEnterEvent`).
    case leave(device: Int32, time: UInt32)
    /// `XI_GesturePinchBegin/Update/End` (XI 2.4, an `xXIGesturePinchEvent`): `scale` is absolute
    /// since the gesture began, `angleDelta` the rotation since the last event in degrees
    /// (clockwise positive), both FP16.16 on the wire; `cancelled` is `XIGesturePinchEventCancelled`.
    case pinch(
        phase: XI2Phase, cancelled: Bool, device: Int32, x: Double, y: Double, scale: Double, angleDelta: Double,
        time: UInt32)
    /// `XI_GestureSwipeBegin/Update/End` (XI 2.4, an `xXIGestureSwipeEvent`): `dx`, `dy` are the
    /// accelerated `delta_x`/`delta_y` since the last event; `cancelled` is `XIGestureSwipeEventCancelled`.
    case swipe(
        phase: XI2Phase, cancelled: Bool, device: Int32, x: Double, y: Double, dx: Double, dy: Double, time: UInt32)
    /// `XI_HierarchyChanged` (an `xXIHierarchyEvent` and its `xXIHierarchyInfo`s): the devices
    /// whose info carries `XIMasterRemoved`.
    case hierarchy(removedMasters: [Int32], time: UInt32)
}

/// Two valuators of an `XI_Motion` event (``XI2Decoder/motionValuators(_:xiOpcode:_:_:)``).
public struct XI2MotionValuators: Equatable, Sendable {
    /// The slave device the event came from (`sourceid`).
    public var source: Int32
    public var flags: UInt32
    public var first: Double?
    public var second: Double?

    public init(source: Int32, flags: UInt32, first: Double?, second: Double?) {
        self.source = source
        self.flags = flags
        self.first = first
        self.second = second
    }
}

/// What ``XI2Decoder/decode(_:xiOpcode:)`` made of a buffer.
public enum XI2DecodeResult: Equatable, Sendable {
    /// A well-formed event of a kind the shell handles.
    case event(XI2Event)
    /// Not an XI2 event the shell handles: a core event, another extension's GenericEvent, or an
    /// XI2 event type the shell does not select. Only its 32-byte header was read.
    case ignored
    /// An XI2 event inconsistent with its own length field (or too short for its header): one
    /// short reason, for one warning line. Nothing of it should be used.
    case malformed(String)
}

/// Decodes XInput 2 events (X GenericEvents of the XI extension) from the buffers XCB hands over,
/// checking every event against its own length field before a field is read.
///
/// XCB's buffer for a GenericEvent is the 32-byte wire header (`response_type` 35, the extension's
/// major opcode, `sequence`, `length` = the 4-byte units beyond 32, `evtype`…), then a 4-byte
/// `full_sequence` XCB inserts at offset 32, then the remaining `4 × length` bytes of the wire
/// event: `36 + 4 × length` bytes in all. Offsets below are in that buffer (the `xcb_input_*_event_t`
/// structs of xcb/xinput.h; the unit tests build their buffers with those structs).
///
/// Fields are read in the host's byte order: XCB opens the connection in the client's byte order,
/// so the server sends every event in it. Every read is bounds-checked; nothing traps on any input.
/// Longer events than this decoder knows are accepted (later protocol versions may append fields).
public enum XI2Decoder {
    /// `XIPointerEmulated` in a device event's flags (a pointer event emulated from a touch).
    public static let pointerEmulated: UInt32 = 1 << 16
    /// `XIKeyRepeat` in a key event's flags.
    public static let keyRepeat: UInt32 = 1 << 16

    /// The X GenericEvent code (`XCB_GE_GENERIC`).
    public static let genericEvent: UInt8 = 35

    /// The size of XCB's buffer for the event at `event` (at least the 32 bytes of any X event, as
    /// XCB allocates): `36 + 4 × length` for a GenericEvent, 32 otherwise; `nil` when that
    /// does not fit in an `Int`.
    public static func xcbEventSize(_ event: UnsafeRawPointer) -> Int? {
        guard event.load(as: UInt8.self) & 0x7F == genericEvent else { return 32 }
        return declaredSize(length: event.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
    }

    /// Decodes one event. `bytes` is XCB's buffer (see ``xcbEventSize(_:)``); `xiOpcode` the XI
    /// extension's major opcode (`QueryExtension`).
    public static func decode(_ bytes: UnsafeRawBufferPointer, xiOpcode: UInt8) -> XI2DecodeResult {
        guard bytes.count >= 32 else {
            return .malformed("event of \(bytes.count) bytes, shorter than the 32-byte X event header")
        }
        let header = Fields(bytes: bytes, limit: 32)
        do throws(Malformed) {
            guard try header.u8(0) & 0x7F == genericEvent, try header.u8(1) == xiOpcode else { return .ignored }
            let length = try header.u32(4)
            let evtype = try header.u16(8)
            guard let kind = Kind(evtype: evtype) else { return .ignored }
            guard let size = declaredSize(length: length), bytes.count >= size else {
                throw Malformed(
                    "XI2 \(kind.name) event: length field \(length) (\(36 &+ 4 &* UInt64(length)) bytes) "
                        + "exceeds the \(bytes.count)-byte buffer")
            }
            return .event(try decode(kind, Fields(bytes: bytes, limit: size)))
        } catch {
            return .malformed(error.reason)
        }
    }

    // MARK: Event kinds

    /// The XI2 event types decoded (XI2.h `XI_*`).
    private enum Kind {
        case key(pressed: Bool)
        case button(pressed: Bool)
        case motion, leave, hierarchy
        case touch(XI2Phase)
        case pinch(XI2Phase)
        case swipe(XI2Phase)

        init?(evtype: UInt16) {
            switch evtype {
            case 2, 3: self = .key(pressed: evtype == 2)  // XI_KeyPress, XI_KeyRelease
            case 4, 5: self = .button(pressed: evtype == 4)  // XI_ButtonPress, XI_ButtonRelease
            case 6: self = .motion  // XI_Motion
            case 8: self = .leave  // XI_Leave
            case 11: self = .hierarchy  // XI_HierarchyChanged
            case 18...20: self = .touch(Kind.phase(evtype - 18))  // XI_TouchBegin/Update/End
            case 27...29: self = .pinch(Kind.phase(evtype - 27))  // XI_GesturePinchBegin/Update/End
            case 30...32: self = .swipe(Kind.phase(evtype - 30))  // XI_GestureSwipeBegin/Update/End
            default: return nil
            }
        }

        private static func phase(_ n: UInt16) -> XI2Phase { n == 0 ? .begin : n == 1 ? .update : .end }

        var name: String {
            switch self {
            case .key(let pressed): pressed ? "KeyPress" : "KeyRelease"
            case .button(let pressed): pressed ? "ButtonPress" : "ButtonRelease"
            case .motion: "Motion"
            case .leave: "Leave"
            case .hierarchy: "HierarchyChanged"
            case .touch(let p): "Touch" + Kind.name(p)
            case .pinch(let p): "GesturePinch" + Kind.name(p)
            case .swipe(let p): "GestureSwipe" + Kind.name(p)
            }
        }

        private static func name(_ p: XI2Phase) -> String {
            switch p {
            case .begin: "Begin"
            case .update: "Update"
            case .end: "End"
            }
        }
    }

    /// Sizes of the fixed parts in XCB's buffer (`sizeof` of the xcb_input structs; the
    /// `length` field of a well-formed event is at least (size − 36) / 4).
    private enum FixedSize {
        static let deviceEvent = 84  // xcb_input_{key,button}_press, motion, touch_begin_event_t
        static let enterEvent = 76  // xcb_input_enter_event_t
        static let pinchEvent = 104  // xcb_input_gesture_pinch_begin_event_t
        static let swipeEvent = 96  // xcb_input_gesture_swipe_begin_event_t
        static let hierarchyEvent = 36  // xcb_input_hierarchy_event_t
        static let hierarchyInfo = 12  // xcb_input_hierarchy_info_t
    }

    private static func decode(_ kind: Kind, _ f: Fields) throws(Malformed) -> XI2Event {
        // The event's name, for error texts only (formatted lazily).
        var name: String { kind.name }
        let device = Int32(try f.u16(10))
        let time = try f.u32(12)
        switch kind {
        case .key, .button, .motion, .touch:
            try checkDeviceEvent(f, name: name)
            let detail = try f.u32(16)
            let x = try f.fixed(44)
            let y = try f.fixed(48)
            let flags = try f.u32(60)
            let mods = try f.u32(76)  // mods.effective
            switch kind {
            case .key(let pressed):
                return .key(
                    pressed: pressed, device: device, keycode: detail, x: x, y: y, modifiers: mods,
                    group: try f.u8(83), time: time, flags: flags)
            case .button(let pressed):
                return .button(
                    pressed: pressed, device: device, button: detail, x: x, y: y, modifiers: mods, time: time,
                    flags: flags)
            case .touch(let phase):
                return .touch(phase: phase, device: device, touch: detail, x: x, y: y, time: time, flags: flags)
            default:
                return .motion(device: device, x: x, y: y, modifiers: mods, time: time, flags: flags)
            }
        case .leave:
            try f.require(FixedSize.enterEvent, name, "the fixed part of an XIEnterEvent")
            let buttonsLen = Int(try f.u16(54))
            try f.require(FixedSize.enterEvent + 4 * buttonsLen, name, "its buttons_len \(buttonsLen) mask words")
            return .leave(device: device, time: time)
        case .pinch(let phase):
            try f.require(FixedSize.pinchEvent, name, "the fixed part of an XIGesturePinchEvent")
            return .pinch(
                phase: phase, cancelled: try f.u32(100) & 1 != 0, device: device, x: try f.fixed(44),
                y: try f.fixed(48), scale: try f.fixed(68), angleDelta: try f.fixed(72), time: time)
        case .swipe(let phase):
            try f.require(FixedSize.swipeEvent, name, "the fixed part of an XIGestureSwipeEvent")
            return .swipe(
                phase: phase, cancelled: try f.u32(92) & 1 != 0, device: device, x: try f.fixed(44),
                y: try f.fixed(48), dx: try f.fixed(52), dy: try f.fixed(56), time: time)
        case .hierarchy:
            try f.require(FixedSize.hierarchyEvent, name, "the fixed part of an XIHierarchyEvent")
            let count = Int(try f.u16(20))
            let infoSize = FixedSize.hierarchyInfo
            try f.require(FixedSize.hierarchyEvent + infoSize * count, name, "its num_infos \(count) infos")
            var removed: [Int32] = []
            for i in 0..<count {
                let info = FixedSize.hierarchyEvent + infoSize * i
                if try f.u32(info + 8) & 2 != 0 {  // XIMasterRemoved
                    removed.append(Int32(try f.u16(info)))
                }
            }
            return .hierarchy(removedMasters: removed, time: time)
        }
    }

    /// An `xXIDeviceEvent` is its fixed part, `buttons_len` words of button mask, `valuators_len`
    /// words of valuator mask, then one FP32.32 (8 bytes) per bit set in the valuator mask.
    private static func checkDeviceEvent(_ f: Fields, name: @autoclosure () -> String) throws(Malformed) {
        let fixed = FixedSize.deviceEvent
        try f.require(fixed, name(), "the fixed part of an XIDeviceEvent")
        let buttonsLen = Int(try f.u16(52))
        let valuatorsLen = Int(try f.u16(54))
        let masks = fixed + 4 * buttonsLen
        let values = masks + 4 * valuatorsLen
        try f.require(values, name(), "its buttons_len \(buttonsLen) and valuators_len \(valuatorsLen) mask words")
        var axes = 0
        for word in 0..<valuatorsLen { axes += try f.u32(masks + 4 * word).nonzeroBitCount }
        try f.require(values + 8 * axes, name(), "the \(axes) valuator values of its mask")
    }

    /// Two valuators of an `XI_Motion` event (XI 2.1 smooth scroll reads its scroll axes so):
    /// the slave device that moved (`sourceid`), the event's flags and the FP32.32 values of
    /// valuators `a` and `b`, nil where the event's valuator mask does not name one. Nil for any
    /// other event, or a malformed one (the same length checks as ``decode(_:xiOpcode:)``).
    public static func motionValuators(
        _ bytes: UnsafeRawBufferPointer, xiOpcode: UInt8, _ a: Int, _ b: Int
    ) -> XI2MotionValuators? {
        motionValuators(bytes, xiOpcode: xiOpcode) { _ in (a, b) }
    }

    /// ``motionValuators(_:xiOpcode:_:_:)`` with the two valuators chosen by the source device
    /// (`axes(sourceid)`; nil: none wanted, and nil is returned), so that the event is checked
    /// and read once.
    public static func motionValuators(
        _ bytes: UnsafeRawBufferPointer, xiOpcode: UInt8, axes: (Int32) -> (Int, Int)?
    ) -> XI2MotionValuators? {
        guard bytes.count >= 32 else { return nil }
        let header = Fields(bytes: bytes, limit: 32)
        do throws(Malformed) {
            guard try header.u8(0) & 0x7F == genericEvent, try header.u8(1) == xiOpcode, try header.u16(8) == 6,
                let size = declaredSize(length: try header.u32(4)), bytes.count >= size
            else { return nil }
            let f = Fields(bytes: bytes, limit: size)
            try checkDeviceEvent(f, name: "Motion")
            let buttonsLen = Int(try f.u16(52))
            let valuatorsLen = Int(try f.u16(54))
            let masks = FixedSize.deviceEvent + 4 * buttonsLen
            let values = masks + 4 * valuatorsLen
            func value(_ n: Int) throws(Malformed) -> Double? {
                guard n >= 0, n < 32 * valuatorsLen else { return nil }
                let word = try f.u32(masks + 4 * (n / 32))
                guard word & (1 << UInt32(n % 32)) != 0 else { return nil }
                var index = (word & ((1 << UInt32(n % 32)) - 1)).nonzeroBitCount
                for w in 0..<(n / 32) { index += try f.u32(masks + 4 * w).nonzeroBitCount }
                let integral = Int32(bitPattern: try f.u32(values + 8 * index))
                let fraction = try f.u32(values + 8 * index + 4)
                return Double(integral) + Double(fraction) / 4_294_967_296
            }
            let source = Int32(try f.u16(56))
            guard let (a, b) = axes(source) else { return nil }
            return XI2MotionValuators(source: source, flags: try f.u32(60), first: try value(a), second: try value(b))
        } catch {
            return nil
        }
    }

    /// `36 + 4 × length`, or nil when it does not fit in an `Int`.
    private static func declaredSize(length: UInt32) -> Int? {
        guard let words = Int(exactly: length) else { return nil }
        let (bytes, o1) = words.multipliedReportingOverflow(by: 4)
        let (size, o2) = bytes.addingReportingOverflow(36)
        return o1 || o2 ? nil : size
    }

    // MARK: Bounds-checked reads

    private struct Malformed: Error {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// The first `limit` bytes of a buffer (the event's declared size, never more than the buffer).
    private struct Fields {
        let bytes: UnsafeRawBufferPointer
        let limit: Int

        /// Throws unless the event's declared size covers `end` bytes.
        /// (The texts are autoclosures: formatted only for a malformed event, never per event.)
        func require(
            _ end: Int, _ name: @autoclosure () -> String, _ what: @autoclosure () -> String
        ) throws(Malformed) {
            guard end <= limit else {
                throw Malformed(
                    "XI2 \(name()) event of \(limit) bytes (length field \((limit - 36) / 4)) is too short for "
                        + "\(what()) (\(end) bytes)")
            }
        }

        private func check(_ offset: Int, _ size: Int) throws(Malformed) {
            guard offset >= 0, offset <= limit - size, limit <= bytes.count else {
                throw Malformed("read of \(size) bytes at offset \(offset) outside the \(limit)-byte event")
            }
        }

        func u8(_ offset: Int) throws(Malformed) -> UInt8 {
            try check(offset, 1)
            return bytes[offset]
        }

        func u16(_ offset: Int) throws(Malformed) -> UInt16 {
            try check(offset, 2)
            return bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self)
        }

        func u32(_ offset: Int) throws(Malformed) -> UInt32 {
            try check(offset, 4)
            return bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
        }

        /// An FP16.16 fixed-point value (`xcb_input_fp1616_t`), as libXi converts it.
        func fixed(_ offset: Int) throws(Malformed) -> Double {
            Double(Int32(bitPattern: try u32(offset))) / 65536
        }
    }
}
