// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Gestures",
    products: [
        .executable(name: "gestures", targets: ["gestures"]),
        .library(name: "GestureKit", targets: ["GestureKit"]),
        .library(name: "GestureTrace", targets: ["GestureTrace"]),
        .library(name: "GestureX11", targets: ["GestureX11"]),
        .library(name: "GesturesDemo", targets: ["GesturesDemo"]),
    ],
    // The `gestures` command needs ArgumentParser; library consumers do not. The CLI trait is on
    // by default; a package that uses only the libraries depends with `traits: []` and never
    // resolves the command's dependencies.
    traits: [.default(enabledTraits: ["CLI"]), .trait(name: "CLI")],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-numerics.git", from: "1.0.0"),
    ],
    targets: [
        // The shell's X: XCB only (one owner of the connection, one event queue).
        .systemLibrary(
            name: "CXCB", path: "Sources/CXCB",
            pkgConfig: "xcb xcb-xinput xcb-shm xcb-randr xcb-present xcb-xinerama xcb-screensaver xcb-render",
            providers: [
                .apt([
                    "libxcb1-dev", "libxcb-xinput-dev", "libxcb-shm0-dev", "libxcb-randr0-dev", "libxcb-present-dev",
                    "libxcb-xinerama0-dev", "libxcb-screensaver0-dev", "libxcb-render0-dev",
                ])
            ]),
        // Xlib, XInput 2, XTest and DAMAGE for the tests' own client connections (never the shell's).
        .systemLibrary(
            name: "CX11", path: "Sources/CX11",
            pkgConfig: "x11 x11-xcb xcb xcb-xinput xcb-screensaver xi xtst xdamage xfixes",
            providers: [
                .apt([
                    "libx11-dev", "libx11-xcb-dev", "libxcb-xinput-dev", "libxi-dev", "libxtst-dev", "libxdamage-dev",
                    "libxfixes-dev",
                ])
            ]),
        .systemLibrary(
            name: "CCairo", path: "Sources/CCairo", pkgConfig: "cairo cairo-ft freetype2",
            providers: [.apt(["libcairo2-dev", "libfreetype-dev"])]),
        .systemLibrary(
            name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]),
        // JPEG pictures (`--image`): libjpeg-turbo's TurboJPEG, one small library (gdk-pixbuf would
        // bring GLib, GObject and its loader modules to a start that has none of them).
        .systemLibrary(
            name: "CTurboJPEG", path: "Sources/CTurboJPEG", pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"])]),
        .target(
            name: "GestureKit",
            dependencies: [.product(name: "RealModule", package: "swift-numerics")]),
        .target(name: "GestureTrace", dependencies: ["GestureKit", "CZlib"]),
        // What a shell needs that is not X: the scene protocol, input translation, touch frames,
        // timing, replay. Pure Swift (GesturesDemo builds on it without the X libraries).
        .target(name: "GestureShellCore", dependencies: ["GestureKit"]),
        // PNG and JPEG into Cairo surfaces: the demo's picture and the library's image views.
        .target(name: "GestureImage", dependencies: ["CCairo", "CTurboJPEG"]),
        .target(
            name: "GestureX11", dependencies: ["GestureKit", "GestureShellCore", "GestureImage", "CXCB", "CCairo"]),
        // The inner loop of the moving, enlarged picture (NearestPainter), with an AVX2 path chosen
        // at run time.
        .target(name: "CPixelSpan"),
        .target(
            name: "GesturesDemo",
            dependencies: ["GestureKit", "GestureTrace", "GestureShellCore", "GestureImage", "CCairo", "CPixelSpan"]),
        .executableTarget(
            name: "gestures",
            dependencies: [
                "GesturesDemo", "GestureTrace", "GestureKit", "GestureX11",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["CLI"])),
            ]),
        // What every test suite shares and no product ships: touch builders, the repository's
        // fixtures, child processes and the X servers (Xvfb, Xorg + inputtest, sway + Xwayland)
        // the tests start themselves, and a test client's X connection (docs/testing.md).
        .target(
            name: "GestureTestSupport", dependencies: ["GestureKit", "GestureTrace", "CX11"], path: "Tests/Support"),
        .testTarget(
            name: "GestureKitTests",
            dependencies: [
                "GestureKit", "GestureTestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]),
        .testTarget(name: "GestureTraceTests", dependencies: ["GestureTrace", "GestureKit", "GestureTestSupport"]),
        .testTarget(name: "GestureImageTests", dependencies: ["GestureImage", "CCairo"]),
        .testTarget(
            name: "GesturesDemoTests",
            dependencies: [
                "GesturesDemo", "GestureTrace", "GestureKit", "GestureX11", "CCairo", "CPixelSpan",
                "GestureTestSupport",
            ]),
        .testTarget(
            name: "GestureX11Tests",
            dependencies: ["GestureX11", "GesturesDemo", "GestureKit", "CX11", "CXCB", "GestureTestSupport"]),
        // A library app the X tests run as a child (the main actor under the window, idle CPU,
        // errors of a window without a display).
        .executableTarget(name: "gestures-app-probe", dependencies: ["GestureX11"], path: "Tests/AppProbe"),
    ],
    swiftLanguageModes: [.v6]
)

// Benchmarks (ordo-one/package-benchmark), built only on request so that the test build stays
// lean: `GESTURES_BENCHMARKS=1 swift package benchmark` (see docs/performance.md).
if Context.environment["GESTURES_BENCHMARKS"] != nil {
    package.dependencies.append(
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.0", traits: ["MallocInterposer"]))
    package.targets.append(
        .executableTarget(
            name: "GestureBenchmarks",
            dependencies: [
                "GestureKit", "GestureTrace", "GesturesDemo", "CCairo", "BenchmarkScenes",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/GestureBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]))
    package.targets.append(
        .target(name: "BenchmarkScenes", dependencies: ["GestureKit", "GesturesDemo"], path: "Benchmarks/Scenes"))
    // The recognizer core's instructions per frame under callgrind (scripts/bench-instructions).
    package.targets.append(
        .executableTarget(name: "GestureFrameProbe", dependencies: ["BenchmarkScenes"], path: "Benchmarks/FrameProbe"))
}

// Documentation (swift-docc-plugin), on request so that library consumers never resolve it:
// `GESTURES_DOCS=1 swift package generate-documentation --target GestureKit` (scripts/docs).
if Context.environment["GESTURES_DOCS"] != nil {
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"))
}
