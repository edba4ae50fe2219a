import GestureKit

/// Timers: a replay's due events and the scene's deadlines (a kiosk's idle timers and tour are
/// the scene's: see GesturesDemo's `KioskDirector`); activity reported to the scene.
extension X11Shell {
    func runTimers(now: Double) {
        // A replay (--replay) and the kiosk tour: their due events, as if a person did them.
        if let player = replay, player.isPlaying {
            for e in player.due(at: now, notBefore: lastFed) { feed(e, real: false) }
            if player.isFinished && !replayReported {
                replayReported = true
                onReplayFinished?()
                if exitAfterReplay { quit(status: 0) }
            }
        }
        // The scene's timers, each at its own deadline.
        var guardCount = 0
        while let d = scene.nextDeadline, d <= now, guardCount < 1000 {
            let t = max(d, lastFed)
            scene.advance(to: t)
            lastFed = t
            guardCount += 1
        }
        runAdminTimer(now: now)
        resetSaverIfDue(now: now)
        // Fingers held down: someone is there (a kiosk's idle timers).
        if isReady && translator.hasActiveFingers { scene.noteActivity(at: max(now, lastFed)) }
    }

    /// Real input (not a replay): the scene hears that someone is there.
    func noteRealInput(at t: Double) {
        scene.noteActivity(at: t)
    }

    /// Activity that is not scene input (hover motion) still counts as someone there.
    func noteActivity() {
        guard isReady else { return }
        scene.noteActivity(at: max(clock.now(), lastFed))
    }

}
