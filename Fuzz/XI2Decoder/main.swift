// libFuzzer + AddressSanitizer harness for the XI2 wire decoder (scripts/fuzz). Compiled together
// with Sources/GestureX11/XI2Decoder.swift: the decoder needs no X server and no C module.
// libFuzzer hands over each input in a heap block of exactly its size, so a read past the event
// is an AddressSanitizer report, and a trap (a failed check below included) is a crash.

/// The XI extension opcode the harness decodes for (the seeds use it).
let xiOpcode: UInt8 = 131

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size)
    let result = XI2Decoder.decode(bytes, xiOpcode: xiOpcode)
    if case .event = result {
        // A decoded event fits in the buffer its own length field declares.
        guard let base = bytes.baseAddress, let declared = XI2Decoder.xcbEventSize(base), declared <= size else {
            fatalError("decoded an event that does not fit its buffer: \(result)")
        }
    }
    // The scroll valuator reader: any valuator numbers, never a read outside the event.
    if size > 0, let first = data?[0] {
        _ = XI2Decoder.motionValuators(bytes, xiOpcode: xiOpcode, Int(first % 70), Int(first / 3))
    }
    return 0
}
