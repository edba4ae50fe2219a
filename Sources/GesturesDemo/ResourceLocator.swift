#if canImport(Glibc)
    import Glibc
#endif

/// Finds the demo's resources (`flower.png`, `tour.jsonl`). UIKit counterpart: `Bundle.main`'s
/// `path(forResource:ofType:)`.
///
/// Search order: the folder named by `$GESTURES_RESOURCES` (when set, it is the only place
/// looked at); `<executable's folder>/../share/gestures/` (an install, `scripts/install`); a
/// `Resources/` folder holding the file in the executable's folder or any folder above it (a
/// development build in `.build*/debug/` of the repository).
public enum ResourceLocator {
    /// The environment variable that overrides the search.
    public static let environmentVariable = "GESTURES_RESOURCES"

    /// The path of resource `name`, or nil when it is nowhere to be found.
    public static func path(of name: String) -> String? {
        path(of: name, override: environment(environmentVariable), executable: executablePath())
    }

    /// The search itself, with its inputs given (for tests).
    public static func path(of name: String, override: String?, executable: String?) -> String? {
        for dir in candidates(override: override, executable: executable) {
            let p = dir + "/" + name
            if isReadableFile(p) { return p }
        }
        return nil
    }

    /// The sizes of the application icon put on the window (`_NET_WM_ICON`), pixels.
    public static let windowIconSizes = [16, 32, 48, 64, 128]

    /// The application icon's PNG of `size`×`size` pixels, in the freedesktop theme layout
    /// `icons/hicolor/<size>x<size>/apps/gestures.png`: under `$GESTURES_RESOURCES` (only there,
    /// when set), else in the installed theme `<executable's folder>/../share/icons/hicolor`
    /// (`scripts/install`), else in the `Resources/` folders of ``candidates(override:executable:)``.
    public static func iconPath(size: Int) -> String? {
        iconPath(size: size, override: environment(environmentVariable), executable: executablePath())
    }

    /// The icon search itself, with its inputs given (for tests).
    public static func iconPath(size: Int, override: String?, executable: String?) -> String? {
        let name = "icons/hicolor/\(size)x\(size)/apps/gestures.png"
        var dirs = candidates(override: override, executable: executable)
        if override?.isEmpty ?? true, let exe = executable, let exeDir = parent(of: exe) {
            dirs[0] = exeDir + "/../share"
        }
        return dirs.lazy.map { $0 + "/" + name }.first(where: isReadableFile)
    }

    /// The folders searched, in order.
    public static func candidates(override: String?, executable: String?) -> [String] {
        if let o = override, !o.isEmpty { return [o] }
        guard let exe = executable, let exeDir = parent(of: exe) else { return [] }
        var out = [exeDir + "/../share/gestures"]
        var dir: String? = exeDir
        while let d = dir {
            out.append((d == "/" ? "" : d) + "/Resources")
            dir = parent(of: d)
        }
        return out
    }

    /// The running executable (`/proc/self/exe`), else `argv[0]`.
    public static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if n > 0 {
            return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return CommandLine.arguments.first
    }

    static func environment(_ name: String) -> String? {
        guard let v = getenv(name) else { return nil }
        return String(cString: v)
    }

    static func parent(of path: String) -> String? {
        var p = Substring(path)
        while p.count > 1 && p.hasSuffix("/") { p = p.dropLast() }
        guard let slash = p.lastIndex(of: "/") else { return "." }
        if slash == p.startIndex { return p.count > 1 ? "/" : nil }
        return String(p[..<slash])
    }

    static func isReadableFile(_ path: String) -> Bool {
        var st = stat()
        guard stat(path, &st) == 0 else { return false }
        return (st.st_mode & S_IFMT) == S_IFREG && access(path, R_OK) == 0
    }
}
