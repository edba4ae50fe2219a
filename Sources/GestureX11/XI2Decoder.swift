/// A touch's phase in an XI2 touch event.
public enum XI2TouchPhase: Sendable, Equatable { case begin, update, end }
/// A touchpad gesture's phase (XI 2.4).
public enum XI2GesturePhase: Sendable, Equatable { case begin, update, end }

/// An XInput 2 event the shell handles, decoded from the wire.
public enum XI2Event: Equatable, Sendable {
    case touch(phase: XI2TouchPhase, device: Int32, touch: UInt32, x: Double, y: Double, time: UInt32, flags: UInt32)
    case motion(device: Int32, x: Double, y: Double, modifiers: UInt32, time: UInt32, flags: UInt32)
    case button(
        pressed: Bool, device: Int32, button: UInt32, x: Double, y: Double, modifiers: UInt32, time: UInt32,
        flags: UInt32)
    case key(
        pressed: Bool, device: Int32, keycode: UInt32, x: Double, y: Double, modifiers: UInt32, group: UInt8,
        time: UInt32, flags: UInt32)
    case leave(device: Int32)
    case pinch(
        phase: XI2GesturePhase, cancelled: Bool, device: Int32, x: Double, y: Double, scale: Double,
        angleDelta: Double, time: UInt32)
    case swipe(
        phase: XI2GesturePhase, cancelled: Bool, device: Int32, x: Double, y: Double, dx: Double, dy: Double,
        time: UInt32)
    case hierarchy(removedMasters: [Int32], time: UInt32)
}

/// What ``XI2Decoder/decode(_:xiOpcode:)`` made of a buffer.
public enum XI2DecodeResult: Equatable, Sendable {
    case event(XI2Event)
    /// An XI2 event type the shell does not handle.
    case ignored
    /// An event inconsistent with its own length: one short reason.
    case malformed(String)
}

/// Decodes XInput 2 GenericEvents as XCB hands them over: the 32-byte wire header, XCB's 4-byte
/// full sequence number at offset 32, then `4 × length` more bytes of the wire event, in the
/// client's byte order (the server writes in the order the client announced). Nothing is
/// trusted: every read is checked against the buffer and against the event's own length field.
public enum XI2Decoder {
    /// `XIPointerEmulated` in a device event's flags.
    public static let pointerEmulated: UInt32 = 1 << 16
    /// `XIKeyRepeat` in a key event's flags.
    public static let keyRepeat: UInt32 = 1 << 16

    public static func decode(_ bytes: UnsafeRawBufferPointer, xiOpcode: UInt8) -> XI2DecodeResult {
        guard bytes.count >= 36 else { return .malformed("\(bytes.count) bytes, fewer than 36") }
        guard bytes[0] & 0x7f == 35, bytes[1] == xiOpcode else { return .ignored }
        let length = Int(u32(bytes, 4))
        let size = 36 + 4 * length
        guard length <= 1 << 20, size <= bytes.count else {
            return .malformed("length \(length) exceeds the \(bytes.count) bytes received")
        }
        let b = UnsafeRawBufferPointer(rebasing: bytes[0..<size])
        let type = u16(b, 8)
        let device = Int32(u16(b, 10))
        let time = u32(b, 12)
        switch type {
        case 2, 3, 4, 5, 6, 18, 19, 20:
            guard size >= 84 else { return .malformed("device event type \(type) of \(size) bytes, fewer than 84") }
            let extra = 4 * (Int(u16(b, 52)) + Int(u16(b, 54)))
            guard 84 + extra <= size else { return .malformed("device event masks overrun its length") }
            let detail = u32(b, 16)
            let ex = fixed(b, 44)
            let ey = fixed(b, 48)
            let flags = u32(b, 60)
            let mods = u32(b, 76)
            switch type {
            case 2, 3:
                return .event(
                    .key(
                        pressed: type == 2, device: device, keycode: detail, x: ex, y: ey, modifiers: mods,
                        group: b[83], time: time, flags: flags))
            case 4, 5:
                return .event(
                    .button(
                        pressed: type == 4, device: device, button: detail, x: ex, y: ey, modifiers: mods,
                        time: time, flags: flags))
            case 6:
                return .event(.motion(device: device, x: ex, y: ey, modifiers: mods, time: time, flags: flags))
            default:
                let phase: XI2TouchPhase = type == 18 ? .begin : type == 19 ? .update : .end
                return .event(
                    .touch(phase: phase, device: device, touch: detail, x: ex, y: ey, time: time, flags: flags))
            }
        case 8:
            return .event(.leave(device: device))
        case 11:
            let count = Int(u16(b, 20))
            guard 36 + 12 * count <= size else {
                return .malformed("hierarchy event: \(count) infos overrun its length")
            }
            var removed: [Int32] = []
            for i in 0..<count where u32(b, 36 + 12 * i + 8) & 2 != 0 {
                removed.append(Int32(u16(b, 36 + 12 * i)))
            }
            return .event(.hierarchy(removedMasters: removed, time: time))
        case 27, 28, 29:
            guard size >= 104 else { return .malformed("pinch event of \(size) bytes, fewer than 104") }
            let phase: XI2GesturePhase = type == 27 ? .begin : type == 28 ? .update : .end
            return .event(
                .pinch(
                    phase: phase, cancelled: u32(b, 100) & 1 != 0, device: device, x: fixed(b, 44), y: fixed(b, 48),
                    scale: fixed(b, 68), angleDelta: fixed(b, 72), time: time))
        case 30, 31, 32:
            guard size >= 96 else { return .malformed("swipe event of \(size) bytes, fewer than 96") }
            let phase: XI2GesturePhase = type == 30 ? .begin : type == 31 ? .update : .end
            return .event(
                .swipe(
                    phase: phase, cancelled: u32(b, 92) & 1 != 0, device: device, x: fixed(b, 44), y: fixed(b, 48),
                    dx: fixed(b, 52), dy: fixed(b, 56), time: time))
        default:
            return .ignored
        }
    }

    private static func u16(_ b: UnsafeRawBufferPointer, _ o: Int) -> UInt16 {
        b.loadUnaligned(fromByteOffset: o, as: UInt16.self)
    }
    private static func u32(_ b: UnsafeRawBufferPointer, _ o: Int) -> UInt32 {
        b.loadUnaligned(fromByteOffset: o, as: UInt32.self)
    }
    /// FP16.16 as libXi converts it.
    private static func fixed(_ b: UnsafeRawBufferPointer, _ o: Int) -> Double {
        Double(Int32(bitPattern: u32(b, o))) / 65536
    }
}
