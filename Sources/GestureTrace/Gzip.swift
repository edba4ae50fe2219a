import CZlib

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
