import CCairo

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The demo's typefaces, DejaVu Sans and DejaVu Sans Bold, as cairo font faces (UIKit: the
/// system font of the tutorial's labels).
///
/// They are opened from their files with FreeType (read, not mapped: see `open`) where Debian/Ubuntu, Fedora, Arch and
/// openSUSE install them: cairo's toy font API (`cairo_select_font_face`) first initialises
/// fontconfig and matches a pattern — ~9 ms before the first label could be drawn, a quarter of
/// the 40 ms startup budget, where opening the two files takes < 1 ms. The faces are loaded as
/// fontconfig's stock configuration renders DejaVu (slight hinting, see ``select(_:on:)``):
/// the text is pixel for pixel what it was through fontconfig. Without those files (another distribution, a
/// font package missing) the toy face "DejaVu Sans" is used: fontconfig picks the font then.
///
/// The faces live as long as the process (the FreeType library and faces are never freed).
public enum DemoFonts {
    /// DejaVu Sans: the feedback label and the playground's names.
    public static var regular: OpaquePointer { faces.regular }
    /// DejaVu Sans Bold: the region titles.
    public static var bold: OpaquePointer { faces.bold }

    /// Makes `face` (``regular`` or ``bold``) the font of `cr`, with fontconfig's stock rendering
    /// options for DejaVu: slight hinting (cairo takes the hint style from the font options, not
    /// from the face's load flags).
    public static func select(_ face: OpaquePointer, on cr: OpaquePointer) {
        cairo_set_font_face(cr, face)
        if !faces.directory.isEmpty { cairo_set_font_options(cr, faces.options) }
    }

    /// Where the fonts were found ("" when the toy faces are in use).
    public static var directory: String { faces.directory }

    /// Folders holding DejaVuSans.ttf and DejaVuSans-Bold.ttf, most common first.
    public static let searchPath = [
        "/usr/share/fonts/truetype/dejavu",  // Debian, Ubuntu (fonts-dejavu-core)
        "/usr/share/fonts/dejavu-sans-fonts",  // Fedora
        "/usr/share/fonts/TTF",  // Arch (ttf-dejavu)
        "/usr/share/fonts/truetype",  // openSUSE (dejavu-fonts)
        "/usr/share/fonts/dejavu",  // older Fedora, Alpine
        "/usr/local/share/fonts/dejavu",
    ]

    private struct Faces: @unchecked Sendable {
        var regular: OpaquePointer
        var bold: OpaquePointer
        var directory: String
        var options: OpaquePointer
    }

    // Initialised once, thread-safely (a global's lazy initialisation); immutable after that,
    // and cairo font faces are reference-counted atomically.
    private static let faces: Faces = load()

    private static func load() -> Faces {
        var library: FT_Library?
        if FT_Init_FreeType(&library) == 0, let library {
            for dir in searchPath {
                guard let regular = open(dir + "/DejaVuSans.ttf", library) else { continue }
                guard let bold = open(dir + "/DejaVuSans-Bold.ttf", library) else {
                    cairo_font_face_destroy(regular)
                    continue
                }
                let options = cairo_font_options_create()!
                cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_SLIGHT)
                return Faces(regular: regular, bold: bold, directory: dir, options: options)
            }
            FT_Done_FreeType(library)
        }
        return Faces(
            regular: cairo_toy_font_face_create("DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL),
            bold: cairo_toy_font_face_create("DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD),
            directory: "", options: cairo_font_options_create())
    }

    /// Opens `path` as a cairo font face. FreeType reads the file through a ``FontFile`` (the
    /// parts it needs: the tables it loads, then each glyph as it is first drawn) instead of
    /// mapping it: a mapped 740 KB font has most of its pages resident as soon as a few glyphs
    /// are drawn (the kernel maps 64 KiB around each fault), 0.5 MiB of the app's memory for
    /// two fonts; read, the parts in use take ~0.1 MiB of heap.
    private static func open(_ path: String, _ library: FT_Library) -> OpaquePointer? {
        guard let file = FontFile(path: path) else { return nil }
        // The stream and its file live as long as the face, which lives as long as the process.
        let stream = UnsafeMutablePointer<FT_StreamRec>.allocate(capacity: 1)
        stream.initialize(to: FT_StreamRec())
        stream.pointee.size = UInt(file.size)
        stream.pointee.descriptor.pointer = Unmanaged.passRetained(file).toOpaque()
        stream.pointee.read = readFont
        var args = FT_Open_Args()
        args.flags = UInt32(FT_OPEN_STREAM)
        args.stream = stream
        var face: FT_Face?
        guard FT_Open_Face(library, &args, 0, &face) == 0, let face else {
            Unmanaged<FontFile>.fromOpaque(stream.pointee.descriptor.pointer).release()
            stream.deallocate()
            return nil
        }
        guard let cairoFace = cairo_ft_font_face_create_for_ft_face(face, 0),
            cairo_font_face_status(cairoFace) == CAIRO_STATUS_SUCCESS
        else {
            FT_Done_Face(face)
            Unmanaged<FontFile>.fromOpaque(stream.pointee.descriptor.pointer).release()
            stream.deallocate()
            return nil
        }
        return cairoFace
    }

    /// FreeType's stream reader: `count` bytes at `offset` into `buffer` (the count read), or
    /// with `count` 0 a seek (0 when `offset` lies within the file).
    private static let readFont: FT_Stream_IoFunc = { stream, offset, buffer, count in
        guard let stream, let file = stream.pointee.descriptor.pointer else { return count == 0 ? 1 : 0 }
        if count == 0 { return offset <= stream.pointee.size ? 0 : 1 }
        guard let buffer else { return 0 }
        let f = Unmanaged<FontFile>.fromOpaque(file).takeUnretainedValue()
        return UInt(f.read(at: Int(offset), into: buffer, count: Int(count)))
    }
}

/// A font file as FreeType reads it: through four 8 KiB windows (the least recently used one
/// refilled), so that its many small reads — a glyph's offset in one table, its outline in
/// another, its metrics in a third — cost one `pread` per new part of the file, not one each
/// (713 calls for the demo's first frame without the windows, ~1 ms of its start). Used from
/// FreeType's callbacks only, on the thread that draws.
private final class FontFile: @unchecked Sendable {
    let fd: Int32
    let size: Int
    static let windowBytes = 8 << 10
    private struct Window {
        var start = 0
        var length = 0
        var used = 0
        var bytes: UnsafeMutableRawPointer?
    }
    private var windows = [Window](repeating: Window(), count: 4)
    private var clock = 0

    init?(path: String) {
        fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        var st = stat()
        guard fd >= 0, fstat(fd, &st) == 0, st.st_size > 0 else {
            if fd >= 0 { close(fd) }
            return nil
        }
        size = Int(st.st_size)
    }

    deinit {
        close(fd)
        for w in windows { w.bytes?.deallocate() }
    }

    /// Copies `count` bytes at `offset` into `buffer`; the count copied (less at the end of the
    /// file or on a read error).
    func read(at offset: Int, into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
        if count > Self.windowBytes / 2 { return readFully(into: buffer, count: count, at: offset) }
        clock += 1
        var i = windows.indices.first {
            offset >= windows[$0].start && offset + count <= windows[$0].start + windows[$0].length
        }
        if i == nil {
            let j = windows.indices.min { windows[$0].used < windows[$1].used } ?? 0
            let bytes = windows[j].bytes ?? UnsafeMutableRawPointer.allocate(byteCount: Self.windowBytes, alignment: 16)
            let start = offset & ~4095
            windows[j] = Window(
                start: start, length: readFully(into: bytes, count: min(Self.windowBytes, size - start), at: start),
                used: 0, bytes: bytes)
            i = j
        }
        guard let i, let bytes = windows[i].bytes else { return 0 }
        windows[i].used = clock
        let n = max(0, min(count, windows[i].start + windows[i].length - offset))
        if n > 0 { buffer.copyMemory(from: bytes + (offset - windows[i].start), byteCount: n) }
        return n
    }

    private func readFully(into buffer: UnsafeMutableRawPointer, count: Int, at offset: Int) -> Int {
        var done = 0
        while done < count {
            let n = pread(fd, buffer + done, count - done, off_t(offset + done))
            if n > 0 {
                done += n
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                break
            }
        }
        return done
    }
}
