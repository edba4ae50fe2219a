// libFuzzer + AddressSanitizer harness for the X reply decoders (scripts/fuzz). Compiled together
// with Sources/GestureX11/XReplyDecoder.swift: the decoders need no X server and no C module.
// libFuzzer hands over each input in a heap block of exactly its size, so a read past the reply
// is an AddressSanitizer report, and a trap (a failed check below included) is a crash. Every
// input goes through every decoder: each reads the same bytes as a different reply.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let reply = UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size)
    _ = XReplyDecoder.internAtom(reply)
    if let name = XReplyDecoder.atomName(reply) {
        check(32 + name.count <= size, "an atom name longer than its reply")
    }
    if let p = XReplyDecoder.property(reply) {
        check(32 + p.value.count <= size, "a property value longer than its reply")
        check(p.value.count % max(1, Int(p.format) / 8) == 0, "a property value of part items")
    }
    let screens = XReplyDecoder.setupScreens(reply)
    check(40 + screens.count * 40 <= max(40, size), "more screens than the set-up holds")
    if let mapping = XReplyDecoder.keyboardMapping(reply, keycodes: 248) {
        check(32 + mapping.keysyms.count * 4 <= size, "more keysyms than the reply holds")
        check(mapping.keysyms.count % mapping.perKeycode == 0, "a keycode cut in two")
    }
    let devices = XReplyDecoder.scrollValuators(reply)
    check(32 + devices.count * 36 <= max(32, size), "more scroll devices than the reply holds")
    for d in devices.values {
        check(d.vertical >= 0 || d.horizontal >= 0, "a scroll device without a scroll valuator")
        check(d.verticalIncrement.isFinite && d.horizontalIncrement.isFinite, "an infinite increment")
    }
    let monitors = XReplyDecoder.monitors(reply)
    check(32 + monitors.count * 24 <= max(32, size), "more monitors than the reply holds")
    let xinerama = XReplyDecoder.xineramaScreens(reply)
    check(32 + xinerama.count * 8 <= max(32, size), "more Xinerama screens than the reply holds")
    if let r = XReplyDecoder.screenResources(reply) {
        check(32 + r.crtcs.count * 4 + r.modes.count * 32 <= size, "more CRTCs and modes than the reply holds")
    }
    return 0
}

func check(_ condition: Bool, _ what: String) {
    if !condition { fatalError(what) }
}
