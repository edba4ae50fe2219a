/// How many pixels the app draws per point (its HiDPI scale), and why. UIKit:
/// `UIScreen.scale`, which the system sets; an X server has no such setting, so it is
/// derived, first match wins:
///
/// 1. `--scale S` (`option`).
/// 2. The `Xft.dpi` X resource ÷ 96, as GTK and Qt read it (desktops set it to their text scale).
/// 3. The environment conventions of GTK and Qt: `GDK_SCALE` (a whole number ≥ 1), then
///    `QT_SCALE_FACTOR` (a positive number), each clamped to 0.5…8.
/// 4. The monitor's physical size and resolution from RandR: its pixels per inch ÷ 96, rounded
///    to the nearest of 1, 1.25, 1.5, 1.75, 2, 2.5, 3, 4 (a 27-inch 4K monitor, 163 dpi → 1.75;
///    a 13-inch 2560×1600 laptop, 227 dpi → 2.5; 96 dpi → 1). A physical size is not trusted
///    when it is 0 (Xwayland, Xvfb outputs without EDID), when it is one of the aspect-ratio
///    "sizes" EDID-less outputs report (16×9, 16×10, 4×3 or 5×4 cm, read as 160×90 mm …), or
///    when it gives fewer than 72 or more than 500 pixels per inch or a horizontal and
///    vertical density more than 20 % apart.
/// 5. Otherwise 1.
///
/// Under Xwayland the X screen is usually in the compositor's *logical* pixels (sway, cage,
/// Weston, mutter without xwayland-native-scaling): on a scale-2 output Xwayland reports
/// 960×540 for 1920×1080 and 0 mm, and the compositor upscales every X window. Drawing at 2
/// there would make the window twice too big, so rules 4–5 give 1 (the picture is then as sharp
/// as Xwayland lets any X client be); where the compositor lets X clients scale themselves
/// (KWin's "apply scaling themselves") the X screen is in physical pixels and rule 2 or 4
/// applies.
public struct ScaleChoice: Equatable, Sendable {
    /// Pixels per point.
    public var scale: Double
    /// Why, one phrase: `--scale`, `Xft.dpi 192`, `GDK_SCALE=2`, `QT_SCALE_FACTOR=1.5`,
    /// `XWAYLAND0 163 dpi (597x336 mm)`, `XWAYLAND0 physical size unknown (0x0 mm)`, `default`.
    public var reason: String

    public init(scale: Double, reason: String) {
        self.scale = scale
        self.reason = reason
    }

    /// The steps rule 4 rounds to.
    public static let steps: [Double] = [1, 1.25, 1.5, 1.75, 2, 2.5, 3, 4]

    /// Physical sizes (mm) that are aspect ratios, not sizes.
    static let aspectSizes: Set<[Int]> = [
        [16, 9], [16, 10], [4, 3], [5, 4], [160, 90], [160, 100], [40, 30], [50, 40],
    ]

    /// Applies the rule. `xftDPI` is the `Xft.dpi` resource's value if any; `monitor` the
    /// monitor the window goes on (its pixels and millimetres), asked for only when rules 1–3 do not
    /// decide.
    public static func choose(
        option: Double?, xftDPI: Double?, environment: [String: String], monitor: () -> Monitor?
    ) -> ScaleChoice {
        if let option, option.isFinite, option > 0 { return ScaleChoice(scale: option, reason: "--scale") }
        if let dpi = xftDPI, dpi.isFinite, dpi > 0 {
            return ScaleChoice(scale: clamp(dpi / 96), reason: "Xft.dpi \(format(dpi))")
        }
        if let text = environment["GDK_SCALE"], let s = Int(text), s >= 1 {
            return ScaleChoice(scale: clamp(Double(s)), reason: "GDK_SCALE=\(text)")
        }
        if let text = environment["QT_SCALE_FACTOR"], let s = Double(text), s.isFinite, s > 0 {
            return ScaleChoice(scale: clamp(s), reason: "QT_SCALE_FACTOR=\(text)")
        }
        guard let m = monitor() else { return ScaleChoice(scale: 1, reason: "default") }
        let size = "\(m.widthMM)x\(m.heightMM) mm"
        guard let dpi = physicalDPI(m) else {
            return ScaleChoice(scale: 1, reason: "\(m.name) physical size unknown (\(size))")
        }
        let ratio = dpi / 96
        let step = steps.min { abs($0 - ratio) < abs($1 - ratio) } ?? 1
        return ScaleChoice(scale: step, reason: "\(m.name) \(Int(dpi.rounded())) dpi (\(size))")
    }

    /// The monitor's pixels per inch when its physical size is believable, else nil.
    public static func physicalDPI(_ m: Monitor) -> Double? {
        guard m.widthMM > 0, m.heightMM > 0, m.width > 0, m.height > 0,
            !aspectSizes.contains([m.widthMM, m.heightMM])
        else { return nil }
        let horizontal = Double(m.width) * 25.4 / Double(m.widthMM)
        let vertical = Double(m.height) * 25.4 / Double(m.heightMM)
        guard (72...500).contains(horizontal), (72...500).contains(vertical),
            abs(horizontal - vertical) <= 0.2 * max(horizontal, vertical)
        else { return nil }
        return (horizontal + vertical) / 2
    }

    static func clamp(_ s: Double) -> Double { min(max(s, 0.5), 8) }

    public static func format(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
    }
}
