import ArgumentParser
import GestureKit
import GestureTrace
import GesturesDemo

/// `gestures replay TRACE`: plays a trace through the demo scene (or a recognizer playground)
/// without any window — it never opens an X connection — and prints the event log.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a trace headless (no X) and print the event log.",
        discussion: """
            Prints the event log as JSON Lines, one line per recognizer transition, flushed as it \
            happens: the demo scene's layout line first and its final line last. Everything is \
            checked before anything is replayed (--png included): a bad trace, spec or option prints \
            one line on stderr and exits with status 2. Input files are regular files of at most \
            256 MiB (gzip: decompressed; a spec 8 MiB), lines of at most 4 MiB, at most 256 touches \
            down at once, JSON Lines numbers between -1000000 and 1000000 and times up to 10^9 s.
            """)

    @Argument(help: "A JSON Lines trace or an evemu recording (optionally gzipped).")
    var trace: String

    @Option(
        help: ArgumentHelp(
            "The viewport, WIDTHxHEIGHT in points (default: the trace's viewport line, else 1024x768).",
            valueName: "WxH"))
    var size: String?

    @Option(
        help: ArgumentHelp(
            "A recognizer playground spec (JSON) to replay instead of the demo scene.",
            discussion: """
                The spec is [recognizer, ...] or {"views":[view, ...],"recognizers":[recognizer, ...]}. A view: \
                name, frame [x,y,w,h] in its parent's coordinates, transform [a,b,c,d,tx,ty], parent \
                (a view listed before it; default root), userInteraction. A recognizer: name, kind, \
                UIKit's knobs; view (a view's name) or frame and transform; requireToFail, \
                simultaneousWith, shouldRequireFailureOf, shouldBeRequiredToFailBy (names, no \
                cycles); shouldBegin: true, false or {minTouches, maxTouches, inRect}; shouldReceive: \
                true, false or {inRect, touchIds}; pans: reportIn window|view|superview. The trace \
                may hold {"type":"set","t":T,"recognizer":NAME,...} lines that set isEnabled, \
                cancelsTouchesInView, translation [dx,dy] (window points), scale or rotation at T \
                (the demo's recognizer names without --recognizers).
                """,
            valueName: "spec"))
    var recognizers: String?

    @Option(help: ArgumentHelp("The evemu device description, for a recording without its header.", valueName: "desc"))
    var device: String?

    @Option(help: ArgumentHelp("Render the final frame with Cairo to this PNG file.", valueName: "out.png"))
    var png: String?

    @Option(
        help: ArgumentHelp(
            "The picture of the demo scene, PNG or JPEG (default: the bundled flower.png).", valueName: "path"))
    var image: String?

    @Flag(help: "The book's listing: a pinch sets the frame from the original rect and resets the rotation.")
    var classic = false

    func run() throws {
        // Validate everything before replaying anything.
        let size = try parseSizeOption(size)
        if let png { try checkOutputPath(png, option: "--png") }
        var spec: PlaygroundSpec?
        if let recognizers {
            do {
                spec = try PlaygroundSpec.load(path: recognizers)
            } catch {
                throw CommandFailure.usage(error.description)
            }
        }
        // Streamed: a JSON Lines trace, evemu recording or getevent text is checked whole here,
        // then read again as it plays.
        let loaded: TraceStream
        do {
            loaded = try TraceReader.stream(path: trace, size: size, device: device)
        } catch {
            throw CommandFailure.usage(error.description)
        }
        let picture = try loadPicture(explicit: image, needed: spec == nil)
        try preparePicture(picture, width: loaded.viewport.width, height: loaded.viewport.height)
        let pngPath = png
        let classic = classic
        // (A closure with typed throws here crashes the 6.3 compiler: return the failure instead.)
        let failure: CommandFailure? = MainActor.assumeIsolated {
            let scene: any ReplayScene
            if let spec {
                scene = PlaygroundScene(spec: spec, size: loaded.viewport)
            } else {
                scene = DemoScene(size: loaded.viewport, image: picture, classic: classic)
            }
            // The trace's set lines name the scene's recognizers: checked before any output.
            let actions: [BoundAction]
            do {
                actions = try bind(loaded.actions, to: scene)
            } catch let error as TraceError {
                return CommandFailure.usage(error.description)
            } catch {
                return CommandFailure.usage(String(describing: error))
            }
            scene.onLogLine = { writeLine($0) }
            if let changed = replay(loaded, actions: actions, through: scene) {
                return CommandFailure.runtime(changed.description + " (the file changed while it was replayed)")
            }
            if let pngPath {
                do {
                    try scene.renderPNG(to: pngPath)
                } catch {
                    return CommandFailure.runtime(String(describing: error))
                }
            }
            return nil
        }
        if let failure { throw failure }
    }
}

/// Decodes a JPEG picture once for a window of `width`×`height` device pixels
/// (`DemoImage.prepare(toFit:height:)`; with `preview`, the live window's
/// `prepareWithPreview(toFit:height:)`); a damaged stream is bad input.
func preparePicture(
    _ picture: DemoImage?, width: Double, height: Double, preview: Bool = false
) throws(CommandFailure) {
    let (w, h) = (Int(width.rounded()), Int(height.rounded()))
    do {
        if preview {
            try picture?.prepareWithPreview(toFit: w, height: h)
        } else {
            try picture?.prepare(toFit: w, height: h)
        }
    } catch {
        throw CommandFailure.usage(error.description)
    }
}

/// The demo's picture: `explicit` (an error if it cannot be loaded: bad input), else the bundled
/// flower when it can be found and loaded, else nil (a placeholder is drawn, with one warning line).
func loadPicture(explicit: String?, needed: Bool) throws(CommandFailure) -> DemoImage? {
    guard needed else { return nil }
    if let explicit {
        do {
            return try DemoImage(path: explicit)
        } catch {
            throw CommandFailure.usage(error.description)
        }
    }
    // Without the bundled image the image region shows a placeholder ("no image"): said once,
    // like a missing kiosk tour, so that a copied-out binary is not mistaken for a broken one.
    // Its larger renditions are found now (a stat each) and read only if it is drawn enlarged.
    let renditions = [(2.0, "flower@2x.png"), (4.0, "flower@4x.png")].compactMap { factor, name in
        ResourceLocator.path(of: name).map { (factor: factor, path: $0) }
    }
    guard let path = ResourceLocator.path(of: "flower.png"),
        let image = try? DemoImage.bundled(
            png: path, pixels: ResourceLocator.path(of: "flower.pixels"), renditions: renditions)
    else {
        writeAll(
            2, "gestures: warning: the bundled image (flower.png) is missing; the image region shows a placeholder\n")
        return nil
    }
    return image
}
