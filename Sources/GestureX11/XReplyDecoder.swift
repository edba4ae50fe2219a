// Byte-bounded decoders for the X replies the shell reads: pure Swift (standard library only, no C
// module), so that they are unit tested and fuzzed without an X server (Fuzz/XReplyDecoder,
// scripts/fuzz).
//
// A reply is its bytes as XCB hands them over: the 32-byte header and `length` × 4 bytes more
// (``XReplyDecoder/size(ofReplyHeader:)``). Every count in a reply (`num_infos`, a class's `len`,
// `nMonitors`, a monitor's `nOutput`, a property's `value_len`…) is the server's word; XCB's
// iterators follow them past the end of the reply. These decoders read nothing outside the
// buffer: a count that points past it ends the decoding with what was whole before it (a list
// is cut, a single value is nil). Replies of a fixed 32 bytes (QueryVersion, GetGeometry,
// GetInputFocus, GetCrtcInfo's fixed part…) need no decoder: XCB always hands over at least 32.

/// Little helpers over a reply's bytes: every read is bounds-checked (nil past the end).
struct XReplyBytes {
    let bytes: UnsafeRawBufferPointer

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    var count: Int { bytes.count }

    func has(_ offset: Int, _ length: Int) -> Bool {
        offset >= 0 && length >= 0 && offset <= bytes.count && length <= bytes.count - offset
    }

    func u8(_ offset: Int) -> UInt8? { has(offset, 1) ? bytes[offset] : nil }

    func u16(_ offset: Int) -> UInt16? {
        has(offset, 2) ? bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self) : nil
    }

    func i16(_ offset: Int) -> Int16? { u16(offset).map { Int16(bitPattern: $0) } }

    func u32(_ offset: Int) -> UInt32? {
        has(offset, 4) ? bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self) : nil
    }

    func i32(_ offset: Int) -> Int32? { u32(offset).map { Int32(bitPattern: $0) } }
}

/// Decoders of X replies (and of the connection set-up), each reading only within its buffer.
enum XReplyDecoder {
    /// The size XCB gives a reply whose header is at `header`: 32 + `length` × 4 (the reply's
    /// own `length` field, at offset 4). The caller reads it from XCB's allocation of exactly
    /// that size.
    static func size(ofReplyHeader header: UnsafeRawPointer) -> Int {
        32 + Int(header.loadUnaligned(fromByteOffset: 4, as: UInt32.self)) * 4
    }

    /// Rounds up to a multiple of 4 (X pads lists of bytes to whole words).
    static func pad4(_ n: Int) -> Int { (n + 3) & ~3 }

    // MARK: Core protocol

    /// InternAtom: the atom (offset 8); nil when the reply is too short.
    static func internAtom(_ reply: UnsafeRawBufferPointer) -> UInt32? { XReplyBytes(reply).u32(8) }

    /// GetAtomName: the name (`name_len` at offset 8, the bytes from 32), cut at the reply's end.
    static func atomName(_ reply: UnsafeRawBufferPointer) -> [UInt8]? {
        let r = XReplyBytes(reply)
        guard let n = r.u16(8), r.has(32, 0) else { return nil }
        let length = min(Int(n), r.count - 32)
        return Array(reply[32..<(32 + length)])
    }

    /// A GetProperty reply's value.
    struct Property: Equatable {
        /// The property's type (0: the property does not exist).
        var type: UInt32
        /// 8, 16 or 32 (0 when the property does not exist).
        var format: UInt8
        /// The value's bytes (`value_len` items of `format` bits), all within the reply.
        var value: [UInt8]
    }

    /// GetProperty: type (offset 8), format (1), `value_len` (16, in items of `format` bits) and
    /// the value from 32. nil when the format is not 0, 8, 16 or 32 or the value does not fit
    /// the reply.
    static func property(_ reply: UnsafeRawBufferPointer) -> Property? {
        let r = XReplyBytes(reply)
        guard let format = r.u8(1), let type = r.u32(8), let items = r.u32(16) else { return nil }
        guard [0, 8, 16, 32].contains(format) else { return nil }
        let (bytes, overflow) = Int(items).multipliedReportingOverflow(by: Int(format) / 8)
        guard !overflow, r.has(32, bytes) else { return nil }
        return Property(type: type, format: format, value: Array(reply[32..<(32 + bytes)]))
    }

    /// One screen of the connection set-up.
    struct Screen: Equatable {
        var root: UInt32
        var rootVisual: UInt32
        var rootDepth: UInt8
        var width: Int
        var height: Int
    }

    /// The screens of the connection set-up (`xcb_get_setup`: 8 bytes and `length` × 4 more,
    /// `length` at offset 6), after the vendor string and the pixmap formats; each screen's
    /// depths and visuals are stepped over. Stops at the first screen that does not fit.
    static func setupScreens(_ setup: UnsafeRawBufferPointer) -> [Screen] {
        let r = XReplyBytes(setup)
        guard let vendorLength = r.u16(24), let rootCount = r.u8(28), let formatCount = r.u8(29) else { return [] }
        var offset = 40 + pad4(Int(vendorLength)) + Int(formatCount) * 8
        var screens: [Screen] = []
        for _ in 0..<Int(rootCount) {
            guard r.has(offset, 40), let root = r.u32(offset), let width = r.u16(offset + 20),
                let height = r.u16(offset + 22), let visual = r.u32(offset + 32), let depth = r.u8(offset + 38),
                let depthCount = r.u8(offset + 39)
            else { break }
            var next = offset + 40
            var whole = true
            for _ in 0..<Int(depthCount) {
                guard let visuals = r.u16(next + 2), r.has(next, 8 + Int(visuals) * 24) else {
                    whole = false
                    break
                }
                next += 8 + Int(visuals) * 24
            }
            guard whole else { break }
            screens.append(
                Screen(root: root, rootVisual: visual, rootDepth: depth, width: Int(width), height: Int(height)))
            offset = next
        }
        return screens
    }

    /// GetKeyboardMapping: `keysyms_per_keycode` (offset 1) and the keysyms from 32, as many
    /// whole keycodes as the reply holds (at most `keycodes`).
    static func keyboardMapping(_ reply: UnsafeRawBufferPointer, keycodes: Int) -> (perKeycode: Int, keysyms: [UInt32])?
    {
        let r = XReplyBytes(reply)
        guard let per = r.u8(1), per > 0, r.has(32, 0) else { return nil }
        let whole = min(max(0, keycodes), (r.count - 32) / 4 / Int(per))
        let count = whole * Int(per)
        return (Int(per), (0..<count).map { r.u32(32 + $0 * 4)! })
    }

    // MARK: XInput 2

    /// A device's scroll valuators (XIScrollClass): number and increment of the vertical and the
    /// horizontal one (-1 when it has none).
    struct ScrollValuators: Equatable {
        var vertical = -1
        var verticalIncrement = 0.0
        var horizontal = -1
        var horizontalIncrement = 0.0
    }

    /// XIQueryDevice: the scroll valuators of each device that has any, by `deviceid`. Reads
    /// `num_infos` (offset 8) XIDeviceInfos from 32 — deviceid, use, attachment, `num_classes`,
    /// `name_len`, enabled, pad, the name padded to 4, then the classes, each `len` words long
    /// (at least its 2-word header). Stops at the first device or class that does not fit.
    static func scrollValuators(_ reply: UnsafeRawBufferPointer) -> [Int32: ScrollValuators] {
        let r = XReplyBytes(reply)
        guard let infoCount = r.u16(8) else { return [:] }
        var found: [Int32: ScrollValuators] = [:]
        var offset = 32
        for _ in 0..<Int(infoCount) {
            guard r.has(offset, 12), let device = r.u16(offset), let classCount = r.u16(offset + 6),
                let nameLength = r.u16(offset + 8)
            else { break }
            var next = offset + 12 + pad4(Int(nameLength))
            var axes = ScrollValuators()
            var whole = true
            for _ in 0..<Int(classCount) {
                guard let type = r.u16(next), let words = r.u16(next + 2), words >= 2, r.has(next, Int(words) * 4)
                else {
                    whole = false
                    break
                }
                // XIScrollClass (type 3), 6 words: type, len, sourceid, number, scroll_type,
                // pad, flags, increment (FP32.32).
                if type == 3, words >= 6, let number = r.u16(next + 6), let kind = r.u16(next + 8),
                    let integral = r.i32(next + 16), let fraction = r.u32(next + 20)
                {
                    let increment = Double(integral) + Double(fraction) / 4_294_967_296
                    if increment.isFinite && increment != 0 {
                        if kind == 1 {
                            (axes.vertical, axes.verticalIncrement) = (Int(number), increment)
                        } else if kind == 2 {
                            (axes.horizontal, axes.horizontalIncrement) = (Int(number), increment)
                        }
                    }
                }
                next += Int(words) * 4
            }
            guard whole else { break }
            if axes.vertical >= 0 || axes.horizontal >= 0 { found[Int32(device)] = axes }
            offset = next
        }
        return found
    }

    // MARK: RandR, Xinerama

    /// A monitor (RandR 1.5 RRGetMonitors) or a Xinerama screen, in root pixels.
    struct Monitor: Equatable {
        /// The name atom (0 for a Xinerama screen).
        var name: UInt32
        var primary: Bool
        var x: Int
        var y: Int
        var width: Int
        var height: Int
    }

    /// RRGetMonitors: `nMonitors` (offset 12) MonitorInfos from 32, each 24 bytes and `nOutput`
    /// output ids. Stops at the first monitor that does not fit.
    static func monitors(_ reply: UnsafeRawBufferPointer) -> [Monitor] {
        let r = XReplyBytes(reply)
        guard let count = r.u32(12) else { return [] }
        var monitors: [Monitor] = []
        var offset = 32
        // Each monitor takes 24 bytes at least: no more iterations than the reply can hold.
        for _ in 0..<min(Int(count), r.count / 24) {
            guard r.has(offset, 24), let name = r.u32(offset), let primary = r.u8(offset + 4),
                let outputs = r.u16(offset + 6), let x = r.i16(offset + 8), let y = r.i16(offset + 10),
                let width = r.u16(offset + 12), let height = r.u16(offset + 14),
                r.has(offset, 24 + Int(outputs) * 4)
            else { break }
            monitors.append(
                Monitor(
                    name: name, primary: primary != 0, x: Int(x), y: Int(y), width: Int(width), height: Int(height)))
            offset += 24 + Int(outputs) * 4
        }
        return monitors
    }

    /// XineramaQueryScreens: `number` (offset 8) ScreenInfos from 32 (x_org, y_org, width,
    /// height: 8 bytes), as many as the reply holds.
    static func xineramaScreens(_ reply: UnsafeRawBufferPointer) -> [Monitor] {
        let r = XReplyBytes(reply)
        guard let count = r.u32(8) else { return [] }
        let n = min(Int(count), max(0, r.count - 32) / 8)
        return (0..<n).map { i in
            let o = 32 + i * 8
            return Monitor(
                name: 0, primary: i == 0, x: Int(r.i16(o)!), y: Int(r.i16(o + 2)!), width: Int(r.u16(o + 4)!),
                height: Int(r.u16(o + 6)!))
        }
    }

    /// A mode of RRGetScreenResourcesCurrent: its id and timing (what a refresh rate needs).
    struct Mode: Equatable {
        var id: UInt32
        var dotClock: UInt32
        var htotal: UInt16
        var vtotal: UInt16
    }

    /// RRGetScreenResourcesCurrent: `config_timestamp` (offset 12), the CRTC ids (`num_crtcs` at
    /// 16, from 32), then the outputs (`num_outputs` at 18) and the modes (`num_modes` at 20,
    /// 32 bytes each). nil when the lists do not fit the reply.
    static func screenResources(_ reply: UnsafeRawBufferPointer) -> (
        configTimestamp: UInt32, crtcs: [UInt32], modes: [Mode]
    )? {
        let r = XReplyBytes(reply)
        guard let stamp = r.u32(12), let crtcCount = r.u16(16), let outputCount = r.u16(18),
            let modeCount = r.u16(20)
        else { return nil }
        let modesAt = 32 + (Int(crtcCount) + Int(outputCount)) * 4
        guard r.has(32, Int(crtcCount) * 4), r.has(modesAt, Int(modeCount) * 32) else { return nil }
        let crtcs = (0..<Int(crtcCount)).map { r.u32(32 + $0 * 4)! }
        let modes = (0..<Int(modeCount)).map { i in
            let o = modesAt + i * 32
            return Mode(id: r.u32(o)!, dotClock: r.u32(o + 8)!, htotal: r.u16(o + 16)!, vtotal: r.u16(o + 24)!)
        }
        return (stamp, crtcs, modes)
    }
}
