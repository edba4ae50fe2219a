// swift-tools-version: 6.1
import PackageDescription

// A photo viewer: a ScrollView that scrolls, flings, pinches and double-taps a picture, written
// as a UIKit developer would (a view controller that is the scroll view's delegate).
// `traits: []`: the libraries only, without the `gestures` command's dependencies.
let package = Package(
    name: "PhotoViewer",
    dependencies: [.package(name: "Gestures", path: "../..", traits: [])],
    targets: [
        .executableTarget(name: "PhotoViewer", dependencies: [.product(name: "GestureX11", package: "Gestures")])
    ],
    swiftLanguageModes: [.v6]
)
