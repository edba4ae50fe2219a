import GestureKit
import GestureTestSupport
import Testing

@testable import GesturesDemo

/// A `run` command line's picture is loaded and its decode started before the command line is
/// parsed for good (`PicturePrefetch`), and the command takes it only when the path and the
/// window size it needs are the ones guessed. (`PicturePrefetch` keeps one picture for the
/// process: the tests that start one run one at a time.)
@Suite(.serialized)
@MainActor struct PicturePrefetchTests {
    static let fixture = fixturesDirectory + "/red-blue.jpg"
    static let standard = Size(width: 1024, height: 768)

    @Test func theDecodeStartsFromTheRawArguments() throws {
        PicturePrefetch.start(
            arguments: ["run", "--size", "64x96", "--image", Self.fixture], defaultSize: Self.standard)
        let image = try #require(PicturePrefetch.take(path: Self.fixture, size: Size(width: 64, height: 96)))
        #expect(image.hasStartedDecoding, "the decode was not started")
        #expect(PicturePrefetch.take(path: Self.fixture, size: Size(width: 64, height: 96)) == nil, "taken twice")
        // The command goes on as before: the window's decode is the one started.
        try image.prepare(toFit: 64, height: 96)
        let p = image.pixels(forScale: 1, load: false)
        #expect([p.width, p.height] == [64, 48])
    }

    @Test func anotherPathOrSizeIsLetGo() {
        PicturePrefetch.start(arguments: ["--image=" + Self.fixture], defaultSize: Self.standard)
        #expect(PicturePrefetch.take(path: Self.fixture, size: Size(width: 800, height: 600)) == nil)
        PicturePrefetch.start(arguments: ["--image=" + Self.fixture], defaultSize: Self.standard)
        #expect(PicturePrefetch.take(path: "/elsewhere.jpg", size: Self.standard) == nil)
        PicturePrefetch.start(arguments: ["--image=" + Self.fixture], defaultSize: Self.standard)
        #expect(PicturePrefetch.take(path: Self.fixture, size: Self.standard) != nil)
    }

    @Test func whatIsGuessed() {
        let d = Self.standard
        #expect(PicturePrefetch.guess(["run", "--image", "a.jpg"], defaultSize: d).map { [$0.path] } == ["a.jpg"])
        let sized = PicturePrefetch.guess(["--size=300x200", "--image", "a.jpg", "--image", "b.jpg"], defaultSize: d)
        #expect(sized?.path == "b.jpg", "the last --image, as the parser takes it")
        #expect(sized?.size == Size(width: 300, height: 200))
        #expect(PicturePrefetch.guess(["replay", "t.jsonl", "--image", "a.jpg"], defaultSize: d) == nil)
        #expect(PicturePrefetch.guess(["run", "--size", "1024x768"], defaultSize: d) == nil, "no picture named")
        #expect(PicturePrefetch.guess(["run", "--", "--image", "a.jpg"], defaultSize: d) == nil)
        #expect(PicturePrefetch.guess(["--image", "a.jpg", "--size", "wide"], defaultSize: d) == nil)
    }

    /// A file that cannot be loaded is left for the command to refuse with its own message.
    @Test func aBadFileIsLeftToTheCommand() {
        PicturePrefetch.start(arguments: ["--image", "/no/such/file.jpg"], defaultSize: Self.standard)
        #expect(PicturePrefetch.take(path: "/no/such/file.jpg", size: Self.standard) == nil)
    }
}
