import CX11
import Foundation
import GestureTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The soak's settings: `GESTURES_SOAK_SECONDS` (default 60) and `GESTURES_SOAK_SEED` (decimal
/// or 0x-hex; default derived from the clock). Read once per test process.
struct SoakConfig: Sendable {
    var seed: UInt64
    var seconds: Double
    /// Every burst of input that must change the picture is answered by a frame this fast.
    let budget = 0.1
    /// App CPU over 2 s without input (one settle redraw of the picture fits).
    let idleCPUBudget = 0.02
    /// RSS growth of the app and of the X server from the warm-up to the end.
    let growthBudgetKiB = 1024
    /// The share of the soak that is warm-up for the memory comparison.
    let warmUp = 0.2
    /// Bursts between checkpoints (window home size, flower home, RSS sampled).
    let checkpointEvery = 40
    /// Soaks up to this long run inside `XServerTests` (its 2-minute limit per test).
    static let shortLimit = 90.0

    static let current = SoakConfig(environment: ProcessInfo.processInfo.environment)

    init(environment: [String: String]) {
        seconds = max(5, environment["GESTURES_SOAK_SECONDS"].flatMap { Double($0) } ?? 60)
        let text = environment["GESTURES_SOAK_SEED"] ?? ""
        if let seed = UInt64(text) ?? (text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : nil) {
            self.seed = seed
        } else {
            var now = timespec()
            clock_gettime(CLOCK_REALTIME, &now)
            var mix = SplitMix64(seed: UInt64(now.tv_sec) << 30 ^ UInt64(now.tv_nsec) ^ UInt64(getpid()) << 20)
            seed = mix.next() % 1_000_000_000_000
        }
    }

    /// Generous for a test that runs `seconds` plus its set-up and checks; whole minutes.
    var timeLimitMinutes: Int { Int((seconds * 1.25 + 120) / 60) + 1 }

    var replay: String { "scripts/soak \(Int(seconds)) \(seed)" }
}

extension XServerTests {
    /// The short run: inside the X suite, so no other X test shares the machine.
    @Suite("Monkey soak (GESTURES_SOAK_SECONDS ≤ 90, with the other X tests)")
    struct Soak {
        @Test(
            "Seeded random input through XTest, MPX, keys, resizes and XI2 touch: frames, idle CPU, exit, no growth",
            .enabled(if: SoakConfig.current.seconds <= SoakConfig.shortLimit), xorgNeedsRoot)
        func soak() throws { try runSoak(SoakConfig.current) }
    }
}

/// The long run (`scripts/soak`): outside the X suite, whose limit is 2 minutes per test.
@Suite("Monkey soak, long (scripts/soak)", .serialized, .timeLimit(.minutes(SoakConfig.current.timeLimitMinutes)))
struct LongSoak {
    @Test(
        "Seeded random input through XTest, MPX, keys, resizes and XI2 touch: frames, idle CPU, exit, no growth",
        .enabled(if: SoakConfig.current.seconds > SoakConfig.shortLimit), xorgNeedsRoot)
    func soak() throws { try runSoak(SoakConfig.current) }
}

/// Drives `gestures run` on one Xorg + dummy + inputtest server for `config.seconds` with
/// random but plausible input, then checks the soak's promises (docs/testing.md, "Soaks").
func runSoak(_ config: SoakConfig) throws {
    let tag = "soak seed \(config.seed) (replay: \(config.replay))"
    print("\(tag): \(Int(config.seconds)) s of input")
    let monkey: Monkey
    do { monkey = try Monkey(config: config) } catch { throw XTestError("\(tag): \(error)") }
    defer { monkey.close() }
    var steps = 0
    do {
        try monkey.checkpoint()
        while monkey.elapsed < config.seconds {
            try monkey.step()
            steps += 1
            if steps % config.checkpointEvery == 0 { try monkey.checkpoint() }
        }
        try monkey.checkpoint()
    } catch {
        throw XTestError("\(tag): \(error)")
    }
    let s = monkey.stats
    let soakTime = monkey.elapsed
    let app = monkey.app

    // Idle: 2 s without input.
    let pid = app.process.pid
    let cpu0 = ProcessProbe.cpuSeconds(pid) ?? 0
    pause(2)
    let idleCPU = (ProcessProbe.cpuSeconds(pid) ?? .infinity) - cpu0

    // Memory: the first checkpoint after the warm-up against the last one.
    let last = s.rss.count - 1
    let warm = s.rss.firstIndex { $0.t >= config.seconds * config.warmUp && $0.t < s.rss[last].t } ?? max(0, last - 1)
    let appGrowth = s.rss[last].app - s.rss[warm].app
    let serverGrowth = s.rss[last].server - s.rss[warm].server

    // Exit.
    let sent = monotonicNow()
    app.process.signal(SIGTERM)
    let status = app.waitForExit(timeout: 3)
    let exitTime = monotonicNow() - sent
    let finalLine = try? app.log.waitFor("final line", timeout: 2) { $0.type == "final" }.line

    let answers = s.answers.sorted()
    let median = answers.isEmpty ? 0 : answers[answers.count / 2]
    let worst = answers.last ?? 0
    let kinds = s.kinds.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    print(
        """
        \(tag): \(fixed(soakTime, 1)) s, \(s.bursts) bursts and \(s.pauses) pauses (\(kinds))
          frames: \(answers.count) bursts had to change the picture, \(s.misses.count) misses (budget \
        \(fixed(config.budget * 1000, 0)) ms), answer median \(fixed(median * 1000, 2)) ms, max \
        \(fixed(worst * 1000, 2)) ms; \(s.unmeasured) need not change it (\(s.answeredAnyway) answered \
        anyway); \(s.unrecognized.count) not recognized; \(s.neverQuiet.count) times not quiet before a burst
          flower: scale \(fixed(s.minScale, 3))…\(fixed(s.maxScale, 2)), \(s.angleBins.count)/12 angle \
        sectors, lost on screen \(s.lost.count), shaken home after losing track \(s.resets)
          memory: app RSS \(s.rss[warm].app) → \(s.rss[last].app) KiB (\(appGrowth >= 0 ? "+" : "")\(appGrowth)), \
        X server (less shared memory) \(s.rss[warm].server) → \(s.rss[last].server) KiB (\(serverGrowth >= 0 ? "+" : "")\(serverGrowth)) \
        from \(fixed(s.rss[warm].t, 1)) s to \(fixed(s.rss[last].t, 1)) s; SHM segments max \(s.maxSegments)
          idle CPU \(fixed(idleCPU * 1000, 1)) ms over 2 s; SIGTERM → status \(status.map(String.init) ?? "none") in \
        \(fixed(exitTime * 1000, 0)) ms
        """)
    print(
        "  RSS KiB (s: app/X server): "
            + s.rss.map { "\(fixed($0.t, 0)): \($0.app)/\($0.server)" }.joined(separator: ", "))
    for (time, context) in s.slowest { print("  slow: \(fixed(time * 1000, 2)) ms: \(context)") }
    for (name, list) in [
        ("miss", s.misses), ("not recognized", s.unrecognized), ("not quiet", s.neverQuiet), ("lost", s.lost),
    ] {
        for line in list.prefix(20) { print("  \(name): \(line)") }
    }

    #expect(answers.count >= 10, "\(tag): only \(answers.count) bursts were measured")
    #expect(s.misses.isEmpty, "\(tag): \(s.misses.count) bursts not answered within 100 ms: \(s.misses.prefix(5))")
    #expect(s.lost.isEmpty, "\(tag): the flower was not where its model said: \(s.lost.prefix(5))")
    #expect(idleCPU <= config.idleCPUBudget, "\(tag): \(fixed(idleCPU * 1000, 1)) ms of CPU over 2 s idle")
    #expect(status == 0, "\(tag): exit status \(status.map(String.init) ?? "none") after SIGTERM")
    #expect(exitTime < 1, "\(tag): SIGTERM took \(fixed(exitTime, 2)) s")
    #expect(
        appGrowth < config.growthBudgetKiB && serverGrowth < config.growthBudgetKiB,
        "\(tag): RSS grew by \(appGrowth) KiB (app), \(serverGrowth) KiB (X server) after the warm-up: \(s.rss)")
    #expect(s.segmentViolations.isEmpty, "\(tag): more than one SHM segment: \(s.segmentViolations.prefix(5))")
    if config.seconds >= 60 {
        // Every angle sector in a long run; a 60 s run's draws may leave one or two out (seed
        // 4242 at 60 s: 11/12), which says nothing about the app.
        let sectors = config.seconds >= 600 ? 12 : 10
        #expect(
            s.minScale <= 0.12 && s.maxScale >= 8 && s.angleBins.count >= sectors,
            "\(tag): the flower visited scales \(s.minScale)…\(s.maxScale), \(s.angleBins.count)/12 angle sectors")
    }
    // The app's own account of the flower at exit agrees with the model (home, after the last checkpoint).
    let matrix = (finalLine?.object["image"] as? [String: Any])?["matrix"] as? [NSNumber]
    let home = try app.region("image")
    #expect(
        matrix.map { m in
            m.count == 6 && abs(m[0].doubleValue - 1) < 1e-6 && abs(m[4].doubleValue - home.x) < 0.01
                && abs(m[5].doubleValue - home.y) < 0.01
        } == true, "\(tag): final line \(finalLine?.text ?? "missing"), image home \(home)")
}
