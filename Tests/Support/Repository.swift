import Foundation
import GestureKit
import GestureTrace

/// The repository's root directory (this file is `Tests/Support/Repository.swift`).
package let repositoryRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.path
}()

/// The repository's `Tests/Fixtures` directory: pictures, the screen saver stand-in, touch data.
package let fixturesDirectory = repositoryRoot + "/Tests/Fixtures"

/// The real recordings in `Tests/Fixtures/touchdata` (provenance and licences in its SOURCES.md).
package enum TouchData {
    package static let root: String = URL(fileURLWithPath: fixturesDirectory + "/touchdata")
        .resolvingSymlinksInPath().path

    package static func path(_ relative: String) -> String { root + "/" + relative }

    package static func read(_ relative: String, size: Size = Size(width: 1000, height: 1000)) throws -> Trace {
        try TraceReader.read(path: path(relative), size: size, device: nil)
    }
}
