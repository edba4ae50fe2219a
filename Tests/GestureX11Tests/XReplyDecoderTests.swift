import CXCB
import Foundation
import GestureTestSupport
import Testing

@testable import GestureX11

#if canImport(Glibc)
    import Glibc
#endif

/// Reply bytes placed so that the byte after the last one is on a page that cannot be read
/// (PROT_NONE): any read past the reply is a SIGSEGV, not a quiet look at the heap.
final class GuardedBytes {
    private let base: UnsafeMutableRawPointer
    private let mapped: Int
    let bytes: UnsafeRawBufferPointer

    init(_ content: [UInt8]) {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let pages = (content.count + page - 1) / page + 1
        mapped = (pages + 1) * page
        base = mmap(nil, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)!
        let guardPage = base + pages * page
        mprotect(guardPage, page, PROT_NONE)
        let start = guardPage - content.count
        if !content.isEmpty {
            content.withUnsafeBytes { start.copyMemory(from: $0.baseAddress!, byteCount: content.count) }
        }
        bytes = UnsafeRawBufferPointer(start: start, count: content.count)
    }

    deinit { munmap(base, mapped) }
}

/// `body` on `content` placed before an unreadable page (the mapping lives until it returns).
func guarded<T>(_ content: [UInt8], _ body: (UnsafeRawBufferPointer) -> T) -> T {
    let g = GuardedBytes(content)
    return withExtendedLifetime(g) { body(g.bytes) }
}

/// Little-endian reply bytes (the tests run on little-endian machines, where XCB asks for that).
struct ReplyBuilder {
    var bytes: [UInt8] = []
    mutating func u8(_ v: UInt8) { bytes.append(v) }
    mutating func u16(_ v: UInt16) { bytes += [UInt8(v & 0xff), UInt8(v >> 8)] }
    mutating func i16(_ v: Int16) { u16(UInt16(bitPattern: v)) }
    mutating func u32(_ v: UInt32) { for i in 0..<4 { bytes.append(UInt8((v >> (8 * UInt32(i))) & 0xff)) } }
    mutating func pad(to n: Int) { while bytes.count < n { bytes.append(0) } }
    mutating func pad4() { while bytes.count % 4 != 0 { bytes.append(0) } }

    /// A reply: type 1, `data` byte, sequence 7, `length` (nil: what the bytes give), then `body`
    /// to 32 bytes and `extra` after.
    static func reply(data: UInt8 = 0, length: UInt32? = nil, body: (inout ReplyBuilder) -> Void, extra: [UInt8] = [])
        -> [UInt8]
    {
        var b = ReplyBuilder()
        b.u8(1)
        b.u8(data)
        b.u16(7)
        b.u32(length ?? UInt32((extra.count + 3) / 4))
        body(&b)
        b.pad(to: 32)
        b.bytes += extra
        b.pad4()
        return b.bytes
    }
}

/// XIQueryDevice: a pointer with a button class and vertical + horizontal scroll classes, and a
/// keyboard without classes.
func queryDeviceReply(infos: UInt16 = 2) -> [UInt8] {
    var e = ReplyBuilder()
    let name = Array("Virtual core pointer".utf8)
    e.u16(2)  // deviceid
    e.u16(1)  // use
    e.u16(3)  // attachment
    e.u16(3)  // num_classes
    e.u16(UInt16(name.count))
    e.u8(1)
    e.u8(0)
    e.bytes += name
    e.pad4()
    // Button class: type 1, len 3 words.
    e.u16(1)
    e.u16(3)
    e.u16(2)
    e.u16(2)
    e.u32(0)
    for (number, kind, increment) in [(UInt16(2), UInt16(1), Int32(1)), (3, 2, 120)] {
        e.u16(3)  // XIScrollClass
        e.u16(6)
        e.u16(2)
        e.u16(number)
        e.u16(kind)
        e.u16(0)
        e.u32(0)
        e.u32(UInt32(bitPattern: increment))
        e.u32(0x8000_0000)  // .5
    }
    e.u16(3)
    e.u16(2)
    e.u16(2)
    e.u16(0)
    e.u16(4)
    e.u8(1)
    e.u8(0)
    e.bytes += Array("kbd!".utf8)
    return ReplyBuilder.reply(body: { $0.u16(infos) }, extra: e.bytes)
}

/// RRGetMonitors: two monitors with 1 and 2 outputs.
func monitorsReply(count: UInt32 = 2, outputs: UInt16 = 1) -> [UInt8] {
    var e = ReplyBuilder()
    for (name, primary, x, w, n) in [(UInt32(300), UInt8(1), Int16(0), UInt16(1024), outputs), (301, 0, 1024, 800, 2)] {
        e.u32(name)
        e.u8(primary)
        e.u8(1)
        e.u16(n)
        e.i16(x)
        e.i16(0)
        e.u16(w)
        e.u16(768)
        e.u32(270)
        e.u32(200)
        for i in 0..<min(Int(n), 2) { e.u32(63 + UInt32(i)) }
    }
    return ReplyBuilder.reply(
        body: {
            $0.u32(1234)
            $0.u32(count)
            $0.u32(3)
        }, extra: e.bytes)
}

@Suite("X reply decoders: bounded by the reply's length")
struct XReplyDecoderTests {
    @Test("XIQueryDevice: the scroll valuators of each device, increments in FP32.32")
    func queryDevice() {
        let found = guarded(queryDeviceReply()) { XReplyDecoder.scrollValuators($0) }
        #expect(
            found == [
                2: .init(vertical: 2, verticalIncrement: 1.5, horizontal: 3, horizontalIncrement: 120.5)
            ])
    }

    @Test("XIQueryDevice: every truncation and a lying num_infos or class len read nothing past the reply")
    func queryDeviceLies() {
        let whole = queryDeviceReply()
        for n in 0...whole.count {
            let found = guarded(Array(whole.prefix(n))) { XReplyDecoder.scrollValuators($0) }
            // The device is whole only when all of its classes are there.
            #expect(found.isEmpty || (n >= 32 + 12 + 20 + 12 + 48 && found.count == 1), "prefix \(n): \(found)")
        }
        // num_infos 40000 in a reply that holds two: the two, then a stop.
        #expect(guarded(queryDeviceReply(infos: 40000)) { XReplyDecoder.scrollValuators($0) }.count == 1)
        // A class len of 0 (no progress) or one past the end: the device is dropped, no loop.
        var zero = queryDeviceReply()
        zero[32 + 12 + 20 + 2] = 0
        #expect(guarded(zero) { XReplyDecoder.scrollValuators($0) }.isEmpty)
        var long = queryDeviceReply()
        long[32 + 12 + 20 + 2] = 0xff
        #expect(guarded(long) { XReplyDecoder.scrollValuators($0) }.isEmpty)
    }

    @Test("RRGetMonitors: monitors with their outputs stepped over; a lying nMonitors or nOutput is cut")
    func monitors() {
        let ok = guarded(monitorsReply()) { XReplyDecoder.monitors($0) }
        #expect(
            ok == [
                .init(name: 300, primary: true, x: 0, y: 0, width: 1024, height: 768, widthMM: 270, heightMM: 200),
                .init(name: 301, primary: false, x: 1024, y: 0, width: 800, height: 768, widthMM: 270, heightMM: 200),
            ])
        #expect(guarded(monitorsReply(count: 0xffff_ffff)) { XReplyDecoder.monitors($0) } == ok)
        // The first monitor claims 5000 outputs: it does not fit, nothing after it is read.
        #expect(guarded(monitorsReply(outputs: 5000)) { XReplyDecoder.monitors($0) }.isEmpty)
        let whole = monitorsReply()
        for n in 0...whole.count {
            let got = guarded(Array(whole.prefix(n))) { XReplyDecoder.monitors($0) }
            #expect(got == Array(ok.prefix(n >= whole.count ? 2 : n >= 32 + 28 ? 1 : 0)), "prefix \(n)")
        }
    }

    @Test("GetProperty: the value within the reply; a lying value_len or a bad format is nil")
    func property() {
        func reply(format: UInt8, items: UInt32, value: [UInt8]) -> [UInt8] {
            ReplyBuilder.reply(
                data: format,
                body: {
                    $0.u32(4)
                    $0.u32(0)
                    $0.u32(items)
                }, extra: value)
        }
        let value: [UInt8] = [1, 0, 0, 0, 2, 0, 0, 0]
        let ok = guarded(reply(format: 32, items: 2, value: value)) { XReplyDecoder.property($0) }
        #expect(ok == .init(type: 4, format: 32, value: value))
        #expect(guarded(reply(format: 32, items: 3, value: value)) { XReplyDecoder.property($0) } == nil)
        #expect(guarded(reply(format: 32, items: .max, value: value)) { XReplyDecoder.property($0) } == nil)
        #expect(guarded(reply(format: 7, items: 1, value: value)) { XReplyDecoder.property($0) } == nil)
        #expect(guarded(reply(format: 8, items: 8, value: value)) { XReplyDecoder.property($0) }?.value == value)
        for n in 0..<32 { #expect(guarded(Array(repeating: 0, count: n)) { XReplyDecoder.property($0) } == nil) }
    }

    @Test("InternAtom, GetAtomName, Xinerama, screen resources, keyboard mapping: cut at the reply's end")
    func others() {
        let atom = ReplyBuilder.reply(body: { $0.u32(411) })
        #expect(guarded(atom) { XReplyDecoder.internAtom($0) } == 411)
        #expect(guarded(Array(atom.prefix(11))) { XReplyDecoder.internAtom($0) } == nil)
        let name = ReplyBuilder.reply(body: { $0.u16(60000) }, extra: Array("DUMMY0".utf8))
        #expect(guarded(name) { XReplyDecoder.atomName($0) } == Array("DUMMY0\0\0".utf8))
        var screens = ReplyBuilder()
        for x in [Int16(0), 1024] {
            screens.i16(x)
            screens.i16(0)
            screens.u16(1024)
            screens.u16(768)
        }
        let xinerama = ReplyBuilder.reply(body: { $0.u32(1_000_000) }, extra: screens.bytes)
        #expect(guarded(xinerama) { XReplyDecoder.xineramaScreens($0) }.map(\.x) == [0, 1024])
        let resources = ReplyBuilder.reply(
            body: {
                $0.u32(1)
                $0.u32(2)
                $0.u16(2)  // crtcs
                $0.u16(1)  // outputs
                $0.u16(3)  // modes: only one is there
            }, extra: [UInt8](repeating: 0, count: 12 + 32))
        #expect(guarded(resources) { XReplyDecoder.screenResources($0) } == nil)
        let mapping = ReplyBuilder.reply(data: 4, length: 1000, body: { _ in }, extra: [UInt8](repeating: 1, count: 40))
        let m = guarded(mapping) { XReplyDecoder.keyboardMapping($0, keycodes: 248) }
        #expect(m?.perKeycode == 4 && m?.keysyms.count == 8)
    }

    @Test("The connection set-up: screens after the vendor and formats; a lying roots_len or depth count stops")
    func setup() {
        func setupBytes(roots: UInt8, visuals: UInt16 = 1) -> [UInt8] {
            var b = ReplyBuilder()
            b.u8(1)
            b.u8(0)
            b.u16(11)
            b.u16(0)
            b.u16(0)  // length, not read by the decoder (the buffer is the set-up)
            b.pad(to: 24)
            b.u16(5)  // vendor_len
            b.u16(65535)
            b.u8(roots)
            b.u8(1)  // pixmap formats
            b.pad(to: 40)
            b.bytes += Array("X.Org".utf8)
            b.pad4()
            b.bytes += [24, 32, 32, 0, 0, 0, 0, 0]
            b.u32(0x3c3)  // root
            b.pad(to: b.bytes.count + 16)
            b.u16(1280)
            b.u16(800)
            b.pad(to: b.bytes.count + 8)
            b.u32(0x21)  // root visual
            b.u8(0)
            b.u8(0)
            b.u8(24)  // root depth
            b.u8(1)  // one depth
            b.u8(24)
            b.u8(0)
            b.u16(visuals)
            b.u32(0)
            b.bytes += [UInt8](repeating: 0, count: 24)
            return b.bytes
        }
        let one = XReplyDecoder.Screen(root: 0x3c3, rootVisual: 0x21, rootDepth: 24, width: 1280, height: 800)
        #expect(guarded(setupBytes(roots: 1)) { XReplyDecoder.setupScreens($0) } == [one])
        #expect(guarded(setupBytes(roots: 255)) { XReplyDecoder.setupScreens($0) } == [one])
        #expect(guarded(setupBytes(roots: 1, visuals: 9)) { XReplyDecoder.setupScreens($0) }.isEmpty)
        let whole = setupBytes(roots: 1)
        for n in 0..<whole.count {
            #expect(guarded(Array(whole.prefix(n))) { XReplyDecoder.setupScreens($0) }.isEmpty, "prefix \(n)")
        }
    }

    /// What the shell did before: XCB's iterators follow `num_infos` and `nMonitors` past the end
    /// of the reply. On the guarded buffer that is a SIGSEGV (AddressSanitizer reported a
    /// heap-buffer-overflow on the heap).
    @Test("XCB's own iterators on the same lying replies read past the end (SIGSEGV on the guarded page)")
    func xcbIteratorsReadPastTheEnd() async {
        await #expect(processExitsWith: .signal(SIGSEGV)) {
            let g = GuardedBytes(queryDeviceReply(infos: 3))
            defer { withExtendedLifetime(g) {} }
            let reply = UnsafeMutableRawPointer(mutating: g.bytes.baseAddress!)
                .assumingMemoryBound(to: xcb_input_xi_query_device_reply_t.self)
            var devices = xcb_input_xi_query_device_infos_iterator(reply)
            var ids: [UInt16] = []
            while devices.rem > 0, let info = devices.data {
                ids.append(info.pointee.deviceid)
                xcb_input_xi_device_info_next(&devices)
            }
            print(ids)
        }
        await #expect(processExitsWith: .signal(SIGSEGV)) {
            let g = GuardedBytes(monitorsReply(count: 3))
            defer { withExtendedLifetime(g) {} }
            let reply = UnsafeMutableRawPointer(mutating: g.bytes.baseAddress!)
                .assumingMemoryBound(to: xcb_randr_get_monitors_reply_t.self)
            var it = xcb_randr_get_monitors_monitors_iterator(reply)
            var names: [UInt32] = []
            while it.rem > 0, let m = it.data {
                names.append(m.pointee.name)
                xcb_randr_monitor_info_next(&it)
            }
            print(names)
        }
        // The decoders on the same bytes: what fits, and no fault.
        #expect(guarded(queryDeviceReply(infos: 3)) { XReplyDecoder.scrollValuators($0) }.count == 1)
        #expect(guarded(monitorsReply(count: 3)) { XReplyDecoder.monitors($0) }.count == 2)
    }

    @Test(
        "The keyboard mapping: columns by the core rules (a letter's upper case derived), a short reply has no symbols past its end"
    )
    func keyboardMap() {
        // keycodes 8, 9, 10 with 4 columns: a A _ _ | b _ _ _ | Return _ _ _
        let syms: [UInt32] = [0x61, 0x41, 0, 0, 0x62, 0, 0, 0, 0xff0d, 0, 0, 0]
        var extra = ReplyBuilder()
        for s in syms { extra.u32(s) }
        let reply = ReplyBuilder.reply(data: 4, body: { _ in }, extra: extra.bytes)
        let map = guarded(reply) { KeyboardMap(reply: $0, minKeycode: 8, maxKeycode: 255) }
        #expect(map?.keysym(keycode: 8, column: 1) == 0x41)
        #expect(map?.keysym(keycode: 9, column: 0) == 0x62)
        #expect(map?.keysym(keycode: 9, column: 1) == 0x42, "the upper case of b, derived")
        #expect(map?.keysym(keycode: 9, column: 2) == 0x62, "group 2 falls back to group 1")
        #expect(map?.keysym(keycode: 10, column: 1) == 0, "Return has no shifted symbol")
        // Keycodes past what the reply holds (the set-up says up to 255): none, no read.
        #expect(map?.keysym(keycode: 200, column: 0) == 0)
        #expect(map?.keysym(keycode: 7, column: 0) == 0)
        let empty = ReplyBuilder.reply(data: 0, body: { _ in }, extra: extra.bytes)
        #expect(guarded(empty) { KeyboardMap(reply: $0, minKeycode: 8, maxKeycode: 255) } == nil)
    }
}
