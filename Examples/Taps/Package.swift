// swift-tools-version: 6.1
import PackageDescription

// Tap, double tap and long press on one view; the single tap waits for the double tap to fail
// (`require(toFail:)`), as in UIKit.
let package = Package(
    name: "Taps",
    dependencies: [.package(name: "Gestures", path: "../..", traits: [])],
    targets: [
        .executableTarget(name: "Taps", dependencies: [.product(name: "GestureX11", package: "Gestures")])
    ],
    swiftLanguageModes: [.v6]
)
