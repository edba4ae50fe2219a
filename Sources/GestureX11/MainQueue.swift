import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

// libdispatch's hooks for a run loop that owns the main thread (CoreFoundation's `CFRunLoop`
// uses the same two): the main queue's wake-up descriptor (an eventfd on Linux, written
// whenever work is enqueued on the main queue) and the call that runs what is queued.
@_silgen_name("_dispatch_get_main_queue_port_4CF")
private func dispatchMainQueuePort() -> Int32
@_silgen_name("_dispatch_main_queue_callback_4CF")
private func dispatchMainQueueCallback(_ message: UnsafeMutableRawPointer?)

/// The main dispatch queue, run by the shell's loop while it owns the main thread: the main
/// actor's jobs (`Task { @MainActor in … }`, `await MainActor.run { … }`, a main-actor
/// `Task.sleep` resuming), `DispatchQueue.main.async`/`asyncAfter` and `DispatchSource`s
/// targeting the main queue. On Linux Swift's main-actor executor enqueues onto the main
/// dispatch queue, so running that queue runs the main actor (UIKit: the main run loop).
///
/// Only a loop on the process's main thread may run the queue, and only while the queue is
/// bound to that thread: a program whose `main` is `async` has given the main queue to
/// dispatch's worker threads (`dispatch_main`), and the window's loop then runs as one job of
/// that queue: ``fileDescriptor`` is -1 and nothing else on the main actor runs until `run`
/// returns. Apps start the window from synchronous code (top-level `main.swift`, or a
/// synchronous `static func main()`).
@MainActor
struct MainQueue {
    /// The eventfd to poll for readability, or -1 (see the type's discussion).
    let fileDescriptor: Int32

    init() {
        // The main thread's tid is the pid. `dispatch_main()` (an `async` main) parks the main
        // thread for good, so code running on it proves the main queue is still bound to it.
        guard Self.threadID() == getpid() else {
            fileDescriptor = -1
            return
        }
        let fd = dispatchMainQueuePort()
        if fd >= 0 { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        fileDescriptor = fd
    }

    /// The calling thread's kernel id: `/proc/thread-self` links to `PID/task/TID` (the Glibc
    /// module exports neither `gettid` nor the variadic `syscall`).
    private static func threadID() -> Int32 {
        var buffer = [CChar](repeating: 0, count: 64)
        let n = readlink("/proc/thread-self", &buffer, buffer.count - 1)
        guard n > 0 else { return -1 }
        let link = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return link.split(separator: "/").last.flatMap { Int32($0) } ?? -1
    }

    /// Takes the wake-up (the eventfd's counter) and runs every job queued on the main queue.
    /// Jobs that enqueue more write the eventfd again: the next poll returns at once.
    func drain() {
        guard fileDescriptor >= 0 else { return }
        var count: UInt64 = 0
        _ = read(fileDescriptor, &count, 8)
        dispatchMainQueueCallback(nil)
    }
}
