import GestureShellCore
import GestureTestSupport
import Testing

/// The HiDPI rule (``ScaleChoice``), as a pure function: which source wins, the rounding of
/// the physical density, and the physical sizes that are not believed.
@Suite struct ScaleRuleTests {
    static func monitor(_ w: Int, _ h: Int, mm: (Int, Int), name: String = "DP-1") -> Monitor {
        Monitor(name: name, x: 0, y: 0, width: w, height: h, primary: true, widthMM: mm.0, heightMM: mm.1)
    }

    static func choose(
        option: Double? = nil, dpi: Double? = nil, env: [String: String] = [:], _ m: Monitor?
    ) -> ScaleChoice {
        ScaleChoice.choose(option: option, xftDPI: dpi, environment: env) { m }
    }

    @Test func order() {
        let hidpi = Self.monitor(3840, 2160, mm: (597, 336))
        #expect(
            Self.choose(option: 1.5, dpi: 192, env: ["GDK_SCALE": "3"], hidpi) == .init(scale: 1.5, reason: "--scale"))
        #expect(Self.choose(dpi: 144, env: ["GDK_SCALE": "3"], hidpi) == .init(scale: 1.5, reason: "Xft.dpi 144"))
        #expect(Self.choose(env: ["GDK_SCALE": "3", "QT_SCALE_FACTOR": "2"], hidpi).scale == 3)
        #expect(
            Self.choose(env: ["QT_SCALE_FACTOR": "1.25"], hidpi) == .init(scale: 1.25, reason: "QT_SCALE_FACTOR=1.25"))
        #expect(
            Self.choose(env: ["GDK_SCALE": "1.5", "QT_SCALE_FACTOR": "x"], hidpi).reason.hasPrefix("DP-1"),
            "GDK_SCALE is whole")
        #expect(Self.choose(nil) == .init(scale: 1, reason: "default"))
    }

    @Test func monitorAsked_onlyWhenNeeded() {
        var asked = 0
        _ = ScaleChoice.choose(option: nil, xftDPI: 96, environment: [:]) {
            asked += 1
            return nil
        }
        #expect(asked == 0)
    }

    /// Pixels per inch ÷ 96, to the nearest step.
    @Test(arguments: [
        (1920, 1080, 527, 296, 1.0, "DP-1 93 dpi (527x296 mm)"),  // 24-inch full HD
        (3840, 2160, 597, 336, 1.75, "DP-1 163 dpi (597x336 mm)"),  // 27-inch 4K
        (3840, 2160, 527, 296, 2.0, "DP-1 185 dpi (527x296 mm)"),  // 24-inch 4K
        (2560, 1600, 286, 179, 2.5, "DP-1 227 dpi (286x179 mm)"),  // 13-inch laptop
        (1920, 1080, 344, 194, 1.5, "DP-1 142 dpi (344x194 mm)"),  // 15.6-inch full HD
        (800, 480, 155, 86, 1.5, "DP-1 136 dpi (155x86 mm)"),  // Raspberry Pi 7-inch panel
    ])
    func physicalDensity(w: Int, h: Int, mmW: Int, mmH: Int, scale: Double, reason: String) {
        #expect(Self.choose(Self.monitor(w, h, mm: (mmW, mmH))) == .init(scale: scale, reason: reason))
    }

    /// 0 mm (Xwayland, virtual outputs), aspect ratios given as sizes, impossible densities,
    /// non-square pixels: not believed, scale 1 and why.
    @Test(arguments: [(0, 0), (160, 90), (160, 100), (16, 9), (4, 3), (10, 6), (5000, 3000), (600, 170)])
    func bogusPhysicalSizes(mmW: Int, mmH: Int) {
        let c = Self.choose(Self.monitor(1920, 1080, mm: (mmW, mmH), name: "XWAYLAND0"))
        #expect(c == .init(scale: 1, reason: "XWAYLAND0 physical size unknown (\(mmW)x\(mmH) mm)"))
    }
}
