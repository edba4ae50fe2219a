import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A regular file's bytes mapped read-only: the page cache itself, with no copy and no
/// anonymous memory. Reading a 6.6 MB JPEG into memory cost 6–8 ms on a quiet 2-core VM (25–40
/// ms loaded: every page of the copy is a fresh anonymous page to fault in), mapping it 0.5 ms
/// with every page touched; the decoder then reads the file where the kernel holds it.
///
/// A mapped file can change under the reader. Two guards keep that from crashing or from showing
/// another picture:
/// - **Cut short while mapped** (another program truncates it): reading a page past the new end
///   raises SIGBUS. A handler, installed with the first mapping, puts a zero page where the read
///   faulted and marks the mapping ``changed``; the read goes on (the decoder sees zeros, as
///   after a damaged stream) and the caller drops what it made from it. A SIGBUS at any other
///   address gets the action that was installed before (the default: the process ends).
/// - **Rewritten in place** (same path, new bytes): ``changed`` also compares the file's size,
///   inode and modification time with those at mapping, so a later read (a larger decode after a
///   pinch) is refused rather than made from the new bytes with the old header.
public final class MappedFile: @unchecked Sendable {
    /// The first byte (nil for an empty file: nothing is mapped).
    public let base: UnsafePointer<UInt8>?
    public let count: Int
    private let fd: Int32
    private let identity: [Int]
    /// The handler's slot of this mapping (-1: none free; then SIGBUS is not caught for it).
    private let slot: Int

    /// Maps the open regular file `fd` of `size` bytes, taking over the descriptor (closed when
    /// the mapping goes). Nil, with `fd` closed, when it cannot be mapped.
    public init?(fd: Int32, size: Int) {
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            close(fd)
            return nil
        }
        self.fd = fd
        count = size
        identity = Self.identity(info)
        guard size > 0 else {
            base = nil
            slot = -1
            return
        }
        BusGuard.install()
        guard let p = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), p != MAP_FAILED else {
            close(fd)
            return nil
        }
        // The decoder reads it once from start to end.
        _ = madvise(p, size, MADV_SEQUENTIAL)
        base = UnsafePointer(p.assumingMemoryBound(to: UInt8.self))
        slot = BusGuard.register(start: UInt(bitPattern: p), end: UInt(bitPattern: p) + UInt(size))
    }

    deinit {
        BusGuard.unregister(slot)
        if let base { munmap(UnsafeMutableRawPointer(mutating: base), count) }
        close(fd)
    }

    /// The bytes, for the duration of `body`.
    public func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    /// True once a read found the file cut short, or when its size, inode or modification time
    /// is no longer the one it had when it was mapped.
    public var changed: Bool {
        if BusGuard.faulted(slot) { return true }
        var info = stat()
        return fstat(fd, &info) != 0 || Self.identity(info) != identity
    }

    private static func identity(_ s: stat) -> [Int] {
        [Int(s.st_dev), Int(s.st_ino), Int(s.st_size), s.st_mtim.tv_sec, s.st_mtim.tv_nsec]
    }
}

/// The SIGBUS handler of ``MappedFile`` and its table of mappings: `slots` (start, end, faulted)
/// triples of atomics, read by the handler without a lock.
private enum BusGuard {
    static let slots = 16
    /// Atomics: shared between threads and the handler by design.
    nonisolated(unsafe) static let table: UnsafeMutablePointer<Atomic<UInt>> = {
        let p = UnsafeMutablePointer<Atomic<UInt>>.allocate(capacity: slots * 3)
        for i in 0..<slots * 3 { (p + i).initialize(to: Atomic(0)) }
        return p
    }()
    static let pageSize = UInt(sysconf(Int32(_SC_PAGESIZE)))
    /// Taking and freeing slots (the handler only reads).
    static let lock = Mutex(())
    /// The action before ours, for a SIGBUS that is not a mapped file's.
    nonisolated(unsafe) static var previous = sigaction()
    static let installed = Atomic<Bool>(false)

    static func install() {
        _ = table
        _ = pageSize
        lock.withLock { _ in
            guard !installed.load(ordering: .relaxed) else { return }
            var action = sigaction()
            action.__sigaction_handler.sa_sigaction = handler
            action.sa_flags = SA_SIGINFO | SA_RESTART
            sigemptyset(&action.sa_mask)
            sigaction(SIGBUS, &action, &previous)
            installed.store(true, ordering: .releasing)
        }
    }

    static func register(start: UInt, end: UInt) -> Int {
        lock.withLock { _ in
            for i in 0..<slots where table[3 * i].load(ordering: .relaxed) == 0 {
                table[3 * i + 2].store(0, ordering: .relaxed)
                table[3 * i + 1].store(end, ordering: .relaxed)
                table[3 * i].store(start, ordering: .releasing)
                return i
            }
            return -1
        }
    }

    static func unregister(_ slot: Int) {
        guard slot >= 0 else { return }
        lock.withLock { _ in table[3 * slot].store(0, ordering: .releasing) }
    }

    static func faulted(_ slot: Int) -> Bool {
        slot >= 0 && table[3 * slot + 2].load(ordering: .acquiring) != 0
    }

    /// In the faulting thread: a zero page over the page of a mapped file that is no longer
    /// there (the read is then retried and finds zeros), else the earlier action.
    static let handler: @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void =
        { signal, info, context in
            let address = UInt(bitPattern: info?.pointee._sifields._sigfault.si_addr)
            for i in 0..<slots {
                let start = table[3 * i].load(ordering: .acquiring)
                guard start != 0, address >= start, address < table[3 * i + 1].load(ordering: .relaxed) else {
                    continue
                }
                let page = address & ~(pageSize - 1)
                let zero = mmap(
                    UnsafeMutableRawPointer(bitPattern: page), Int(pageSize), PROT_READ,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0)
                if zero != MAP_FAILED {
                    table[3 * i + 2].store(1, ordering: .releasing)
                    return
                }
            }
            // Not a mapped file's page: what was there before (the default ends the process when
            // the read faults again).
            sigaction(SIGBUS, &previous, nil)
        }
}
