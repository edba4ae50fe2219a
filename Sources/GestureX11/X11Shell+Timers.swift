import GestureKit

/// Timers: a replay's and the kiosk tour's due events, the scene's deadlines, the kiosk's idle
/// reset and tour.
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
        if let player = tourPlayer, player.isPlaying {
            for e in player.due(at: now, notBefore: lastFed) { feed(e, real: false) }
            if player.isFinished { nextTourAt = now + options.tourGap }
        }
        // The scene's timers, each at its own deadline.
        var guardCount = 0
        while let d = scene.nextDeadline, d <= now, guardCount < 1000 {
            let t = max(d, lastFed)
            scene.advance(to: t)
            lastFed = t
            guardCount += 1
        }
        // Kiosk: reset after a minute without input; the tour after a minute and a half.
        if options.kiosk && isReady {
            if translator.hasActiveFingers {
                lastInput = now
                nextTourAt = max(nextTourAt, now + options.idleTourDelay)
            }
            if !idleResetDone && now >= lastInput + options.idleResetDelay {
                idleResetDone = true
                scene.resetAfterIdle(at: max(now, lastFed))
            }
            if !tour.isEmpty && tourPlayer?.isPlaying != true && now >= nextTourAt {
                // A new player each time: the window may have changed size since the last tour.
                let player = ReplayPlayer(events: tourEvents?(size) ?? tour, idOffset: 2_000_000)
                tourPlayer = player
                scene.resetAfterIdle(at: max(now, lastFed))
                player.begin(at: max(now, lastFed))
                nextTourAt = .infinity
            }
        }
    }

    /// Real input (not a replay, not the tour): stops the tour and restarts the idle timers.
    func noteRealInput(at t: Double) {
        guard options.kiosk else { return }
        if let player = tourPlayer, player.isPlaying {
            for e in player.stop(at: t) { deliver(e) }
            scene.resetAfterIdle(at: t)
        }
        lastInput = t
        idleResetDone = false
        nextTourAt = t + options.idleTourDelay
    }

    /// Kiosk only: activity that is not scene input (hover motion) still counts as someone there.
    func noteActivity() {
        guard options.kiosk, isReady else { return }
        noteRealInput(at: max(clock.now(), lastFed))
    }

}
