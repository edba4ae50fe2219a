// libFuzzer + AddressSanitizer harness for the input-file readers (scripts/fuzz). One binary,
// one reader per run, chosen by GESTURES_FUZZ_TARGET:
//
//   trace     TraceReader.parse: format detection, then the reader it picks
//   jsonl     the JSON Lines trace reader (docs/DESIGN.md §4.1)
//   evemu     the evemu reader; bytes after a NUL are the device description (--device)
//   getevent  the Android `getevent -lt` reader and its multitouch reconstruction
//   gzip      gzip decompression, then TraceReader.parse of the result
//   json      the JSON value parser, as a line and as a document
//   spec      the recognizer playground spec (docs/DESIGN.md §4.3; Sources/GesturesDemo/PlaygroundSpec*.swift,
//             compiled into this harness)
//
// Besides crashes and AddressSanitizer reports, the harness checks what the readers promise: an
// error names the file and a line (≥ 0), and a JSON Lines trace that parses has finite times that
// never decrease and finite coordinates.

import GestureKit

@testable import GestureTrace

#if canImport(Glibc)
    import Glibc
#endif

enum Target: String, CaseIterable {
    case trace, jsonl, evemu, getevent, gzip, json, spec
}

nonisolated(unsafe) var target = Target.trace

@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(
    _ argc: UnsafeMutablePointer<Int32>?,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?
) -> Int32 {
    let name = getenv("GESTURES_FUZZ_TARGET").map { String(cString: $0) } ?? "trace"
    guard let t = Target(rawValue: name) else {
        let names = Target.allCases.map(\.rawValue).joined(separator: " ")
        fputs("fuzz-readers: unknown GESTURES_FUZZ_TARGET \"\(name)\" (one of: \(names))\n", stderr)
        exit(2)
    }
    target = t
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
    let text = String(decoding: bytes, as: UTF8.self)
    let file = "fuzz.in"
    let viewport = Size(width: 1024, height: 768)
    do throws(TraceError) {
        switch target {
        case .trace:
            _ = try TraceReader.parse(text: text, file: file, size: nil, deviceText: nil)
        case .jsonl:
            var parser = JSONLTraceParser(file: file)
            try parser.parse(text)
            checkJSONL(parser.events)
        case .evemu:
            let parts = bytes.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
            let recording = String(decoding: parts[0], as: UTF8.self)
            let device = parts.count > 1 ? String(decoding: parts[1], as: UTF8.self) : nil
            _ = try EvemuParser(file: file, deviceFile: "fuzz.desc", viewport: viewport)
                .parse(text: recording, deviceText: device)
        case .getevent:
            let events = try GeteventParser(file: file).parseEvents(text)
            _ = try EvemuParser(file: file, deviceFile: "fuzz.desc", viewport: viewport)
                .frames(events, ranges: [:], deviceText: nil, unitsArePoints: true)
        case .gzip:
            if case .success(let out) = Gzip.decompress(bytes) {
                _ = try TraceReader.parse(
                    text: String(decoding: out, as: UTF8.self), file: file, size: nil, deviceText: nil)
            }
        case .json:
            _ = try? JSONParser.parse(text, style: .line)
            _ = try? JSONParser.parse(text, style: .document(expecting: "a value"))
        case .spec:
            _ = try PlaygroundSpec.parse(text, file: file)
        }
    } catch {
        guard error.file == file || error.file == "fuzz.desc", error.line >= 0, !error.message.isEmpty else {
            fatalError("a reader error that does not name the file and line: \(error)")
        }
        // What the user sees is one short line, harmless to a terminal.
        let shown = error.description.unicodeScalars
        if shown.count > MessageText.lineLimit + 1
            || shown.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        {
            fatalError("an error line with a control character or too long: \(error.description.debugDescription)")
        }
    }
    return 0
}

/// docs/DESIGN.md §4.1: times are finite, ≥ 0 and never decrease; coordinates are within
/// ``TraceReader/maximumMagnitude`` (so that nothing downstream overflows).
func checkJSONL(_ events: [InputEvent]) {
    var last = 0.0
    for event in events {
        let t = event.timestamp
        guard t.isFinite, t >= last else { fatalError("time \(t) after \(last) in \(event)") }
        last = t
        if case .touches(let frame) = event {
            let m = TraceReader.maximumMagnitude
            for change in frame.changes where !(change.location.x.magnitude <= m && change.location.y.magnitude <= m) {
                fatalError("a coordinate beyond ±\(m): \(change)")
            }
        }
    }
}
