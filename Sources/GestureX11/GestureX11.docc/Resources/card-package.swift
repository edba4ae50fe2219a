// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Card",
    dependencies: [.package(name: "Gestures", path: "../..", traits: [])],
    targets: [
        .executableTarget(name: "Card", dependencies: [.product(name: "GestureX11", package: "Gestures")])
    ],
    swiftLanguageModes: [.v6]
)
