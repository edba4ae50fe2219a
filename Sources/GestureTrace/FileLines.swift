#if canImport(Glibc)
    import Glibc
#endif

/// The lines of a regular file, read 64 KiB at a time: memory stays at one line (at most
/// ``TraceReader/maximumLineBytes``) and one chunk, whatever the file's length. The file gets
/// the checks of ``TraceReader/readFile(_:)`` (regular, at most ``TraceReader/maximumBytes``).
/// A gzipped file (`gzip`) is inflated as it is read (``GzipReader``), its decompressed bytes
/// limited to ``TraceReader/maximumBytes`` too. Used by ``TraceStream`` for JSON Lines traces,
/// evemu recordings and getevent text, plain or gzipped. A plain file that ends before the size
/// it had when it was opened was truncated under the reader: ``next()`` throws rather than hand
/// out what may be part of a line. Lines appended while it is read are read too; a file renamed
/// over the path is not seen (the descriptor keeps the one that was opened).
final class FileLines {
    let path: String
    private let fd: Int32
    private let gzip: GzipReader?
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)
    private var count = 0
    private var position = 0
    private var total = 0
    /// True once the last line was returned: after ``next()``, true when its line did not end
    /// with a newline (or was the empty one after the last newline).
    private(set) var atEnd = false
    /// The 1-based number of the line ``next()`` returned last.
    private(set) var number = 0

    /// The file's size when it was opened (a plain file that ends before it was cut short).
    private let sizeAtOpen: Int

    init(path: String, gzip: Bool = false) throws(TraceError) {
        self.path = path
        let (fd, size) = try TraceReader.openRegularFile(path)
        sizeAtOpen = size
        if gzip {
            self.fd = -1
            self.gzip = try GzipReader(fd: fd, path: path, limit: TraceReader.maximumBytes)
        } else {
            self.fd = fd
            self.gzip = nil
        }
    }

    deinit { if fd >= 0 { close(fd) } }

    /// The decompressed bytes read so far (gzip), for tests that bound what a reader buffers.
    var decompressedBytes: Int { gzip?.produced ?? total }

    /// The next line without its `\n` (a `\r` before it is kept), or nil after the last one.
    /// A file that does not end with a newline has its last line all the same; an empty file has
    /// one empty line, as splitting the text would give.
    func next() throws(TraceError) -> [UInt8]? {
        if atEnd { return nil }
        var line: [UInt8] = []
        while true {
            if position == count {
                if let gzip {
                    count = try gzip.read(into: &chunk)
                } else {
                    count = try TraceReader.readChunk(fd, into: &chunk, path: path)
                }
                position = 0
                total += count
                guard gzip != nil || total <= TraceReader.maximumBytes else {
                    throw TraceError(file: path, line: 0, message: "expected a file of at most 256 MiB")
                }
                if count == 0 {
                    // Truncated while it was read: the line read last may be part of one, and
                    // the events after it are gone. An error, so the frame in progress is
                    // dropped whole (see `replayEvents`).
                    guard gzip != nil || total >= sizeAtOpen else {
                        throw TraceError(
                            file: path, line: number + 1,
                            message:
                                "the file was cut short while it was read (it ends at byte \(total) of \(sizeAtOpen))")
                    }
                    atEnd = true
                    number += 1
                    return line
                }
            }
            let start = position
            while position < count && chunk[position] != 0x0A { position += 1 }
            guard line.count + (position - start) <= TraceReader.maximumLineBytes else {
                throw TraceError(file: path, line: number + 1, message: "expected a line of at most 4 MiB")
            }
            line.append(contentsOf: chunk[start..<position])
            if position < count {
                position += 1  // the newline
                number += 1
                return line
            }
        }
    }
}
