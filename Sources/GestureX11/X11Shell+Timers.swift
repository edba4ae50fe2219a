import GestureKit

/// Timers: a replay's due events, the scene's deadlines and the loop's sleep (a kiosk's idle timers and tour are
/// the scene's: see GesturesDemo's `KioskDirector`); activity reported to the scene.
extension X11Shell {
    func runTimers(now: Double) {
        // A touch frame held for the rest of its device frame goes before anything later.
        if input.frames.holdDeadline != nil,
            (scene.nextDeadline ?? .infinity) <= now || playback.player?.isPlaying == true
                || kiosk.admin?.deadline != nil
        {
            flushFrame()
        }
        // A replay (--replay) and the kiosk tour: their due events, as if a person did them.
        if let player = playback.player, player.isPlaying {
            while let item = player.next(at: now, notBefore: input.lastFed) {
                switch item {
                case .event(let e): feed(e, real: false)
                case .action(let k): onReplayAction?(k)
                }
            }
            if player.isFinished && !playback.reported {
                playback.reported = true
                onReplayFinished?()
                if playback.exitWhenDone { quit(status: 0) }
            }
        }
        // The scene's timers, each at its own deadline.
        var guardCount = 0
        while let d = scene.nextDeadline, d <= now, guardCount < 1000 {
            let t = max(d, input.lastFed)
            scene.advance(to: t)
            input.lastFed = t
            guardCount += 1
        }
        runAdminTimer(now: now)
        resetSaverIfDue(now: now)
        runKioskGuard(now: now)
        runPlacementCheck(now: now)
        // Fingers held down: someone is there (a kiosk's idle timers).
        if windowState.lifecycle.isReady && input.translator.hasActiveFingers {
            scene.noteActivity(at: max(now, input.lastFed))
        }
    }

    /// Real input (not a replay): the scene hears that someone is there.
    func noteRealInput(at t: Double) {
        scene.noteActivity(at: t)
    }

    /// Activity that is not scene input (hover motion) still counts as someone there.
    func noteActivity() {
        guard windowState.lifecycle.isReady else { return }
        scene.noteActivity(at: max(clock.now(), input.lastFed))
    }

    /// The longest a dead drag is left unread. Without a wake connection a press during a batch
    /// waits for its end, so the batch is then one 60 Hz frame at most.
    var batchHold: Double {
        wake == nil ? min(options.inputBatchInterval, 1.0 / 60) : options.inputBatchInterval
    }

    /// How long the loop may sleep: until the nearest deadline (-1: none).
    func pollTimeout(now: Double) -> Int32 {
        var deadline = Double.infinity
        if let d = scene.nextDeadline { deadline = min(deadline, d) }
        if let d = playback.player?.nextDeadline { deadline = min(deadline, d) }
        if let d = drawing.presenter.busyDeadline { deadline = min(deadline, d) }
        if let d = drawing.presenter.shrinkDeadline { deadline = min(deadline, d) }
        if let d = kiosk.deadline { deadline = min(deadline, d) }
        if let d = input.frames.holdDeadline { deadline = min(deadline, d) }
        if let d = kioskGuardDeadline { deadline = min(deadline, d) }
        if let d = kiosk.placementCheck.due { deadline = min(deadline, d) }
        if frameWanted && !drawing.presenter.isBusy, let d = drawing.pacer.nextDeadline { deadline = min(deadline, d) }
        guard deadline.isFinite else { return -1 }
        let ms = ((deadline - now) * 1000).rounded(.up)
        return ms <= 0 ? 0 : Int32(min(ms, 86_400_000))
    }
}
