import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The binary protocol of Xorg's `inputtest` driver (xf86-input-inputtest-protocol.h, 1.1),
/// mirrored byte for byte. Sizes and offsets are those of the C structs on x86-64 / aarch64
/// (checked against the header by `InputTestProtocolLayoutTests`).
package enum InputTestProtocol {
    package static let versionMajor: UInt16 = 1
    package static let versionMinor: UInt16 = 1

    /// xf86ITEventType.
    package enum EventType: UInt32 {
        case clientVersion = 0
        case waitForSync = 1
        case motion = 2
        case proximity = 3
        case button = 4
        case key = 5
        case touch = 6
        case gesturePinch = 7
        case gestureSwipe = 8
    }
    /// xf86ITResponseType.
    package enum ResponseType: UInt32 {
        case serverVersion = 0
        case syncFinished = 1
    }

    package static let maxValuators = 64
    // xf86ITValuatorData: has_unaccelerated u32 @0, mask[8] @4, valuators[64] @16,
    // unaccelerated[64] @528; 1040 bytes.
    package static let valuatorDataSize = 1040
    package static let valuatorMaskOffset = 4
    package static let valuatorValuesOffset = 16
    package static let valuatorUnacceleratedOffset = 528

    package static let clientVersionSize = 12  // header, major u16 @8, minor u16 @10
    package static let waitForSyncSize = 8
    package static let motionSize = 1056  // header, is_absolute u32 @8, valuators @16
    package static let buttonSize = 1064  // header, is_absolute @8, button @12, is_press @16, valuators @24
    package static let keySize = 16  // header, key_code i32 @8, is_press u32 @12
    package static let touchSize = 1056  // header, touchid @8, touch_type @12, valuators @16
    package static let pinchSize = 64  // header, type u16 @8, touches u16 @10, flags @12, 6 doubles @16
    package static let swipeSize = 48  // header, type u16 @8, touches u16 @10, flags @12, 4 doubles @16
    package static let responseHeaderSize = 8
    package static let serverVersionSize = 12
    package static let syncFinishedSize = 8

    /// Touch device axes span 0…65535 (TOUCH_AXIS_MAX), mapped by the server onto the screen.
    package static let axisMax = 65535.0

    // XI2.h event types the driver passes through to the server.
    package static let touchBegin: UInt32 = 18
    package static let touchUpdate: UInt32 = 19
    package static let touchEnd: UInt32 = 20
    package static let pinchBegin: UInt16 = 27
    package static let pinchUpdate: UInt16 = 28
    package static let pinchEnd: UInt16 = 29
    package static let swipeBegin: UInt16 = 30
    package static let swipeUpdate: UInt16 = 31
    package static let swipeEnd: UInt16 = 32
    /// XIGesturePinchEventCancelled / XIGestureSwipeEventCancelled.
    package static let gestureCancelled: UInt32 = 1
}

/// A fixed-size little-endian message.
private struct Message {
    package var bytes: [UInt8]
    package init(size: Int, type: InputTestProtocol.EventType) {
        bytes = [UInt8](repeating: 0, count: size)
        put(UInt32(size), at: 0)
        put(type.rawValue, at: 4)
    }
    package mutating func put<T: FixedWidthInteger>(_ value: T, at offset: Int) {
        withUnsafeBytes(of: value.littleEndian) { raw in
            for (i, b) in raw.enumerated() { bytes[offset + i] = b }
        }
    }
    package mutating func put(_ value: Double, at offset: Int) {
        put(value.bitPattern, at: offset)
    }
    /// Sets valuator `axis` of the xf86ITValuatorData starting at `base`.
    package mutating func putValuator(_ axis: Int, _ value: Double, base: Int) {
        bytes[base + InputTestProtocol.valuatorMaskOffset + axis / 8] |= UInt8(1 << (axis % 8))
        put(value, at: base + InputTestProtocol.valuatorValuesOffset + 8 * axis)
    }
}

/// One client connection to an `inputtest` device socket: the handshake, then touch, gesture,
/// motion, button and key events, and `sync()` (returns once the server has processed all the
/// events sent so far). Coordinates are screen pixels, converted to the 0…65535 axis range.
package final class InputTestDevice {
    package let socketPath: String
    package let screenWidth: Int
    package let screenHeight: Int
    private var fd: Int32 = -1
    package private(set) var serverVersion: (major: UInt16, minor: UInt16) = (0, 0)

    package init(socketPath: String, screenWidth: Int, screenHeight: Int, timeout: Double = 10) throws {
        self.socketPath = socketPath
        self.screenWidth = screenWidth
        self.screenHeight = screenHeight
        let connected = poll(timeout: timeout, interval: 0.005) { () -> Int32? in
            let s = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard s >= 0 else { return nil }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let pathBytes = Array(socketPath.utf8)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (i, b) in pathBytes.prefix(raw.count - 1).enumerated() { raw[i] = b }
            }
            let r = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(s, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            if r == 0 { return s }
            Glibc.close(s)
            return nil
        }
        guard let connected else {
            throw XTestError("cannot connect to inputtest socket \(socketPath)")
        }
        fd = connected
        var hello = Message(size: InputTestProtocol.clientVersionSize, type: .clientVersion)
        hello.put(InputTestProtocol.versionMajor, at: 8)
        hello.put(InputTestProtocol.versionMinor, at: 10)
        try send(hello)
        let reply = try readResponse(timeout: timeout)
        guard reply.type == InputTestProtocol.ResponseType.serverVersion.rawValue,
            reply.bytes.count == InputTestProtocol.serverVersionSize
        else {
            throw XTestError("inputtest \(socketPath): unexpected reply \(reply.type)")
        }
        serverVersion = (
            UInt16(reply.bytes[8]) | UInt16(reply.bytes[9]) << 8,
            UInt16(reply.bytes[10]) | UInt16(reply.bytes[11]) << 8
        )
        guard serverVersion.major == 1, serverVersion.minor >= 1 else {
            throw XTestError("inputtest protocol \(serverVersion) is too old (need 1.1)")
        }
    }

    package func close() {
        if fd >= 0 {
            Glibc.close(fd)
            fd = -1
        }
    }

    deinit { close() }

    // MARK: - Events

    package enum TouchPhase { case begin, update, end }

    /// A touch of a direct-touch device at screen pixel (`x`, `y`). `id` is the driver's
    /// slot id; the server assigns its own XI touch ids.
    package func touch(_ phase: TouchPhase, id: UInt32, x: Double, y: Double) throws {
        var m = Message(size: InputTestProtocol.touchSize, type: .touch)
        m.put(id, at: 8)
        let type: UInt32
        switch phase {
        case .begin: type = InputTestProtocol.touchBegin
        case .update: type = InputTestProtocol.touchUpdate
        case .end: type = InputTestProtocol.touchEnd
        }
        m.put(type, at: 12)
        m.putValuator(0, axisValue(x, extent: screenWidth), base: 16)
        m.putValuator(1, axisValue(y, extent: screenHeight), base: 16)
        try send(m)
    }

    package enum GesturePhase { case begin, update, end, cancel }

    /// An XI 2.4 touchpad pinch: `scale` is absolute (1 at begin), `angleDelta` degrees since
    /// the previous event.
    package func pinch(
        _ phase: GesturePhase, fingers: UInt16 = 2, scale: Double, angleDelta: Double = 0,
        dx: Double = 0, dy: Double = 0
    ) throws {
        var m = gestureMessage(
            size: InputTestProtocol.pinchSize, type: .gesturePinch, phase,
            (InputTestProtocol.pinchBegin, InputTestProtocol.pinchUpdate, InputTestProtocol.pinchEnd),
            fingers: fingers, dx: dx, dy: dy)
        m.put(scale, at: 48)
        m.put(angleDelta, at: 56)
        try send(m)
    }

    /// An XI 2.4 touchpad swipe.
    package func swipe(_ phase: GesturePhase, fingers: UInt16 = 3, dx: Double = 0, dy: Double = 0) throws {
        let m = gestureMessage(
            size: InputTestProtocol.swipeSize, type: .gestureSwipe, phase,
            (InputTestProtocol.swipeBegin, InputTestProtocol.swipeUpdate, InputTestProtocol.swipeEnd),
            fingers: fingers, dx: dx, dy: dy)
        try send(m)
    }

    /// The part pinch and swipe messages share: the event type for `phase`, the finger count,
    /// the flags and the deltas (accelerated and unaccelerated alike).
    private func gestureMessage(
        size: Int, type kind: InputTestProtocol.EventType, _ phase: GesturePhase,
        _ types: (begin: UInt16, update: UInt16, end: UInt16), fingers: UInt16, dx: Double, dy: Double
    ) -> Message {
        var m = Message(size: size, type: kind)
        let (type, flags) = gestureType(phase, begin: types.begin, update: types.update, end: types.end)
        m.put(type, at: 8)
        m.put(fingers, at: 10)
        m.put(flags, at: 12)
        m.put(dx, at: 16)
        m.put(dy, at: 24)
        m.put(dx, at: 32)
        m.put(dy, at: 40)
        return m
    }

    /// Relative motion (Pointer / PointerGesture devices).
    package func move(dx: Double, dy: Double) throws {
        var m = Message(size: InputTestProtocol.motionSize, type: .motion)
        m.put(UInt32(0), at: 8)
        m.putValuator(0, dx, base: 16)
        m.putValuator(1, dy, base: 16)
        try send(m)
    }

    /// Smooth scroll (Pointer / PointerGesture devices): relative changes of the horizontal
    /// (axis 2) and vertical (axis 3) scroll valuators, in the driver's units.
    package func scroll(horizontal: Double = 0, vertical: Double = 0) throws {
        var m = Message(size: InputTestProtocol.motionSize, type: .motion)
        m.put(UInt32(0), at: 8)
        if horizontal != 0 { m.putValuator(2, horizontal, base: 16) }
        if vertical != 0 { m.putValuator(3, vertical, base: 16) }
        try send(m)
    }

    /// A button of a pointer device, without valuators.
    package func button(_ button: Int32, pressed: Bool) throws {
        var m = Message(size: InputTestProtocol.buttonSize, type: .button)
        m.put(Int32(0), at: 8)
        m.put(button, at: 12)
        m.put(UInt32(pressed ? 1 : 0), at: 16)
        try send(m)
    }

    /// A key of a keyboard device; `keycode` is an X keycode (evdev code + 8).
    package func key(_ keycode: Int32, pressed: Bool) throws {
        var m = Message(size: InputTestProtocol.keySize, type: .key)
        m.put(keycode, at: 8)
        m.put(UInt32(pressed ? 1 : 0), at: 12)
        try send(m)
    }

    /// Returns once the server has processed every event sent so far.
    package func sync(timeout: Double = 10) throws {
        try send(Message(size: InputTestProtocol.waitForSyncSize, type: .waitForSync))
        let reply = try readResponse(timeout: timeout)
        guard reply.type == InputTestProtocol.ResponseType.syncFinished.rawValue else {
            throw XTestError("inputtest \(socketPath): expected SyncFinished, got \(reply.type)")
        }
    }

    // MARK: - Plumbing

    private func axisValue(_ pixel: Double, extent: Int) -> Double {
        (pixel / Double(extent) * (InputTestProtocol.axisMax + 1)).clamped(
            0, InputTestProtocol.axisMax)
    }

    private func gestureType(_ phase: GesturePhase, begin: UInt16, update: UInt16, end: UInt16)
        -> (UInt16, UInt32)
    {
        switch phase {
        case .begin: return (begin, 0)
        case .update: return (update, 0)
        case .end: return (end, 0)
        case .cancel: return (end, InputTestProtocol.gestureCancelled)
        }
    }

    private func send(_ message: Message) throws {
        guard fd >= 0 else { throw XTestError("inputtest \(socketPath): connection closed") }
        var offset = 0
        while offset < message.bytes.count {
            let n = message.bytes.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                throw XTestError(
                    "inputtest \(socketPath): send failed: \(String(cString: strerror(errno)))")
            }
            offset += n
        }
    }

    private func readExactly(_ count: Int, deadline: Double) throws -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: count)
        while bytes.count < count {
            let remaining = deadline - monotonicNow()
            guard remaining > 0 else {
                throw XTestError("inputtest \(socketPath): no reply from the server in time")
            }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let r = Glibc.poll(&pfd, 1, Int32(max(1, remaining * 1000)))
            if r < 0 && errno == EINTR { continue }
            if r <= 0 { continue }
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, count - bytes.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw XTestError("inputtest \(socketPath): server closed") }
            bytes += buffer[0..<n]
        }
        return bytes
    }

    private func readResponse(timeout: Double) throws -> (type: UInt32, bytes: [UInt8]) {
        let deadline = monotonicNow() + timeout
        let header = try readExactly(InputTestProtocol.responseHeaderSize, deadline: deadline)
        let length = Int(header[0..<4].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        let type = header[4..<8].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard length >= 8, length < 4096 else {
            throw XTestError("inputtest \(socketPath): bad response length \(length)")
        }
        let rest = try readExactly(length - 8, deadline: deadline)
        return (type, header + rest)
    }
}

extension Double {
    package func clamped(_ low: Double, _ high: Double) -> Double { Swift.min(Swift.max(self, low), high) }
}
