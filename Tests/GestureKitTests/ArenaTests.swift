import GestureKit
import GestureTestSupport
import Testing

/// The arena's own rules (GestureArena.swift): illegal state requests trip its assert in debug
/// builds, and withdrawing a recognizer that others wait on releases them. The arbitration
/// outcomes themselves (rivals, requirements, simultaneity) are in ArbitrationTests.
@MainActor
@Suite struct ArenaTests {
    /// Requests docs/DESIGN.md §3's state machine has no arrow for, each made by a recognizer in the
    /// middle of an interaction (or outside one), stop a debug build at the arena's assert.
    /// Exit tests run each body in a child process.
    #if DEBUG
        @Test func tapAskingToBeginIsIllegal() async {
            await #expect(processExitsWith: .failure) {
                await MainActor.run {
                    let h = Harness()
                    let tap = h.add(TapGestureRecognizer(name: "tap"))
                    h.frame(0, Finger.down(1, 100, 100))
                    tap.state = .began  // discrete: possible → ended | failed only
                }
            }
        }

        @Test func continuousEndingFromPossibleIsIllegal() async {
            await #expect(processExitsWith: .failure) {
                await MainActor.run {
                    let h = Harness()
                    let pan = h.add(PanGestureRecognizer(name: "pan"))
                    h.frame(0, Finger.down(1, 100, 100))
                    pan.state = .ended  // possible → began first
                }
            }
        }

        @Test func changingFromPossibleIsIllegal() async {
            await #expect(processExitsWith: .failure) {
                await MainActor.run {
                    let h = Harness()
                    let pan = h.add(PanGestureRecognizer(name: "pan"))
                    h.frame(0, Finger.down(1, 100, 100))
                    pan.state = .changed
                }
            }
        }

        @Test func leavingFailedIsIllegal() async {
            await #expect(processExitsWith: .failure) {
                await MainActor.run {
                    let h = Harness()
                    let tap = h.add(TapGestureRecognizer(name: "tap"))
                    h.frame(0, Finger.down(1, 100, 100), Finger.down(2, 150, 100))  // too many: failed
                    tap.state = .ended
                }
            }
        }

        @Test func askingForPossibleIsIllegal() async {
            await #expect(processExitsWith: .failure) {
                await MainActor.run {
                    let h = Harness()
                    let pan = h.add(PanGestureRecognizer(name: "pan"))
                    h.stroke(
                        from: Point(x: 100, y: 100), to: Point(x: 150, y: 100), duration: 0.1, steps: 5, lift: false)
                    pan.state = .possible  // only a reset goes back to possible
                }
            }
        }

        @Test func illegalOutsideAnInteraction() async {
            await #expect(processExitsWith: .failure) {
                await MainActor.run {
                    let swipe = SwipeGestureRecognizer(name: "swipe")
                    swipe.state = .cancelled
                }
            }
        }
    #endif

    /// A legal request outside any interaction (no touches delivered yet) is applied: there is
    /// no one to compete with.
    @Test func legalOutsideAnInteraction() {
        let pan = PanGestureRecognizer(name: "pan")
        var fired: [GestureState] = []
        pan.addAction { fired.append($0.state) }
        pan.state = .began
        pan.state = .changed
        pan.state = .ended
        #expect(fired == [.began, .ended])  // the change changed no value: not entered
    }

    /// `single` requires `double` to fail and holds its success after one tap; withdrawing
    /// `double` (disabled, or removed from its view) counts as its failure: `single` is
    /// recognized there and then, rather than waiting forever on a recognizer that left.
    @Test(arguments: [false, true])
    func withdrawingARequiredRecognizerReleasesTheHold(removeFromView: Bool) {
        let h = Harness()
        let double = h.add(TapGestureRecognizer(name: "double"))
        double.numberOfTapsRequired = 2
        let single = h.add(TapGestureRecognizer(name: "single"))
        single.require(toFail: double)
        h.frame(0, Finger.down(1, 100, 100))
        h.frame(0.05, Finger.up(1, 100, 100))
        h.wait(0.1)
        #expect(h.log.lines.isEmpty)  // single waits on double's gap timer
        if removeFromView { h.root.removeGestureRecognizer(double) } else { double.isEnabled = false }
        h.wait(2)
        h.frame(3, Finger.down(2, 300, 300))
        h.frame(3.05, Finger.up(2, 300, 300))
        #expect(
            h.log.lines == [
                "0.1 single ended (100,100) n=0 taps=1 touches=1",
                "3.05 single ended (300,300) n=1 taps=1 touches=1",
            ])
    }
}
