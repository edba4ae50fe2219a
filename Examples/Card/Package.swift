// swift-tools-version: 6.1
import PackageDescription

// A card you can pan, pinch and rotate at once, with a touchscreen, a touchpad, or a mouse
// (hold Ctrl at the press for a second finger mirrored through the card's centre).
// `traits: []`: the libraries only, without the `gestures` command's dependencies.
let package = Package(
    name: "Card",
    dependencies: [.package(name: "Gestures", path: "../..", traits: [])],
    targets: [
        .executableTarget(name: "Card", dependencies: [.product(name: "GestureX11", package: "Gestures")])
    ],
    swiftLanguageModes: [.v6]
)
