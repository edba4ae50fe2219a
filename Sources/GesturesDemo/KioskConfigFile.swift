import GestureTrace

/// The kiosk configuration file (`gestures run --kiosk-config FILE`, dist/kiosk.conf), read as a
/// person writing it means it:
///
/// - `key = value` lines; blank lines; lines starting with `#` are comments.
/// - A `#` after a space or tab starts a trailing comment (`tour-after = 90   # seconds`); a `#`
///   inside a value (`image = /srv/kiosk/room#2.png`) is part of it. A value that needs a space
///   before a `#` is written in double quotes (`image = "/srv/my pictures/#1.png"`): the text
///   between the quotes is the value, as is.
/// - Lines may end in LF, CRLF or CR; a UTF-8 byte-order mark at the start is skipped.
/// - Relative paths (`image`, `tour`) resolve against the folder of the file, not the working
///   directory (which is `/` under systemd).
///
/// Keys: `image`, `tour` (paths), `reset-after`, `tour-after` (positive seconds). A bad line is
/// one error naming `FILE:LINE` and what was expected, with the text quoted escaped and cut.
public struct KioskConfigFile: Equatable, Sendable {
    public var image: String?
    public var tour: String?
    public var resetAfter: Double?
    public var tourAfter: Double?

    public static let keys = "image, reset-after, tour-after, tour"

    public init() {}

    /// Parses `bytes`, the contents of the file at `path` (for messages and relative paths).
    public init(bytes: [UInt8], path: String) throws(KioskConfigFileError) {
        var text = Substring(String(decoding: bytes, as: UTF8.self))
        if text.unicodeScalars.first == "\u{FEFF}" { text = Substring(text.unicodeScalars.dropFirst()) }
        let folder = Self.folder(of: path)
        // Characters: "\r\n" is one Character, so all three line ends are single separators.
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
        for (n, raw) in lines.enumerated() {
            let here = "\(path):\(n + 1)"
            let line = Self.withoutComment(raw).trimmedSpaces
            if line.isEmpty { continue }
            guard let eq = line.firstIndex(of: "=") else {
                throw KioskConfigFileError(
                    "\(here): expected key = value (\(Self.keys)), got \(MessageText.quoted(line))")
            }
            let key = String(line[..<eq].trimmedSpaces)
            var value = String(line[line.index(after: eq)...].trimmedSpaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            func seconds() throws(KioskConfigFileError) -> Double {
                guard let v = Double(value), v.isFinite, v > 0 else {
                    throw KioskConfigFileError(
                        "\(here): \(key): expected a positive number of seconds, got \(MessageText.quoted(value))")
                }
                return v
            }
            func filePath() throws(KioskConfigFileError) -> String {
                guard !value.isEmpty else { throw KioskConfigFileError("\(here): \(key): expected a path") }
                return value.hasPrefix("/") ? value : folder + "/" + value
            }
            switch key {
            case "image": image = try filePath()
            case "tour": tour = try filePath()
            case "reset-after": resetAfter = try seconds()
            case "tour-after": tourAfter = try seconds()
            default:
                throw KioskConfigFileError(
                    "\(here): unknown key \(MessageText.quoted(key)) (expected \(Self.keys))")
            }
        }
    }

    /// The folder relative paths in the file at `path` resolve against.
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "" : String(path[..<slash])
    }

    /// The line without its comment: a `#` at the start (after blanks) or after a blank, outside
    /// double quotes.
    static func withoutComment(_ line: Substring) -> Substring {
        var quoted = false
        var previousBlank = true
        var i = line.startIndex
        while i < line.endIndex {
            let c = line[i]
            if c == "\"" { quoted.toggle() }
            if c == "#" && !quoted && previousBlank { return line[..<i] }
            previousBlank = c == " " || c == "\t"
            i = line.index(after: i)
        }
        return line
    }
}

/// A bad kiosk configuration file: one line.
public struct KioskConfigFileError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

extension Substring {
    fileprivate var trimmedSpaces: Substring {
        var s = self
        while let c = s.first, c == " " || c == "\t" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" { s.removeLast() }
        return s
    }
}
