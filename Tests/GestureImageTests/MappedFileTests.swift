import CCairo
import Foundation
import GestureImage
import Testing

/// A JPEG decoded from its file mapped into memory (`MappedFile`): read where the page cache
/// holds it, and never crashing nor showing other bytes when the file changes under it.
struct MappedFileTests {
    /// A fresh copy of `bytes` in a file of its own, open for reading, and its path.
    static func file(_ bytes: [UInt8]) throws -> (fd: Int32, path: String) {
        let path = NSTemporaryDirectory() + "mapped-\(getpid())-\(UUID().uuidString).jpg"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        try #require(fd >= 0)
        return (fd, path)
    }

    /// The pixels of a decode, row by row (0x00RRGGBB).
    static func pixels(_ s: OpaquePointer) -> [UInt32] {
        let (w, h) = (Int(cairo_image_surface_get_width(s)), Int(cairo_image_surface_get_height(s)))
        let stride = Int(cairo_image_surface_get_stride(s))
        let data = cairo_image_surface_get_data(s)!
        return (0..<h).flatMap { y in
            (0..<w).map { x in UnsafeRawPointer(data + y * stride + x * 4).load(as: UInt32.self) & 0xFF_FFFF }
        }
    }

    /// /proc/self/maps, read to its end (it reports no size).
    static func procMaps() -> String {
        guard let f = fopen("/proc/self/maps", "r") else { return "" }
        defer { fclose(f) }
        var text = ""
        var buffer = [CChar](repeating: 0, count: 4096)
        while fgets(&buffer, Int32(buffer.count), f) != nil {
            let line = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            text += String(decoding: line, as: UTF8.self)
        }
        return text
    }

    /// The bytes are the file's own pages (a mapping of it in /proc/self/maps while the picture
    /// lives), and they decode to what the same bytes in memory decode to.
    @Test func theFileIsMappedNotCopied() throws {
        let bytes = try JPEGPictureTests.bytes("red-blue.jpg")
        let (fd, path) = try Self.file(bytes)
        defer { unlink(path) }
        let mapped = try #require(MappedFile(fd: fd, size: bytes.count))
        let picture = try JPEGPicture(mapped: mapped, path: path)
        let maps = Self.procMaps()
        let name = URL(fileURLWithPath: path).lastPathComponent
        #expect(maps.contains(name), "no mapping of \(path)")
        let a = try picture.decode(denominator: 1, path: path)
        defer { cairo_surface_destroy(a) }
        let b = try JPEGPicture(bytes: bytes, path: path).decode(denominator: 1, path: path)
        defer { cairo_surface_destroy(b) }
        #expect(Self.pixels(a) == Self.pixels(b))
    }

    /// A file cut short while mapped: reading the pages past its new end finds zeros instead of
    /// ending the process with SIGBUS, the mapping says it changed, and a decode is refused
    /// with one line.
    @Test func aFileCutShortUnderTheMappingIsRefusedNotACrash() throws {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        var bytes = try JPEGPictureTests.bytes("red-blue.jpg")
        bytes += [UInt8](repeating: 0xAB, count: 3 * page)  // after EOI: ignored by decoders
        let (fd, path) = try Self.file(bytes)
        defer { unlink(path) }
        let mapped = try #require(MappedFile(fd: fd, size: bytes.count))
        let picture = try JPEGPicture(mapped: mapped, path: path)
        #expect(!mapped.changed)
        #expect(truncate(path, off_t(page)) == 0)
        let far = mapped.withBytes { $0[3 * page] }  // past the new end: SIGBUS without the guard
        #expect(far == 0)
        #expect(mapped.changed)
        #expect(throws: ImageDecodingError.self) { try picture.decode(denominator: 1, path: path) }
        do {
            _ = try picture.decode(denominator: 1, path: path)
        } catch {
            #expect(error.description.contains("the file changed while it was read"), "\(error)")
        }
    }

    /// The same path rewritten in place with other bytes of the same length (another picture,
    /// say): a later decode (a larger one after a pinch) is refused rather than made from the
    /// new bytes under the old header.
    @Test func aFileRewrittenInPlaceIsRefused() throws {
        let bytes = try JPEGPictureTests.bytes("red-blue.jpg")
        let (fd, path) = try Self.file(bytes)
        defer { unlink(path) }
        let mapped = try #require(MappedFile(fd: fd, size: bytes.count))
        let picture = try JPEGPicture(mapped: mapped, path: path)
        let first = try picture.decode(denominator: 1, path: path)
        cairo_surface_destroy(first)
        let out = open(path, O_WRONLY)
        try #require(out >= 0)
        let other = [UInt8](repeating: 0x55, count: bytes.count)
        #expect(write(out, other, other.count) == other.count)
        // A modification time that surely differs from the first (coarse clocks).
        var times = [timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0)]
        #expect(futimens(out, &times) == 0)
        close(out)
        #expect(mapped.changed)
        #expect(throws: ImageDecodingError.self) { try picture.decode(denominator: 2, path: path) }
    }
}
