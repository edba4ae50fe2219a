// swift-tools-version: 6.1
import PackageDescription

// The "Gestures" app of Sams Teach Yourself iOS Development, Hour 17, written as a UIKit
// developer would: a main-actor view controller, four views with one recognizer each, a label
// that says what was found, and the flower that pinches, rotates and goes back on a shake.
// It also loads a text file off the main actor and prints to standard error in Swift 6 mode.
let package = Package(
    name: "Tutorial",
    dependencies: [.package(name: "Gestures", path: "../..", traits: [])],
    targets: [
        .executableTarget(name: "Tutorial", dependencies: [.product(name: "GestureX11", package: "Gestures")])
    ],
    swiftLanguageModes: [.v6]
)
