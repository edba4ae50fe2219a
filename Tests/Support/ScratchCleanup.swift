import Foundation

/// Paths that outlive a single test (a folder shared by a suite, a picture made once per run)
/// and are removed when the test process exits, so that runs leave nothing behind in /tmp.
private nonisolated(unsafe) var pathsRemovedAtExit: [String] = []
private let pathsRemovedAtExitLock = NSLock()

/// Removes `path` (a file or a folder) when the test process exits normally.
package func removeAtExit(_ path: String) {
    pathsRemovedAtExitLock.lock()
    defer { pathsRemovedAtExitLock.unlock() }
    if pathsRemovedAtExit.isEmpty {
        atexit {
            pathsRemovedAtExitLock.lock()
            let paths = pathsRemovedAtExit
            pathsRemovedAtExitLock.unlock()
            for path in paths { try? FileManager.default.removeItem(atPath: path) }
        }
    }
    if !pathsRemovedAtExit.contains(path) { pathsRemovedAtExit.append(path) }
}
