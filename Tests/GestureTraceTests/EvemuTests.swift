// Over 400 lines: one suite per evemu behaviour (protocols A and B, single touch, scaling,
// errors); the recordings they build are inline so each case reads alone.
import Foundation
import GestureKit
import GestureTestSupport
import GestureTrace
import Testing

private func parse(_ text: String, size: Size = Size(width: 1000, height: 500), device: String? = nil) throws -> Trace {
    try TraceReader.parse(text: text, file: "r.events", size: size, deviceText: device, deviceFile: "r.desc")
}

@Suite("evemu recordings")
struct EvemuTests {
    static let header = """
        # EVEMU 1.3
        N: Test Touchscreen
        I: 0018 0000 0000 0000
        P: 02 00 00 00 00 00 00 00
        B: 00 0b 00 00 00 00 00 00 00
        A: 2f 0 9 0 0 0
        A: 35 0 1000 0 0 0
        A: 36 0 500 0 0 0
        A: 39 0 65535 0 0 0

        """

    @Test func protocolBSlotsTrackingIDsAndPersistentPositions() throws {
        let text =
            Self.header + """
                E: 100.500000 0003 0039 42	# EV_ABS / ABS_MT_TRACKING_ID   42
                E: 100.500000 0003 0035 0100
                E: 100.500000 0003 0036 50
                E: 100.500000 0000 0000 0000	# ------------ SYN_REPORT (0) ----------
                E: 100.510000 0003 002f 1
                E: 100.510000 0003 0039 43
                E: 100.510000 0003 0035 500
                E: 100.510000 0003 0036 250
                E: 100.510000 0003 002f 0
                E: 100.510000 0003 0035 120
                E: 100.510000 0000 0000 0
                E: 100.520000 0003 0039 -001
                E: 100.520000 0000 0000 0
                E: 100.530000 0003 002f 1
                E: 100.530000 0003 0030 5
                E: 100.530000 0000 0000 0
                E: 100.540000 0003 0039 44
                E: 100.540000 0003 0036 260
                E: 100.540000 0000 0000 0
                E: 100.550000 0003 002f 0
                E: 100.550000 0003 0039 45
                E: 100.550000 0003 0039 -1
                E: 100.550000 0000 0000 0
                E: 100.560000 0003 002f 1
                E: 100.560000 0003 0039 -1
                E: 100.560000 0000 0000 0
                """
        let trace = try parse(text)
        #expect(trace.viewport == Size(width: 1000, height: 500))
        #expect(!trace.viewportFromTrace)
        #expect(
            trace.events == [
                frame(0, Finger.down(1, 100, 50)),
                // Slots in ascending order; slot 0 keeps its y.
                frame(0.01, Finger.move(1, 120, 50), Finger.down(2, 500, 250)),
                frame(0.02, Finger.up(1, 120, 50)),
                // (0.03: only a touch-major change: no frame.)
                // A new tracking id without a -1 replaces the touch: the old one ends where it was.
                frame(0.04, Finger.up(2, 500, 250), Finger.down(3, 500, 260)),
                // (0.05: a touch that starts and lifts within one frame is dropped.)
                frame(0.06, Finger.up(3, 500, 260)),
            ])
    }

    @Test func protocolAWithoutTrackingIDsMatchesNearestContacts() throws {
        let text =
            Self.header + """
                E: 5.000000 0003 0035 100
                E: 5.000000 0003 0036 100
                E: 5.000000 0000 0002 0
                E: 5.000000 0003 0035 900
                E: 5.000000 0003 0036 400
                E: 5.000000 0000 0002 0
                E: 5.000000 0001 014a 1
                E: 5.000000 0000 0000 0
                E: 5.012000 0003 0035 890
                E: 5.012000 0003 0036 405
                E: 5.012000 0000 0002 0
                E: 5.012000 0003 0035 110
                E: 5.012000 0003 0036 100
                E: 5.012000 0000 0002 0
                E: 5.012000 0000 0000 0
                E: 5.024000 0003 0035 115
                E: 5.024000 0003 0036 100
                E: 5.024000 0000 0002 0
                E: 5.024000 0000 0000 0
                E: 5.036000 0003 0035 115
                E: 5.036000 0003 0036 100
                E: 5.036000 0000 0002 0
                E: 5.036000 0003 0035 500
                E: 5.036000 0003 0036 300
                E: 5.036000 0000 0002 0
                E: 5.036000 0000 0000 0
                E: 5.048000 0003 0035 115
                E: 5.048000 0003 0036 100
                E: 5.048000 0003 0030 0
                E: 5.048000 0000 0002 0
                E: 5.048000 0003 0035 505
                E: 5.048000 0003 0036 300
                E: 5.048000 0003 0030 10
                E: 5.048000 0000 0002 0
                E: 5.048000 0000 0000 0
                E: 5.060000 0001 014a 0
                E: 5.060000 0000 0000 0
                """
        let trace = try parse(text)
        #expect(
            trace.events == [
                frame(0, Finger.down(1, 100, 100), Finger.down(2, 900, 400)),
                // Listed in the other order: still matched to the nearest contacts.
                frame(0.012, Finger.move(2, 890, 405), Finger.move(1, 110, 100)),
                // A contact missing from the frame has lifted.
                frame(0.024, Finger.up(2, 890, 405), Finger.move(1, 115, 100)),
                frame(0.036, Finger.down(3, 500, 300)),
                // Touch major 0: the finger is leaving (Apple bcm5974).
                frame(0.048, Finger.up(1, 115, 100), Finger.move(3, 505, 300)),
                frame(0.06, Finger.up(3, 505, 300)),
            ])
    }

    @Test func protocolAWithTrackingIDsFollowsThem() throws {
        // Two fingers crossing: by distance they would swap; the tracking ids say otherwise.
        let text =
            Self.header + """
                E: 1.000000 0003 0039 7
                E: 1.000000 0003 0035 100
                E: 1.000000 0003 0036 100
                E: 1.000000 0000 0002 0
                E: 1.000000 0003 0039 8
                E: 1.000000 0003 0035 120
                E: 1.000000 0003 0036 100
                E: 1.000000 0000 0002 0
                E: 1.000000 0000 0000 0
                E: 1.010000 0003 0039 8
                E: 1.010000 0003 0035 101
                E: 1.010000 0003 0036 100
                E: 1.010000 0000 0002 0
                E: 1.010000 0003 0039 7
                E: 1.010000 0003 0035 119
                E: 1.010000 0003 0036 100
                E: 1.010000 0000 0002 0
                E: 1.010000 0000 0000 0
                E: 1.020000 0000 0002 0
                E: 1.020000 0000 0000 0
                """
        let trace = try parse(text)
        #expect(
            trace.events == [
                frame(0, Finger.down(1, 100, 100), Finger.down(2, 120, 100)),
                frame(0.01, Finger.move(2, 101, 100), Finger.move(1, 119, 100)),
                frame(0.02, Finger.up(2, 101, 100), Finger.up(1, 119, 100)),
            ])
    }

    @Test func singleTouchDeviceUsesAbsXYAndBtnTouch() throws {
        let text = """
            N: Single
            A: 00 0 1000 0 0
            A: 01 0 1000 0 0
            E: 0.100000 0003 0000 100
            E: 0.100000 0003 0001 200
            E: 0.100000 0001 014a 1
            E: 0.100000 0000 0000 0
            E: 0.200000 0003 0000 150
            E: 0.200000 0000 0000 0
            E: 0.300000 0001 014a 0
            E: 0.300000 0000 0000 0
            E: 0.400000 0003 0000 300
            E: 0.400000 0000 0000 0
            E: 0.500000 0001 014a 1
            E: 0.500000 0000 0000 0
            """
        let trace = try parse(text, size: Size(width: 1000, height: 1000))
        #expect(
            trace.events == [
                frame(0, Finger.down(1, 100, 200)),
                frame(0.1, Finger.move(1, 150, 200)),
                frame(0.2, Finger.up(1, 150, 200)),
                frame(0.4, Finger.down(2, 300, 200)),
            ])
    }

    @Test func deviceDescriptionSuppliesRangesAndScalesPerAxisWithClamping() throws {
        let device = """
            N: SynPS/2 Synaptics TouchPad
            A: 00 1472 5472 8 0
            A: 01 1408 4448 8 0
            A: 2f 0 1 0 0
            A: 35 1472 5472 8 0
            A: 36 1408 4448 8 0
            A: 39 0 65535 0 0
            """
        let events = """
            E: 7.000000 0003 0039 1
            E: 7.000000 0003 0035 3472
            E: 7.000000 0003 0036 2928
            E: 7.000000 0000 0000 0
            E: 7.100000 0003 0035 5472
            E: 7.100000 0003 0036 1000
            E: 7.100000 0000 0000 0
            """
        let trace = try parse(events, size: Size(width: 800, height: 600), device: device)
        #expect(
            trace.events == [
                frame(0, Finger.down(1, 400, 300)),
                // The far edge and beyond the range stay inside the viewport (rects are half-open).
                frame(0.1, Finger.move(1, (800.0).nextDown, 0)),
            ])
        // Without a description the recording cannot be scaled.
        #expect(throws: TraceError(file: "r.events", line: 1, message: Self.noRanges)) {
            try parse(events)
        }
    }

    static let noRanges =
        "no axis ranges for the touch positions (no \"A: 35\"/\"A: 36\" or \"A: 00\"/\"A: 01\" header lines); give the device description with --device"

    /// Malformed evemu lines (after the 10-line header), with their exact errors.
    @Test(arguments: [
        (
            "E: 1.000000 0003 0035",
            "r.events:10: expected \"E: <seconds>.<microseconds> <type hex> <code hex> <value>\""
        ),
        (
            "E: 1.000000 0003 0035 1 2",
            "r.events:10: expected \"E: <seconds>.<microseconds> <type hex> <code hex> <value>\""
        ),
        ("E: 1,5 0003 0035 1", "r.events:10: expected a time \"<seconds>.<microseconds>\", got \"1,5\""),
        ("E: 1.5.2 0003 0035 1", "r.events:10: expected a time \"<seconds>.<microseconds>\", got \"1.5.2\""),
        // Times beyond Int64 nanoseconds, and overlong digit runs (found by scripts/fuzz: they trapped).
        (
            "E: 99999999999999999999.0 0003 0035 1",
            "r.events:10: expected a time \"<seconds>.<microseconds>\", got \"99999999999999999999.0\""
        ),
        (
            "E: 9999999999.0 0003 0035 1",
            "r.events:10: expected a time \"<seconds>.<microseconds>\", got \"9999999999.0\""
        ),
        (
            "E: 9223372036.854775808 0003 0035 1",
            "r.events:10: expected a time \"<seconds>.<microseconds>\", got \"9223372036.854775808\""
        ),
        (
            "E: 1.00000000000000000000000001 0003 0035 1",
            "r.events:10: expected a time \"<seconds>.<microseconds>\", got \"1.00000000000000000000000001\""
        ),
        ("E: 1.000000 00zz 0035 1", "r.events:10: expected a hexadecimal event type, got \"00zz\""),
        ("E: 1.000000 0003 -035 1", "r.events:10: expected a hexadecimal event code, got \"-035\""),
        ("E: 1.000000 0003 0035 1.5", "r.events:10: expected a decimal event value, got \"1.5\""),
        ("E: 1.000000 0003 0035 0x10", "r.events:10: expected a decimal event value, got \"0x10\""),
        ("A: 35 0", "r.events:10: expected \"A: <code hex> <min> <max> <fuzz> <flat> [<resolution>]\""),
        ("A: 3g 0 10 0 0", "r.events:10: expected \"A: <code hex> <min> <max> <fuzz> <flat> [<resolution>]\""),
        // Limits beyond the kernel's 32-bit input_absinfo (found by scripts/fuzz: the scaling trapped).
        (
            "A: 35 -9223372036854775808 9223372036854775807 0 0 0",
            "r.events:10: expected the axis minimum and maximum to be 32-bit integers, got -9223372036854775808 and 9223372036854775807"
        ),
        (
            "A: 36 0 2147483648 0 0 0",
            "r.events:10: expected the axis minimum and maximum to be 32-bit integers, got 0 and 2147483648"
        ),
        (
            "{\"type\":\"down\"}",
            "r.events:10: expected an evemu line (\"N:\", \"I:\", \"P:\", \"B:\", \"A:\", \"L:\", \"S:\", \"E:\" or \"#\")"
        ),
        (
            "A: 35 10 10 0 0 0\nE: 1.0 0003 0035 1\nE: 1.0 0000 0000 0",
            "r.events:11: axis 35 has an empty range (min 10, max 10)"
        ),
    ])
    func malformedLine(line: String, expected: String) {
        do {
            let trace = try parse(Self.header + line + "\nE: 2.000000 0000 0000 0\n")
            Issue.record("parsed without error: \(trace.events)")
        } catch let error as TraceError {
            #expect(error.description == expected)
        } catch {
            Issue.record("unexpected error type \(error)")
        }
    }

    /// The widest 32-bit axis range scales without overflow: its ends map to the viewport's edges.
    @Test func widestAxisRange() throws {
        let trace = try parse(
            """
            A: 35 -2147483648 2147483647 0 0 0
            A: 36 -2147483648 2147483647 0 0 0
            E: 1.0 0003 0039 1
            E: 1.0 0003 0035 -2147483648
            E: 1.0 0003 0036 2147483647
            E: 1.0 0000 0000 0
            """)
        #expect(trace.events == [frame(0, Finger.down(1, 0, Double(500).nextDown))])
    }

    /// The latest time that fits in `Int64` nanoseconds still reads (the bound of the error above).
    @Test func latestRepresentableTime() throws {
        let trace = try parse(
            Self.header + """
                E: 9223372036.854775806 0003 0039 1
                E: 9223372036.854775806 0003 0035 100
                E: 9223372036.854775806 0003 0036 50
                E: 9223372036.854775806 0000 0000 0
                E: 9223372036.854775807 0003 0039 -1
                E: 9223372036.854775807 0000 0000 0
                """)
        #expect(trace.events == [frame(0, Finger.down(1, 100, 50)), frame(1e-9, Finger.up(1, 100, 50))])
    }

    @Test func errorsInTheDeviceDescriptionNameThatFile() {
        #expect(throws: TraceError(file: "r.desc", line: 2, message: "expected a decimal event value, got \"x\"")) {
            try parse("E: 1.0 0003 0039 1\nE: 1.0 0000 0000 0", device: "N: d\nE: 1.0 0003 0035 x")
        }
    }

    @Test func fileErrors() throws {
        #expect(throws: TraceError(file: "/nonexistent/t.jsonl", line: 0, message: "no such file")) {
            try TraceReader.read(path: "/nonexistent/t.jsonl", size: nil, device: nil)
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gesturetrace-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let bad = dir.appendingPathComponent("bad.events.gz").path
        try Data("not gzip at all".utf8).write(to: URL(fileURLWithPath: bad))
        do {
            _ = try TraceReader.read(path: bad, size: nil, device: nil)
            Issue.record("garbage .gz parsed")
        } catch {
            #expect(error.file == bad)
            #expect(error.line == 0)
            #expect(error.message.hasPrefix("invalid gzip data"))
        }
        // A gzip stream cut short.
        let truncated = dir.appendingPathComponent("cut.gz").path
        let gz = try Data(contentsOf: URL(fileURLWithPath: TouchData.path("evemu/3m.event.gz")))
        try gz.prefix(2000).write(to: URL(fileURLWithPath: truncated))
        #expect(throws: TraceError(file: truncated, line: 0, message: "truncated gzip data")) {
            try TraceReader.read(path: truncated, size: nil, device: nil)
        }
    }

    @Test func readsAJSONLinesFileFromDisk() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gesturetrace-j-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("t.jsonl").path
        try Data("{\"type\":\"viewport\",\"width\":640,\"height\":480}\n{\"type\":\"shake\",\"t\":0.5}\n".utf8)
            .write(to: URL(fileURLWithPath: path))
        let trace = try TraceReader.read(path: path, size: nil, device: nil)
        #expect(
            trace
                == Trace(
                    viewport: Size(width: 640, height: 480), events: [.shake(timestamp: 0.5)], viewportFromTrace: true))
    }
}

@Suite("Android getevent text")
struct GeteventTests {
    @Test func protocolAWithTrackingIDsInPoints() throws {
        let text = """
            [    1482.431904] EV_ABS       ABS_MT_POSITION_X    00000213
            [    1482.431923] EV_ABS       ABS_MT_POSITION_Y    00000308
            [    1482.431928] EV_ABS       ABS_MT_PRESSURE      00000010
            [    1482.431937] EV_ABS       ABS_MT_TRACKING_ID   00000000
            [    1482.431951] EV_SYN       SYN_MT_REPORT        00000000
            [    1482.431956] EV_SYN       SYN_REPORT           00000000
            [    1482.441956] EV_KEY       BTN_TOUCH            DOWN
            [    1482.441957] EV_ABS       ABS_MT_POSITION_X    00000220
            [    1482.441957] EV_ABS       ABS_MT_POSITION_Y    00000308
            [    1482.441958] EV_ABS       ABS_MT_TRACKING_ID   00000000
            [    1482.441959] EV_SYN       SYN_MT_REPORT        00000000
            [    1482.441960] EV_SYN       SYN_REPORT           00000000
            [    1482.473067] EV_SYN       SYN_MT_REPORT        00000000
            [    1482.473085] EV_SYN       SYN_REPORT           00000000
            """
        let trace = try TraceReader.parse(text: text, file: "a.txt", size: nil, deviceText: nil)
        #expect(trace.viewport == Size(width: 1024, height: 768))
        // Units are points, clamped into the viewport (0x308 = 776 > 768).
        #expect(trace.frames.first?.changes.first?.location == Point(x: 0x213, y: (768.0).nextDown))
        let sized = try TraceReader.parse(
            text: text, file: "a.txt", size: Size(width: 1000, height: 1000), deviceText: nil)
        #expect(
            sized.events == [
                .touches(
                    TouchFrame(
                        timestamp: 0.000052,
                        changes: [Finger.down(1, 0x213, 0x308)])),
                .touches(
                    TouchFrame(
                        timestamp: 0.010056,
                        changes: [Finger.move(1, 0x220, 0x308)])),
                .touches(
                    TouchFrame(
                        timestamp: 0.041181,
                        changes: [Finger.up(1, 0x220, 0x308)])),
            ])
    }

    @Test(arguments: [
        (
            "[ 1.0] EV_ABS ABS_MT_POSITION_X",
            "g.txt:1: expected \"[ <seconds>.<microseconds>] <type> <code> <value hex>\" (getevent -lt)"
        ),
        ("[ 1.0] EV_FOO ABS_MT_POSITION_X 00000001", "g.txt:1: unknown event type \"EV_FOO\""),
        ("[ 1.0] EV_ABS ABS_FOO 00000001", "g.txt:1: unknown event code \"ABS_FOO\""),
        ("[ 1.0] EV_ABS ABS_X 0000000g", "g.txt:1: expected a hexadecimal event value, got \"0000000g\""),
        (
            "[ 99999999999999999999.0] EV_ABS ABS_X 00000001",
            "g.txt:1: expected a time \"<seconds>.<microseconds>\", got \"99999999999999999999.0\""
        ),
        (
            "[ 21298914357.5] EV_ABS ABS_X 00000001",
            "g.txt:1: expected a time \"<seconds>.<microseconds>\", got \"21298914357.5\""
        ),
    ])
    func malformed(line: String, expected: String) {
        #expect(throws: (any Error).self) {
            try TraceReader.parse(text: line, file: "g.txt", size: nil, deviceText: nil)
        }
        do {
            _ = try TraceReader.parse(text: line, file: "g.txt", size: nil, deviceText: nil)
        } catch {
            #expect(error.description == expected)
        }
    }

    @Test(arguments: [
        "Phone/phone-single-touch.txt", "Phone/phone-single-drag.txt", "Phone/phone-three-touches.txt",
        "Phone/phone-two-finger-drag.txt", "Tablet/tablet-single-touch.txt", "Tablet/tablet-single-drag.txt",
        "Tablet/tablet-three-touches.txt", "Tablet/tablet-two-finger-drag.txt",
    ])
    func realFiles(file: String) throws {
        let trace = try TouchData.read("android-getevent-monkeyhelper/" + file, size: Size(width: 2000, height: 2000))
        let stats = TraceStats(trace)
        #expect(stats.consistent)
        #expect(stats.stillDown == 0)
        #expect(stats.maxSimultaneous == (file.contains("two-finger") ? 2 : 1))
        #expect(stats.downs == (file.contains("three-touches") ? 3 : file.contains("two-finger") ? 2 : 1))
    }
}
