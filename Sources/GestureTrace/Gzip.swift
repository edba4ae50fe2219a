import CZlib

#if canImport(Glibc)
    import Glibc
#endif

/// Gzip decompression with zlib (`inflateInit2` with `16 + MAX_WBITS`: gzip framing only).
/// Concatenated gzip members are decompressed one after the other, as `gunzip` does.
enum Gzip {
    /// True when the data starts with the gzip magic bytes 1f 8b.
    static func isGzip(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b
    }

    /// The decompressed bytes, or a message saying what is wrong with the data. Output beyond
    /// `limit` bytes is refused (a gzip bomb), so memory stays bounded.
    static func decompress(_ input: [UInt8], limit: Int = Int.max) -> Result<[UInt8], GzipError> {
        if input.isEmpty { return .failure(GzipError(message: "empty gzip file")) }
        var output: [UInt8] = []
        // The gzip trailer ends with the member's size (mod 2^32): one allocation of the right
        // size instead of doublings that hold the old and the new buffer at once (a 57 MB trace
        // peaked at 131 MB). Never beyond `limit`, nor beyond deflate's best ratio (1032:1) of
        // the input: a false size costs at most that, in address space.
        let stated =
            input.count >= 18 ? input.suffix(4).reversed().reduce(0) { $0 << 8 | Int($1) } : 0
        output.reserveCapacity(min(limit, max(min(stated, input.count * 1032), input.count * 4)))
        var stream = z_stream()
        // inflateInit2() is a C macro: call the function behind it.
        var rc = inflateInit2_(&stream, 16 + MAX_WBITS, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard rc == Z_OK else { return .failure(GzipError(message: "zlib initialisation failed (\(rc))")) }
        defer { inflateEnd(&stream) }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var failure: GzipError?
        input.withUnsafeBufferPointer { inBuf in
            let base = UnsafeMutablePointer(mutating: inBuf.baseAddress!)
            stream.next_in = base
            stream.avail_in = UInt32(inBuf.count)
            while true {
                rc = chunk.withUnsafeMutableBufferPointer { out in
                    stream.next_out = out.baseAddress
                    stream.avail_out = UInt32(out.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                if output.count + produced > limit {
                    failure = GzipError(message: "expected gzip data of at most \(limit >> 20) MiB decompressed")
                    break
                }
                output.append(contentsOf: chunk[0..<produced])
                if rc == Z_STREAM_END {
                    // Another gzip member may follow.
                    if stream.avail_in == 0 { break }
                    if inflateReset(&stream) != Z_OK {
                        failure = GzipError(message: "zlib reset failed")
                        break
                    }
                    continue
                }
                if rc == Z_OK { continue }
                if rc == Z_BUF_ERROR && stream.avail_in == 0 {
                    failure = GzipError(message: "truncated gzip data")
                    break
                }
                let detail = stream.msg.map { String(cString: $0) } ?? "error \(rc)"
                failure = GzipError(message: "invalid gzip data (\(detail))")
                break
            }
        }
        if let failure { return .failure(failure) }
        return .success(output)
    }
}

struct GzipError: Error {
    var message: String
}

/// A gzip file decompressed as it is read: a chunk of compressed bytes at a time from the file,
/// inflated into the caller's buffer, so that memory stays at two 64 KiB buffers and zlib's
/// window whatever the file's size (``FileLines`` reads gzipped traces and recordings through
/// it). The same framing, limit and messages as ``Gzip/decompress(_:limit:)``: concatenated
/// members one after the other, "empty gzip file", "truncated gzip data", "invalid gzip data
/// (…)", and output beyond `limit` refused.
final class GzipReader {
    let path: String
    private let fd: Int32
    private let limit: Int
    /// zlib keeps a pointer back to its stream: it lives at a fixed address.
    private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    private static let inputSize = 1 << 16
    private let input = UnsafeMutablePointer<UInt8>.allocate(capacity: GzipReader.inputSize)
    private var initialized = false
    private var endOfFile = false
    private var sawInput = false
    /// A member ended and no byte of another has been inflated yet.
    private var betweenMembers = false
    private var finished = false
    /// Decompressed bytes produced so far.
    private(set) var produced = 0

    /// Takes over `fd` (closed when the reader goes).
    init(fd: Int32, path: String, limit: Int) throws(TraceError) {
        self.fd = fd
        self.path = path
        self.limit = limit
        stream.initialize(to: z_stream())
        // inflateInit2() is a C macro: call the function behind it.
        let rc = inflateInit2_(stream, 16 + MAX_WBITS, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard rc == Z_OK else { throw fail("zlib initialisation failed (\(rc))") }
        initialized = true
    }

    deinit {
        if initialized { inflateEnd(stream) }
        stream.deinitialize(count: 1)
        stream.deallocate()
        input.deallocate()
        close(fd)
    }

    private func fail(_ message: String) -> TraceError {
        TraceError(file: path, line: 0, message: message)
    }

    /// Inflates into `chunk`: the number of bytes written, 0 at the end of the data.
    func read(into chunk: inout [UInt8]) throws(TraceError) -> Int {
        while !finished {
            if stream.pointee.avail_in == 0 && !endOfFile {
                var n = 0
                while true {
                    n = Glibc.read(fd, input, GzipReader.inputSize)
                    if n >= 0 || errno != EINTR { break }
                }
                if n < 0 { throw fail("cannot read the file") }
                if n == 0 {
                    endOfFile = true
                } else {
                    sawInput = true
                    stream.pointee.next_in = input
                    stream.pointee.avail_in = UInt32(n)
                }
            }
            if stream.pointee.avail_in == 0 && endOfFile {
                if !sawInput { throw fail("empty gzip file") }
                if betweenMembers {
                    finished = true
                    return 0
                }
                throw fail("truncated gzip data")
            }
            if betweenMembers {
                // Another gzip member follows.
                guard inflateReset(stream) == Z_OK else { throw fail("zlib reset failed") }
                betweenMembers = false
            }
            let (rc, n) = chunk.withUnsafeMutableBufferPointer { out -> (Int32, Int) in
                stream.pointee.next_out = out.baseAddress
                stream.pointee.avail_out = UInt32(out.count)
                let rc = inflate(stream, Z_NO_FLUSH)
                return (rc, out.count - Int(stream.pointee.avail_out))
            }
            guard produced + n <= limit else {
                throw fail("expected gzip data of at most \(limit >> 20) MiB decompressed")
            }
            produced += n
            switch rc {
            case Z_STREAM_END: betweenMembers = true
            case Z_OK: break
            case Z_BUF_ERROR where stream.pointee.avail_in == 0: break  // needs more input
            default:
                let detail = stream.pointee.msg.map { String(cString: $0) } ?? "error \(rc)"
                throw fail("invalid gzip data (\(detail))")
            }
            if n > 0 { return n }
        }
        return 0
    }
}
