/// Text from an input (a trace token, a key, a spec name, a command-line argument) as an error
/// message shows it: on one line, harmless to a terminal, and short. Every error message path
/// (the trace readers, the spec reader, the command line) goes through these helpers, so that a
/// token such as `\e]0;title\a` prints as the visible `\u{1B}]0;title\u{7}` instead of retitling
/// the user's terminal, and a 10 MB token makes a line of about 80 characters, not 10 MB.
///
/// Escaped: the C0 controls and DEL (`\n`, `\r`, `\t` by name, the others as `\u{1B}`), the C1
/// controls U+0080…U+009F (an 8-bit CSI is one of them), the bidirectional overrides and
/// isolates U+202A…U+202E and U+2066…U+2069 (they reorder what follows on the line), and, in a
/// quoted token, `"` and `\`.
public enum MessageText {
    /// The most Unicode scalars of one token a message shows; longer tokens end in `…`.
    public static let tokenLimit = 80

    /// The most Unicode scalars a whole message line shows (a last safety net, see ``line(_:)``).
    public static let lineLimit = 2000

    /// `token` in double quotes, escaped, cut after ``tokenLimit`` scalars with `…`:
    /// `"tapp"`, `"a\"b"`, `"\u{1B}]0;x\u{7}"`, `"aaaa…"`.
    public static func quoted(_ token: some StringProtocol) -> String {
        var out = "\""
        append(token, to: &out, limit: tokenLimit, quoting: true)
        return out + "\""
    }

    /// `token` escaped and cut like ``quoted(_:)``, without the quotes (for names in a list).
    public static func bare(_ token: some StringProtocol) -> String {
        var out = ""
        append(token, to: &out, limit: tokenLimit, quoting: false)
        return out
    }

    /// Names for a `known: …` list: each ``bare(_:)``, at most `count` of them, then
    /// `… (N more)`.
    public static func list(_ names: [String], count: Int = 20) -> String {
        var text = names.prefix(count).map { bare($0) }.joined(separator: ", ")
        if names.count > count { text += ", … (\(names.count - count) more)" }
        return text
    }

    /// A whole message line: control characters escaped (quotes left alone, so already
    /// escaped tokens stay as they are), cut after ``lineLimit`` scalars with `…`. The command
    /// line passes every message it prints through this, whatever produced it.
    public static func line(_ message: some StringProtocol) -> String {
        var out = ""
        append(message, to: &out, limit: lineLimit, quoting: false)
        return out
    }

    private static func append(_ s: some StringProtocol, to out: inout String, limit: Int, quoting: Bool) {
        var n = 0
        for scalar in s.unicodeScalars {
            if n == limit {
                out += "…"
                return
            }
            n += 1
            switch scalar {
            case "\"" where quoting: out += "\\\""
            case "\\" where quoting: out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if needsEscape(scalar.value) {
                    out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
    }

    private static func needsEscape(_ v: UInt32) -> Bool {
        v < 0x20 || (0x7F...0x9F).contains(v) || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
    }
}
