import CX11
import Foundation
import GestureTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Every test that starts an X server lives in this suite (or a suite nested in it, declared
/// in an extension), so they run one at a time: each starts its own server, and the machine
/// has few cores. A server that cannot start is a failure with the reason; the one exception is
/// Xorg with the inputtest driver, which starts only as root: for other users its tests are
/// skipped, saying so (`xorgNeedsRoot`), and as root (CI) they run. A hang (a server or the app that never answers) fails after the time limit instead of
/// stalling CI.
@Suite("X11 integration (own Xvfb / Xorg servers)", .serialized, .timeLimit(.minutes(2)))
struct XServerTests {}

extension XServerTests {
    /// The test infrastructure itself, proven with a probe window of the test's own: servers
    /// start, XTest and MPX drive the pointers, inputtest injects genuine XI2 touches and
    /// XI 2.4 touchpad gestures.
    @Suite("Infrastructure")
    struct Infrastructure {
        @Test("Xvfb starts on a display it picks, twice at once, with XInput 2.2+")
        func xvfbStarts() throws {
            let start = monotonicNow()
            let a = try TestXServer()
            let b = try TestXServer()
            let elapsed = monotonicNow() - start
            #expect(a.display != b.display)
            let connection = try XConnection(a.display)
            #expect(connection.screenWidth == 1280 && connection.screenHeight == 800)
            let version = try #require(connection.xiVersion())
            #expect(version.0 == 2 && version.1 >= 2, "XInput \(version)")
            #expect(elapsed < 10, "two Xvfb took \(elapsed) s to start")
            b.stop()
            #expect(b.process.status != nil)
        }

        @Test("XTest moves the core pointer and a second MPX master pointer independently")
        func xvfbMPX() throws {
            let server = try TestXServer()
            let main = try XConnection(server.display)
            let window = main.createProbeWindow(
                x: 0, y: 0, width: 1280, height: 800,
                events: [XI_ButtonPress, XI_ButtonRelease, XI_Motion])
            #expect(window != 0)
            let master = try main.createMasterPointer("second")
            let core = try #require(
                main.devices().first { $0.name == "Virtual core pointer" }?.id)
            let other = try XConnection(server.display)
            other.setClientPointer(master)

            main.move(to: 100, 150)
            other.move(to: 700, 500)
            main.button(1, pressed: true)
            other.button(1, pressed: true)
            main.move(to: 120, 150)
            other.move(to: 680, 500)
            other.button(1, pressed: false)
            main.button(1, pressed: false)
            main.sync()
            other.sync()
            let events = main.readXIEvents(timeout: 5) { events in
                events.filter { $0.type == XI_ButtonRelease }.count >= 2
            }
            let presses = events.filter { $0.type == XI_ButtonPress }
            let pressCore = presses.first { $0.deviceID == core }
            let pressSecond = presses.first { $0.deviceID == master }
            #expect(pressCore.map { ($0.rootX, $0.rootY) == (100, 150) } == true, "\(events)")
            #expect(pressSecond.map { ($0.rootX, $0.rootY) == (700, 500) } == true, "\(events)")
            let lastSecond = events.last { $0.type == XI_Motion && $0.deviceID == master }
            #expect(lastSecond.map { ($0.x, $0.y) == (680, 500) } == true)
        }

        @Test("The inputtest structs match the C header byte for byte")
        func inputTestProtocolLayout() throws {
            let header = "/usr/include/xorg/xf86-input-inputtest-protocol.h"
            guard access(header, R_OK) == 0 else {
                throw XTestError("\(header) missing: apt-get install xserver-xorg-dev")
            }
            let compiler = try #require(
                findProgram("cc") ?? findProgram("gcc") ?? findProgram("clang"),
                "no C compiler to check the inputtest header with")
            let dir = try TemporaryDirectory()
            let source = """
                #include <stdio.h>
                #include <stddef.h>
                #include <xorg/xf86-input-inputtest-protocol.h>
                int main(void) {
                    printf("%zu %zu %zu %zu\\n", sizeof(xf86ITValuatorData),
                        offsetof(xf86ITValuatorData, mask), offsetof(xf86ITValuatorData, valuators),
                        offsetof(xf86ITValuatorData, unaccelerated));
                    printf("%zu %zu %zu %zu %zu %zu %zu %zu %zu\\n",
                        sizeof(xf86ITEventClientVersion), sizeof(xf86ITEventWaitForSync),
                        sizeof(xf86ITEventMotion), sizeof(xf86ITEventButton),
                        sizeof(xf86ITEventKey), sizeof(xf86ITEventTouch),
                        sizeof(xf86ITEventGesturePinch), sizeof(xf86ITEventGestureSwipe),
                        sizeof(xf86ITResponseServerVersion));
                    printf("%zu %zu %zu %zu %zu %zu %zu %zu %zu %zu\\n",
                        offsetof(xf86ITEventTouch, touchid), offsetof(xf86ITEventTouch, touch_type),
                        offsetof(xf86ITEventTouch, valuators),
                        offsetof(xf86ITEventGesturePinch, gesture_type),
                        offsetof(xf86ITEventGesturePinch, num_touches),
                        offsetof(xf86ITEventGesturePinch, flags),
                        offsetof(xf86ITEventGesturePinch, delta_x),
                        offsetof(xf86ITEventGesturePinch, scale),
                        offsetof(xf86ITEventGesturePinch, delta_angle),
                        offsetof(xf86ITEventButton, valuators));
                    printf("%d %d %d\\n", XF86IT_EVENT_GESTURE_SWIPE, XF86IT_RESPONSE_SYNC_FINISHED,
                        XF86IT_MAX_VALUATORS);
                    return 0;
                }
                """
            try source.write(toFile: dir.file("layout.c"), atomically: true, encoding: .utf8)
            let cc = try ChildProcess(
                compiler, [dir.file("layout.c"), "-o", dir.file("layout")],
                stderr: .file(dir.file("cc.txt")))
            #expect(cc.wait(timeout: 60) == 0, "\(readText(dir.file("cc.txt")))")
            let run = try ChildProcess(dir.file("layout"), [], stdout: .file(dir.file("out.txt")))
            #expect(run.wait(timeout: 10) == 0)
            typealias P = InputTestProtocol
            let expected = """
                \(P.valuatorDataSize) \(P.valuatorMaskOffset) \(P.valuatorValuesOffset) \
                \(P.valuatorUnacceleratedOffset)
                \(P.clientVersionSize) \(P.waitForSyncSize) \(P.motionSize) \(P.buttonSize) \
                \(P.keySize) \(P.touchSize) \(P.pinchSize) \(P.swipeSize) \(P.serverVersionSize)
                8 12 16 8 10 12 16 48 56 24
                \(P.EventType.gestureSwipe.rawValue) \(P.ResponseType.syncFinished.rawValue) \
                \(P.maxValuators)

                """
            #expect(readText(dir.file("out.txt")) == expected)
        }

        @Test("Xorg + dummy + inputtest: genuine XI2 touches arrive where they were sent", xorgNeedsRoot)
        func xorgTouches() throws {
            let server = try XorgInputTest()
            let probe = try XConnection(server.display)
            let version = try #require(probe.xiVersion())
            #expect(version.0 == 2 && version.1 >= 4, "XInput \(version)")
            _ = probe.createProbeWindow(
                x: 0, y: 0, width: 1280, height: 800,
                events: [XI_TouchBegin, XI_TouchUpdate, XI_TouchEnd])
            let touch = server.touchscreen
            try touch.touch(.begin, id: 1, x: 100, y: 200)
            try touch.touch(.begin, id: 2, x: 640.5, y: 400.25)
            try touch.touch(.update, id: 1, x: 110, y: 210)
            try touch.touch(.update, id: 2, x: 1000, y: 700)
            try touch.touch(.end, id: 1, x: 110, y: 210)
            try touch.touch(.end, id: 2, x: 1000, y: 700)
            try touch.sync()
            let events = probe.readXIEvents(timeout: 5) { events in
                events.filter { $0.type == XI_TouchEnd }.count >= 2
            }
            let begins = events.filter { $0.type == XI_TouchBegin }
            let ends = events.filter { $0.type == XI_TouchEnd }
            try #require(begins.count == 2 && ends.count == 2, "\(events)")
            #expect(begins[0].detail != begins[1].detail)
            #expect(abs(begins[0].x - 100) < 0.1 && abs(begins[0].y - 200) < 0.1, "\(begins[0])")
            #expect(abs(begins[1].x - 640.5) < 0.1 && abs(begins[1].y - 400.25) < 0.1)
            let lastOfSecond = events.last { $0.detail == begins[1].detail }!
            #expect(abs(lastOfSecond.x - 1000) < 0.1 && abs(lastOfSecond.y - 700) < 0.1)
        }

        @Test("Xorg + inputtest: XI 2.4 touchpad pinch carries scale and angle", xorgNeedsRoot)
        func xorgTouchpadPinch() throws {
            let server = try XorgInputTest()
            let probe = try XConnection(server.display)
            _ = probe.createProbeWindow(
                x: 0, y: 0, width: 1280, height: 800,
                events: [XI_GesturePinchBegin, XI_GesturePinchUpdate, XI_GesturePinchEnd])
            probe.move(to: 300, 250)
            probe.sync()
            let pad = server.touchpad
            try pad.pinch(.begin, scale: 1)
            try pad.pinch(.update, scale: 1.25, angleDelta: 5)
            try pad.pinch(.update, scale: 1.5, angleDelta: 10)
            try pad.pinch(.end, scale: 1.5)
            try pad.sync()
            let events = probe.readXIEvents(timeout: 5) { events in
                events.contains { $0.type == XI_GesturePinchEnd }
            }
            #expect(events.map(\.type) == [27, 28, 28, 29], "\(events)")
            let updates = events.filter { $0.type == XI_GesturePinchUpdate }
            #expect(updates.map(\.scale) == [1.25, 1.5])
            #expect(updates.map(\.angleDelta) == [5, 10])
            #expect(events.allSatisfy { $0.rootX == 300 && $0.rootY == 250 && $0.detail == 2 })
        }
    }
}
