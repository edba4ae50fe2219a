import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A small tmpfs of its own, mounted on a fresh folder, to fill to the last byte and free again:
/// for what a program does when its disk is full (the kiosk's operator log). Mounting needs
/// root; tests that use it carry ``SmallDisk/needsRoot``. ``unmount()`` (in a `defer`, which
/// also keeps it alive to the end of the test) unmounts it lazily, so that a program still
/// holding a file there does not keep it; deinit does if that was not called, and removes its
/// folder.
package final class SmallDisk {
    /// The condition of the tests that mount one: for any user but root they are skipped with
    /// this reason, except in CI (`CI` set), where nothing may skip: there they run, and fail
    /// when the mount does.
    package static let needsRoot = ConditionTrait.enabled(
        if: geteuid() == 0 || ProcessInfo.processInfo.environment["CI"] != nil,
        Comment(rawValue: "needs root to mount a tmpfs (a small disk to fill); CI runs as root"))

    /// The mount point.
    package let path: String
    private let directory: TemporaryDirectory
    private var mounted = false
    /// The file that fills the disk (``fill()``), outside what the test looks at.
    private var filler: String { path + "/filler" }

    /// A `size`-byte tmpfs, read-only when asked (a folder that cannot be written, until
    /// ``makeWritable()``).
    package init(size: Int = 64 * 1024, readOnly: Bool = false) throws {
        directory = try TemporaryDirectory(prefix: "gestures-small-disk")
        path = directory.file("disk")
        mkdir(path, 0o755)
        try mountCommand(["-t", "tmpfs", "-o", (readOnly ? "ro," : "") + "size=\(size)", "tmpfs", path])
        mounted = true
    }

    /// A path on the disk.
    package func file(_ name: String) -> String { path + "/" + name }

    /// Fills what is free to the last byte (the filler grows until a write fails); the filler's
    /// size.
    @discardableResult
    package func fill() throws -> Int {
        let fd = open(filler, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        guard fd >= 0 else { throw XTestError("cannot create \(filler): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var block = [UInt8](repeating: 0x41, count: 4096)
        while write(fd, &block, block.count) > 0 {}
        var one: UInt8 = 0x41
        while write(fd, &one, 1) > 0 {}
        return Int(lseek(fd, 0, SEEK_END))
    }

    /// Frees `bytes` of what ``fill()`` took.
    package func free(_ bytes: Int) throws {
        var st = stat()
        guard stat(filler, &st) == 0, truncate(filler, max(0, st.st_size - off_t(bytes))) == 0 else {
            throw XTestError("cannot shorten \(filler): \(String(cString: strerror(errno)))")
        }
    }

    /// Frees all that ``fill()`` took.
    package func freeAll() { unlink(filler) }

    /// Makes a read-only disk writable (`mount -o remount,rw`).
    package func makeWritable() throws { try mountCommand(["-o", "remount,rw", path]) }

    /// Unmounts it (`umount -l`); once.
    package func unmount() {
        guard mounted else { return }
        mounted = false
        try? run("/bin/umount", ["-l", path])
    }

    deinit { unmount() }

    private func mountCommand(_ arguments: [String]) throws { try run("/bin/mount", arguments) }

    /// Runs a program to its end; throws with its stderr when it fails.
    private func run(_ program: String, _ arguments: [String]) throws {
        let err = directory.file("mount.err")
        let p = try ChildProcess(program, arguments, stderr: .file(err))
        guard p.wait(timeout: 10) == 0 else {
            throw XTestError("\(program) \(arguments.joined(separator: " ")): \(readText(err))")
        }
    }
}
