#if canImport(Glibc)
    import Glibc
#endif

/// The marker walk of a JPEG held in memory: EXIF orientation, the Adobe marker, the number of
/// scans and whether the stream reaches its end, read without decoding a pixel.
extension JPEGPicture {
    /// The most scans a JPEG may have. A progressive JPEG from libjpeg, Photoshop or a camera
    /// has 6 to 12, and jpegtran's scan scripts allow 100; each scan makes the decoder walk the
    /// whole picture again, so 500 scans (TurboJPEG's own `TJFLAG_LIMITSCANS`, kept as a second
    /// guard) of a 12-megapixel picture still take seconds. Counted before decoding.
    public static let maximumScans = 100

    /// The EXIF orientation (1 when absent or unreadable), whether an Adobe APP14 marker is
    /// present, how many scans the file has (SOS markers, entropy-coded data skipped; an EXIF
    /// thumbnail's markers lie inside APP1 and are not counted), and whether the walk reached the
    /// EOI marker (`complete`; false for a file cut short). Every offset is checked against the
    /// bytes: a damaged marker ends the walk, never reads past.
    static func markers(_ b: UnsafeBufferPointer<UInt8>) -> (orientation: Int, adobe: Bool, scans: Int, complete: Bool)
    {
        var orientation = 1
        var adobe = false
        var scans = 0
        var complete = false
        var i = 2
        if let base = b.baseAddress {
            while i + 2 <= b.count {
                // Bytes between markers (libjpeg warns "extraneous bytes" and goes on): skipped.
                guard b[i] == 0xFF else {
                    guard let p = memchr(base + i, 0xFF, b.count - i) else { break }
                    i = base.distance(to: p.assumingMemoryBound(to: UInt8.self))
                    continue
                }
                let marker = b[i + 1]
                if marker == 0xFF || (0xD0...0xD7).contains(marker) || marker == 0x01 {  // fill, RSTn, TEM
                    i += marker == 0xFF ? 1 : 2
                    continue
                }
                if marker == 0xD9 {  // EOI
                    complete = true
                    break
                }
                guard i + 4 <= b.count else { break }
                let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
                guard length >= 2, i + 2 + length <= b.count else { break }
                let body = (i + 4)..<(i + 2 + length)
                if marker == 0xE1, orientation == 1, body.count >= 6,
                    b[body.lowerBound..<body.lowerBound + 6].elementsEqual([0x45, 0x78, 0x69, 0x66, 0, 0])
                {
                    orientation = exifOrientation(b[(body.lowerBound + 6)..<body.upperBound]) ?? 1
                } else if marker == 0xEE, body.count >= 5,
                    b[body.lowerBound..<body.lowerBound + 5].elementsEqual("Adobe".utf8)
                {
                    adobe = true
                }
                i += 2 + length
                guard marker == 0xDA else { continue }
                // Entropy-coded data: up to the next 0xFF that is not a stuffed 0xFF00 or RSTn.
                scans += 1
                while i < b.count {
                    guard let p = memchr(base + i, 0xFF, b.count - i) else {
                        i = b.count
                        break
                    }
                    i = base.distance(to: p.assumingMemoryBound(to: UInt8.self))
                    guard i + 1 < b.count else { break }
                    let next = b[i + 1]
                    if next == 0x00 || (0xD0...0xD7).contains(next) || next == 0xFF {
                        i += next == 0xFF ? 1 : 2
                    } else {
                        break
                    }
                }
            }
        }
        return (orientation, adobe, scans, complete)
    }

    /// Tag 0x0112 of IFD0 of a TIFF structure (the APP1 body after `Exif\0\0`), 1...8 or nil.
    static func exifOrientation(_ tiff: some Collection<UInt8>) -> Int? {
        let t = Array(tiff)
        guard t.count >= 8 else { return nil }
        let little: Bool
        switch (t[0], t[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= t.count else { return nil }
            return little ? Int(t[at]) | Int(t[at + 1]) << 8 : Int(t[at]) << 8 | Int(t[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let a = u16(at), let b = u16(at + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return nil }
        for entry in 0..<count {
            let at = ifd + 2 + entry * 12
            guard let tag = u16(at) else { return nil }
            guard tag == 0x0112 else { continue }
            // Type SHORT (3), count 1: the value in the first two bytes of the value field.
            guard u16(at + 2) == 3, u32(at + 4) == 1, let value = u16(at + 8), (1...8).contains(value) else {
                return nil
            }
            return value
        }
        return nil
    }
}
