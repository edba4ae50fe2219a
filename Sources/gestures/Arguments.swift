#if canImport(Glibc)
    import Glibc
#endif

/// The process's arguments, `argv[0]` first.
///
/// `CommandLine.arguments` is not enough on Linux: the Swift runtime finds `argv` by walking the
/// initial stack back from `environ`, and finds the stack's bounds in `/proc/self/maps`. Where
/// `/proc` is not mounted (a fresh chroot, a minimal container) it finds nothing and the
/// arguments are empty, so `gestures --version` would parse as `gestures` alone and open the
/// window. glibc hands every `.init_array` function `argc`, `argv` and `envp` before `main`
/// (``captureArguments``), with no file to read; those are used when present, and
/// `CommandLine.arguments` otherwise (another C library, or a loader that passes nothing).
enum Arguments {
    /// `argc` and `argv` as the loader gave them (`argv` lives on the initial stack for the whole
    /// process). Written once, before `main`, by ``captureArguments``; read-only after.
    nonisolated(unsafe) static var count: Int32 = 0
    nonisolated(unsafe) static var vector: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = nil

    /// The arguments: the captured `argv` when there is one, else `CommandLine.arguments`.
    static var all: [String] {
        guard count > 0, let vector else { return CommandLine.arguments }
        return (0..<Int(count)).map { vector[$0].map { String(cString: $0) } ?? "" }
    }
}

/// Called by the C library before `main` with the process's `argc`, `argv` and `envp` (glibc
/// passes them to every `.init_array` function; the Swift runtime does not read `/proc` here).
@section(".init_array") @used
let captureArguments:
    @convention(c) (
        Int32, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
    ) -> Void = { argc, argv, _ in
        Arguments.count = argc
        Arguments.vector = argv
    }
