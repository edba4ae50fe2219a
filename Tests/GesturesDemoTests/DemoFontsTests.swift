import CCairo
import GestureTestSupport
import GesturesDemo
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("DemoFonts: DejaVu through FreeType, as fontconfig renders it")
struct DemoFontsTests {
    /// Draws `text` at `size` with the font selection `select` and returns the pixels.
    private func render(_ text: String, size: Double, select: (OpaquePointer) -> Void) -> [UInt8] {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 360, 80)!
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)!
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_paint(cr)
        cairo_set_source_rgb(cr, 0, 0, 0)
        select(cr)
        cairo_set_font_size(cr, size)
        cairo_move_to(cr, 10.3, 55.7)
        cairo_show_text(cr, text)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = cairo_image_surface_get_data(surface)!
        return Array(UnsafeBufferPointer(start: data, count: stride * 80))
    }

    @Test("The faces are FreeType faces opened from the files the search path finds")
    func facesFromFiles() {
        let expected = DemoFonts.searchPath.first { access($0 + "/DejaVuSans-Bold.ttf", R_OK) == 0 }
        #expect(expected != nil, "fonts-dejavu-core is installed by scripts/deps")
        #expect(DemoFonts.directory == expected)
        #expect(cairo_font_face_get_type(DemoFonts.regular) == CAIRO_FONT_TYPE_FT)
        #expect(cairo_font_face_get_type(DemoFonts.bold) == CAIRO_FONT_TYPE_FT)
    }

    @Test(
        "Text drawn with DemoFonts is pixel for pixel what cairo's toy face (fontconfig) draws",
        arguments: [("Tap Me!", 32.1, true), ("Rotate Me!", 17.0, true), ("Do something!", 23.4, false)])
    func sameAsFontconfig(text: String, size: Double, bold: Bool) {
        let ours = render(text, size: size) { cr in
            DemoFonts.select(bold ? DemoFonts.bold : DemoFonts.regular, on: cr)
        }
        let toy = render(text, size: size) { cr in
            cairo_select_font_face(
                cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
        }
        #expect(ours.contains { $0 != 255 }, "something was drawn")
        #expect(ours == toy)
    }
}
