import Dispatch
import GestureKit

/// The picture of a `gestures run` command line, loaded and its decode started as the very first
/// thing the process does — before the command line is parsed for good (swift-argument-parser's
/// reflection of `run`'s ~45 options), the X connection, the fonts — so that a big JPEG's
/// decode, the floor of its start, begins a few milliseconds after exec.
///
/// Nothing is decided here: the arguments are only looked through for `--image PATH` and
/// `--size WxH` (`run` first or options only, as the default command). The command, once it
/// has parsed and checked everything, takes the picture with ``take(path:size:)`` when the path
/// and the size it would decode for are the ones guessed here; otherwise the guess is let go (on
/// another thread: its decode may still be running) and the command loads the picture as
/// before. A file that cannot be loaded here is left for the command to refuse in its turn, with
/// its own message. Main thread only.
public enum PicturePrefetch {
    /// The picture started by ``start(arguments:defaultSize:)``, its path and the size its decode
    /// was started for.
    nonisolated(unsafe) private static var started: (path: String, size: Size, image: DemoImage)?

    /// Loads the picture named by `--image` in `arguments` (the process's arguments after
    /// `argv[0]`) and starts decoding it for the window `--size` asks for, else `defaultSize`.
    /// Nothing when the command is not `run` or names no picture.
    public static func start(arguments: [String], defaultSize: Size) {
        guard started == nil, let guess = guess(arguments, defaultSize: defaultSize),
            let image = try? DemoImage(path: guess.path)
        else { return }
        image.startDecoding(toFit: Int(guess.size.width), height: Int(guess.size.height))
        started = (guess.path, guess.size, image)
    }

    /// The picture started for `path` and a window of `size` points, once; nil when none was, or
    /// it was for another path or size (that one is let go).
    public static func take(path: String?, size: Size) -> DemoImage? {
        guard let s = started else { return nil }
        started = nil
        if s.path == path && s.size == size { return s.image }
        // Its decode may still run, and a picture waits for its decodes when it goes.
        DispatchQueue.global(qos: .utility).async { withExtendedLifetime(s.image) {} }
        return nil
    }

    /// `--image` and `--size` of a `run` command line (the last of each, as the parser takes
    /// them), or nil.
    static func guess(_ arguments: [String], defaultSize: Size) -> (path: String, size: Size)? {
        var rest = arguments[...]
        if rest.first == "run" {
            rest = rest.dropFirst()
        } else if let first = rest.first, !first.hasPrefix("-") {
            return nil
        }
        var path: String?
        var size = defaultSize
        var i = rest.startIndex
        while i < rest.endIndex, rest[i] != "--" {
            let argument = rest[i]
            var value: String?
            var name = argument
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                value = String(argument[argument.index(after: equals)...])
            } else if name == "--image" || name == "--size", i + 1 < rest.endIndex {
                value = rest[i + 1]
                i += 1
            }
            if name == "--image", let value {
                path = value
            } else if name == "--size", let value {
                guard let parsed = parseSize(value) else { return nil }
                size = parsed
            }
            i += 1
        }
        return path.map { ($0, size) }
    }

    /// `WxH` in points, both positive.
    private static func parseSize(_ text: String) -> Size? {
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]), w > 0, h > 0 else { return nil }
        return Size(width: w, height: h)
    }
}
