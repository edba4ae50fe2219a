// Over 400 lines: every XI2 event kind the decoder reads, each with its truncated and
// inconsistent forms; the wire bytes are built inline per case.
import CX11
import Foundation
import GestureTestSupport
import GestureX11
import Testing

/// The XI2 wire decoder on buffers laid out as XCB hands them over, built with xcb-xinput's own
/// C structs (so the decoder's offsets are checked against xcb/xinput.h, not against themselves),
/// and on every malformed variant a buggy or hostile server could send.
@Suite("XI2 wire decoder")
struct XI2DecoderTests {
    /// A buffer and what decoding it must give.
    struct Case: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var bytes: [UInt8]
        var expected: XI2DecodeResult
    }

    /// A malformed buffer and a phrase its reason must contain.
    struct BadCase: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var bytes: [UInt8]
        var reason: String
    }

    static let opcode: UInt8 = 131

    static func decode(_ bytes: [UInt8], opcode: UInt8 = opcode) -> XI2DecodeResult {
        bytes.withUnsafeBytes { XI2Decoder.decode($0, xiOpcode: opcode) }
    }

    // MARK: Well-formed events

    static let events: [Case] = [
        Case(
            testDescription: "XI_TouchBegin", bytes: touch(XI_TouchBegin),
            expected: .event(
                .touch(phase: .begin, device: 3, touch: 77, x: 12.5, y: -3.25, time: 1000, flags: 1 << 16))),
        Case(
            testDescription: "XI_TouchUpdate", bytes: touch(XI_TouchUpdate),
            expected: .event(
                .touch(phase: .update, device: 3, touch: 77, x: 12.5, y: -3.25, time: 1000, flags: 1 << 16))),
        Case(
            testDescription: "XI_TouchEnd", bytes: touch(XI_TouchEnd),
            expected: .event(.touch(phase: .end, device: 3, touch: 77, x: 12.5, y: -3.25, time: 1000, flags: 1 << 16))
        ),
        Case(
            testDescription: "XI_Motion with a button mask, a valuator mask and two valuator values",
            bytes: motion(),
            expected: .event(.motion(device: 2, x: 640.75, y: 400.5, modifiers: 0x14, time: 5, flags: 1 << 16))),
        Case(
            testDescription: "XI_ButtonPress", bytes: button(XI_ButtonPress),
            expected: .event(
                .button(pressed: true, device: 4, button: 3, x: 1, y: 2, modifiers: 4, time: 9, flags: 0))),
        Case(
            testDescription: "XI_ButtonRelease", bytes: button(XI_ButtonRelease),
            expected: .event(
                .button(pressed: false, device: 4, button: 3, x: 1, y: 2, modifiers: 4, time: 9, flags: 0))),
        Case(
            testDescription: "XI_KeyPress (effective modifiers and group)", bytes: key(XI_KeyPress),
            expected: .event(
                .key(
                    pressed: true, device: 3, keycode: 52, x: 10, y: 20, modifiers: 7, group: 3, time: 42,
                    flags: UInt32(XIKeyRepeat)))),
        Case(
            testDescription: "XI_KeyRelease", bytes: key(XI_KeyRelease),
            expected: .event(
                .key(
                    pressed: false, device: 3, keycode: 52, x: 10, y: 20, modifiers: 7, group: 3, time: 42,
                    flags: UInt32(XIKeyRepeat)))),
        Case(
            testDescription: "XI_Leave with a button mask", bytes: leave(),
            expected: .event(.leave(device: 2, time: 8))),
        Case(
            testDescription: "XI_GesturePinchBegin", bytes: pinch(XI_GesturePinchBegin, flags: 0),
            expected: .event(
                .pinch(
                    phase: .begin, cancelled: false, device: 2, x: 300.5, y: 200.25, scale: 1.5, angleDelta: -2.75,
                    time: 70))),
        Case(
            testDescription: "XI_GesturePinchUpdate", bytes: pinch(XI_GesturePinchUpdate, flags: 0),
            expected: .event(
                .pinch(
                    phase: .update, cancelled: false, device: 2, x: 300.5, y: 200.25, scale: 1.5, angleDelta: -2.75,
                    time: 70))),
        Case(
            testDescription: "XI_GesturePinchEnd, cancelled",
            bytes: pinch(XI_GesturePinchEnd, flags: UInt32(XIGesturePinchEventCancelled)),
            expected: .event(
                .pinch(
                    phase: .end, cancelled: true, device: 2, x: 300.5, y: 200.25, scale: 1.5, angleDelta: -2.75,
                    time: 70))),
        Case(
            testDescription: "XI_GestureSwipeBegin", bytes: swipe(XI_GestureSwipeBegin, flags: 0),
            expected: .event(
                .swipe(phase: .begin, cancelled: false, device: 2, x: 50, y: 60, dx: 4.5, dy: -1.25, time: 71))),
        Case(
            testDescription: "XI_GestureSwipeUpdate", bytes: swipe(XI_GestureSwipeUpdate, flags: 0),
            expected: .event(
                .swipe(phase: .update, cancelled: false, device: 2, x: 50, y: 60, dx: 4.5, dy: -1.25, time: 71))),
        Case(
            testDescription: "XI_GestureSwipeEnd, cancelled",
            bytes: swipe(XI_GestureSwipeEnd, flags: UInt32(XIGestureSwipeEventCancelled)),
            expected: .event(
                .swipe(phase: .end, cancelled: true, device: 2, x: 50, y: 60, dx: 4.5, dy: -1.25, time: 71))),
        Case(
            testDescription: "XI_HierarchyChanged: only the XIMasterRemoved infos",
            bytes: hierarchy(infos: [(7, XISlaveRemoved), (9, XIMasterRemoved | XIDeviceDisabled), (11, XIMasterAdded)]
            ),
            expected: .event(.hierarchy(removedMasters: [9], time: 123))),
        Case(
            testDescription: "XI_HierarchyChanged with no infos",
            bytes: hierarchy(infos: []), expected: .event(.hierarchy(removedMasters: [], time: 123))),
    ]

    @Test("Each XI2 event kind decodes from a buffer built with xcb-xinput's structs", arguments: events)
    func decodes(_ c: Case) {
        #expect(Self.decode(c.bytes) == c.expected)
    }

    @Test("The size of XCB's buffer follows the GenericEvent's length field", arguments: events)
    func xcbEventSize(_ c: Case) {
        let size = c.bytes.withUnsafeBytes { XI2Decoder.xcbEventSize($0.baseAddress!) }
        #expect(size == c.bytes.count)
    }

    @Test("A shorter buffer or a smaller length field than the event needs is malformed", arguments: events)
    func everyTruncationIsMalformed(_ c: Case) {
        for n in 0..<c.bytes.count {
            #expect(Self.isMalformed(Self.decode(Array(c.bytes[..<n]))), "cut to \(n) bytes")
        }
        for words in 0..<UInt32((c.bytes.count - 36) / 4) {
            #expect(Self.isMalformed(Self.decode(Self.withLength(c.bytes, words))), "length field \(words)")
        }
    }

    @Test("Events longer than their fixed part (later protocol versions) and the send-event bit are accepted")
    func longerEventsAndSendEventBit() {
        var bytes = Self.touch(XI_TouchUpdate) + [UInt8](repeating: 0xEE, count: 8)
        bytes = Self.withLength(bytes, UInt32((bytes.count - 36) / 4))
        bytes[0] |= 0x80
        let expected = XI2Event.touch(
            phase: .update, device: 3, touch: 77, x: 12.5, y: -3.25, time: 1000, flags: 1 << 16)
        #expect(Self.decode(bytes) == .event(expected))
        // Bytes beyond the declared length are not the event's.
        #expect(Self.decode(Self.touch(XI_TouchUpdate) + [1, 2, 3, 4]) == .event(expected))
    }

    @Test(
        "Core events, other extensions' GenericEvents and XI2 types the shell does not handle are ignored",
        arguments: [
            Case(testDescription: "a core KeyPress", bytes: core(type: 2), expected: .ignored),
            Case(testDescription: "a core error", bytes: core(type: 0), expected: .ignored),
            Case(testDescription: "another extension's GenericEvent", bytes: other(opcode: 132), expected: .ignored),
            Case(testDescription: "XI_Enter", bytes: enter(XI_Enter), expected: .ignored),
            Case(testDescription: "XI_RawMotion", bytes: enter(XI_RawMotion), expected: .ignored),
            Case(testDescription: "evtype 0xFFFF", bytes: enter(0xFFFF), expected: .ignored),
        ])
    func ignored(_ c: Case) {
        #expect(Self.decode(c.bytes) == c.expected)
    }

    // MARK: Malformed events

    static let malformed: [BadCase] = [
        BadCase(testDescription: "an empty buffer", bytes: [], reason: "event of 0 bytes"),
        BadCase(testDescription: "31 bytes", bytes: Array(touch(XI_TouchBegin)[..<31]), reason: "event of 31 bytes"),
        BadCase(
            testDescription: "a device event cut to 32 bytes (length field intact)",
            bytes: Array(touch(XI_TouchBegin)[..<32]), reason: "length field 12 (84 bytes) exceeds the 32-byte buffer"),
        BadCase(
            testDescription: "a device event cut to 32 bytes by the server (length 0, as XCB delivers it)",
            bytes: withLength(Array(motion()[..<36]), 0), reason: "too short for the fixed part of an XIDeviceEvent"),
        BadCase(
            testDescription: "a length field one word beyond the buffer",
            bytes: withLength(button(XI_ButtonPress), 13), reason: "length field 13 (88 bytes) exceeds the 84-byte"),
        BadCase(
            testDescription: "the largest length field",
            bytes: withLength(key(XI_KeyPress), .max), reason: "length field 4294967295"),
        BadCase(
            testDescription: "buttons_len 0xFFFF", bytes: motion(buttonsLen: 0xFFFF),
            reason: "buttons_len 65535 and valuators_len 1 mask words"),
        BadCase(
            testDescription: "valuators_len 0xFFFF", bytes: motion(valuatorsLen: 0xFFFF),
            reason: "buttons_len 1 and valuators_len 65535 mask words"),
        BadCase(
            testDescription: "a valuator mask with more bits than values",
            bytes: motion(mask: 0xFF), reason: "the 8 valuator values"),
        BadCase(
            testDescription: "an XI_Leave whose buttons_len overflows",
            bytes: leave(buttonsLen: 2), reason: "buttons_len 2 mask words"),
        BadCase(
            testDescription: "an XI_Leave cut to its header", bytes: withLength(Array(leave()[..<36]), 0),
            reason: "XI2 Leave event of 36 bytes (length field 0) is too short for the fixed part of an XIEnterEvent"),
        BadCase(
            testDescription: "a pinch one word short",
            bytes: withLength(Array(pinch(XI_GesturePinchUpdate, flags: 0)[..<100]), 16),
            reason: "XI2 GesturePinchUpdate event of 100 bytes"),
        BadCase(
            testDescription: "a swipe one word short",
            bytes: withLength(Array(swipe(XI_GestureSwipeEnd, flags: 0)[..<92]), 14),
            reason: "XI2 GestureSwipeEnd event of 92 bytes"),
        BadCase(
            testDescription: "num_infos beyond the length",
            bytes: hierarchy(infos: [(2, XIMasterRemoved)], count: 4000),
            reason: "num_infos 4000 infos"),
        BadCase(
            testDescription: "num_infos 0xFFFF with no infos", bytes: hierarchy(infos: [], count: 0xFFFF),
            reason: "num_infos 65535 infos"),
        BadCase(
            testDescription: "a hierarchy event whose length is not a whole info",
            bytes: withLength(hierarchy(infos: [(2, XIMasterRemoved)]), 2), reason: "num_infos 1 infos"),
    ]

    @Test("Each malformed event is .malformed with its reason, and no crash", arguments: malformed)
    func rejects(_ c: BadCase) {
        let result = Self.decode(c.bytes)
        guard case .malformed(let reason) = result else {
            Issue.record("decoded as \(result)")
            return
        }
        #expect(reason.contains(c.reason), "\(reason)")
    }

    @Test("XI 2.1 scroll valuators: a motion's values by valuator number (FP32.32), its source; nil for others")
    func motionValuators() {
        var e = xcb_input_motion_event_t()
        e.deviceid = 2
        e.sourceid = 10
        e.flags = 0
        e.buttons_len = 1
        e.valuators_len = 1
        // Axes 2 and 3: 5.5 and -3.
        let bytes = Self.wire(e, XI_Motion, extra: Self.words([0, 0b1100, 5, 0x8000_0000, UInt32(bitPattern: -3), 0]))
        let read = bytes.withUnsafeBytes { XI2Decoder.motionValuators($0, xiOpcode: Self.opcode, 3, 2) }
        #expect(read == XI2MotionValuators(source: 10, flags: 0, first: -3, second: 5.5))
        let absent = bytes.withUnsafeBytes { XI2Decoder.motionValuators($0, xiOpcode: Self.opcode, 0, 40) }
        #expect(absent == XI2MotionValuators(source: 10, flags: 0, first: nil, second: nil))
        // Every truncation, a touch and another opcode read nothing.
        for n in 0..<bytes.count {
            #expect(
                Array(bytes[..<n]).withUnsafeBytes { XI2Decoder.motionValuators($0, xiOpcode: Self.opcode, 2, 3) }
                    == nil)
        }
        #expect(
            Self.touch(XI_TouchBegin).withUnsafeBytes { XI2Decoder.motionValuators($0, xiOpcode: Self.opcode, 2, 3) }
                == nil)
        #expect(bytes.withUnsafeBytes { XI2Decoder.motionValuators($0, xiOpcode: Self.opcode + 1, 2, 3) } == nil)
    }

    @Test("A GenericEvent of another opcode is not decoded as XI2, even when it looks like one")
    func wrongOpcode() {
        let bytes = Self.touch(XI_TouchBegin)
        #expect(Self.decode(bytes, opcode: Self.opcode + 1) == .ignored)
        #expect(Self.decode(Array(bytes[..<40]), opcode: Self.opcode + 1) == .ignored)
        #expect(Self.decode(Array(bytes[..<40])) != .ignored)
    }

    /// Fuzz/corpus/xi2 (scripts/fuzz's seeds, written by Fuzz/XI2Decoder/seeds.c): `real-*` were
    /// captured from Xvfb (XTest input, an MPX master added and removed), the others are built
    /// with the C structs.
    @Test("The fuzzer's seeds decode, the real events captured from Xvfb included")
    func fuzzSeeds() throws {
        let dir = URL(fileURLWithPath: repositoryRoot + "/Fuzz/corpus/xi2")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        #expect(names.filter { $0.hasPrefix("real-") }.count >= 10)
        var kinds: Set<String> = []
        var removedMasters: [Int32] = []
        for name in names {
            let result = Self.decode([UInt8](try Data(contentsOf: dir.appendingPathComponent(name))))
            if name.hasSuffix("-type7") {  // XI_Enter: not handled
                #expect(result == .ignored, "\(name)")
                continue
            }
            guard case .event(let event) = result else {
                Issue.record("\(name): \(result)")
                continue
            }
            if name.hasPrefix("real-") { kinds.insert(String(describing: event).prefix { $0 != "(" }.description) }
            if case .hierarchy(let removed, _) = event, name.hasPrefix("real-") { removedMasters += removed }
        }
        #expect(kinds == ["motion", "button", "key", "leave", "hierarchy"])
        #expect(removedMasters.count == 2, "the pointer and keyboard of the removed master")
    }

    // MARK: Buffers, built with xcb-xinput's structs

    static func isMalformed(_ r: XI2DecodeResult) -> Bool {
        if case .malformed = r { return true }
        return false
    }

    /// FP16.16.
    static func fp(_ v: Double) -> Int32 { Int32(v * 65536) }

    /// The bytes of 32-bit words, in host order.
    static func words(_ values: [UInt32]) -> [UInt8] {
        values.withUnsafeBytes { Array($0) }
    }

    /// `bytes` with its length field set to `words`.
    static func withLength(_ bytes: [UInt8], _ words: UInt32) -> [UInt8] {
        var b = bytes
        withUnsafeBytes(of: words) { b.replaceSubrange(4..<8, with: $0) }
        return b
    }

    /// An event as XCB delivers it: `e` (the wire struct with XCB's full_sequence at 32) and its
    /// variable part, with the GenericEvent header filled in and `length` covering both.
    static func wire<T: XI2WireEvent>(_ e: T, _ evtype: Int32, extra: [UInt8] = []) -> [UInt8] {
        var e = e
        e.response_type = UInt8(XCB_GE_GENERIC)
        e.extension = opcode
        e.event_type = UInt16(evtype)
        e.length = UInt32((MemoryLayout<T>.size + extra.count - 36) / 4)
        e.sequence = 0x1234
        return withUnsafeBytes(of: e) { Array($0) } + extra
    }

    static func touch(_ evtype: Int32) -> [UInt8] {
        var e = xcb_input_touch_begin_event_t()
        e.deviceid = 3
        e.sourceid = 12
        e.time = 1000
        e.detail = 77
        e.root_x = fp(500)
        e.root_y = fp(600)
        e.event_x = fp(12.5)
        e.event_y = fp(-3.25)
        e.flags = 1 << 16  // XITouchPendingEnd
        e.mods = xcb_input_modifier_info_t(base: 1, latched: 2, locked: 4, effective: 8)
        return wire(e, evtype)
    }

    static func motion(buttonsLen: UInt16? = nil, valuatorsLen: UInt16? = nil, mask: UInt32 = 0b101) -> [UInt8] {
        var e = xcb_input_motion_event_t()
        e.deviceid = 2
        e.sourceid = 10
        e.time = 5
        e.root_x = fp(1)
        e.root_y = fp(2)
        e.event_x = fp(640.75)
        e.event_y = fp(400.5)
        e.flags = UInt32(XIPointerEmulated)
        e.mods = xcb_input_modifier_info_t(base: 0x10, latched: 0, locked: 0x04, effective: 0x14)
        e.buttons_len = 1
        e.valuators_len = 1
        // Button mask, valuator mask (axes 0 and 2), and their two FP32.32 values.
        var bytes = wire(e, XI_Motion, extra: words([0b10, mask, 0, 7, 0, 9]))
        if let buttonsLen { withUnsafeBytes(of: buttonsLen) { bytes.replaceSubrange(52..<54, with: $0) } }
        if let valuatorsLen { withUnsafeBytes(of: valuatorsLen) { bytes.replaceSubrange(54..<56, with: $0) } }
        return bytes
    }

    static func button(_ evtype: Int32) -> [UInt8] {
        var e = xcb_input_button_press_event_t()
        e.deviceid = 4
        e.sourceid = 11
        e.time = 9
        e.detail = 3
        e.root_x = fp(100)
        e.root_y = fp(200)
        e.event_x = fp(1)
        e.event_y = fp(2)
        e.mods = xcb_input_modifier_info_t(base: 0, latched: 0, locked: 0, effective: 4)
        return wire(e, evtype)
    }

    static func key(_ evtype: Int32) -> [UInt8] {
        var e = xcb_input_key_press_event_t()
        e.deviceid = 3
        e.sourceid = 13
        e.time = 42
        e.detail = 52
        e.event_x = fp(10)
        e.event_y = fp(20)
        e.flags = UInt32(XIKeyRepeat)
        e.mods = xcb_input_modifier_info_t(base: 1, latched: 2, locked: 4, effective: 7)
        e.group = xcb_input_group_info_t(base: 1, latched: 0, locked: 2, effective: 3)
        return wire(e, evtype)
    }

    static func enter(_ evtype: Int32, buttonsLen: UInt16 = 1) -> [UInt8] {
        var e = xcb_input_enter_event_t()
        e.deviceid = 2
        e.sourceid = 10
        e.time = 8
        e.event_x = fp(3)
        e.buttons_len = buttonsLen
        return wire(e, evtype, extra: words([1]))
    }

    static func leave(buttonsLen: UInt16 = 1) -> [UInt8] { enter(XI_Leave, buttonsLen: buttonsLen) }

    static func pinch(_ evtype: Int32, flags: UInt32) -> [UInt8] {
        var e = xcb_input_gesture_pinch_begin_event_t()
        e.deviceid = 2
        e.sourceid = 14
        e.time = 70
        e.detail = 2
        e.root_x = fp(900)
        e.root_y = fp(800)
        e.event_x = fp(300.5)
        e.event_y = fp(200.25)
        e.delta_x = fp(0.5)
        e.delta_y = fp(0.75)
        e.delta_unaccel_x = fp(0.25)
        e.delta_unaccel_y = fp(0.125)
        e.scale = fp(1.5)
        e.delta_angle = fp(-2.75)
        e.mods = xcb_input_modifier_info_t(base: 1, latched: 1, locked: 1, effective: 1)
        e.group = xcb_input_group_info_t(base: 1, latched: 1, locked: 1, effective: 1)
        e.flags = flags
        return wire(e, evtype)
    }

    static func swipe(_ evtype: Int32, flags: UInt32) -> [UInt8] {
        var e = xcb_input_gesture_swipe_begin_event_t()
        e.deviceid = 2
        e.sourceid = 14
        e.time = 71
        e.detail = 3
        e.root_x = fp(900)
        e.root_y = fp(800)
        e.event_x = fp(50)
        e.event_y = fp(60)
        e.delta_x = fp(4.5)
        e.delta_y = fp(-1.25)
        e.delta_unaccel_x = fp(3)
        e.delta_unaccel_y = fp(-1)
        e.mods = xcb_input_modifier_info_t(base: 1, latched: 1, locked: 1, effective: 1)
        e.group = xcb_input_group_info_t(base: 1, latched: 1, locked: 1, effective: 1)
        e.flags = flags
        return wire(e, evtype)
    }

    /// An `XI_HierarchyChanged` with `infos` (device id, flags); `count` overrides `num_infos`.
    static func hierarchy(infos: [(UInt16, Int32)], count: UInt16? = nil) -> [UInt8] {
        var e = xcb_input_hierarchy_event_t()
        e.deviceid = 1
        e.time = 123
        e.flags = infos.reduce(0) { $0 | UInt32($1.1) }
        e.num_infos = count ?? UInt16(infos.count)
        var extra: [UInt8] = []
        for (device, flags) in infos {
            var info = xcb_input_hierarchy_info_t()
            info.deviceid = device
            info.attachment = device &+ 1
            info.type = 1
            info.enabled = 1
            info.flags = UInt32(flags)
            extra += withUnsafeBytes(of: info) { Array($0) }
        }
        return wire(e, XI_HierarchyChanged, extra: extra)
    }

    static func core(type: UInt8) -> [UInt8] {
        var e = xcb_key_press_event_t()
        e.response_type = type
        e.detail = 38
        return withUnsafeBytes(of: e) { Array($0) }
    }

    static func other(opcode: UInt8) -> [UInt8] {
        var e = xcb_ge_generic_event_t()
        e.response_type = UInt8(XCB_GE_GENERIC)
        e.extension = opcode
        e.event_type = UInt16(XI_TouchBegin)
        e.length = 1000  // another extension's event: not ours to check
        return withUnsafeBytes(of: e) { Array($0) }
    }
}

/// The GenericEvent header fields every xcb-xinput event struct has.
protocol XI2WireEvent {
    var response_type: UInt8 { get set }
    var `extension`: UInt8 { get set }
    var sequence: UInt16 { get set }
    var length: UInt32 { get set }
    var event_type: UInt16 { get set }
}

extension xcb_input_touch_begin_event_t: XI2WireEvent {}
extension xcb_input_button_press_event_t: XI2WireEvent {}
extension xcb_input_key_press_event_t: XI2WireEvent {}
extension xcb_input_enter_event_t: XI2WireEvent {}
extension xcb_input_gesture_pinch_begin_event_t: XI2WireEvent {}
extension xcb_input_gesture_swipe_begin_event_t: XI2WireEvent {}
extension xcb_input_hierarchy_event_t: XI2WireEvent {}
