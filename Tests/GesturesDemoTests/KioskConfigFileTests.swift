import GestureTestSupport
import GesturesDemo
import Testing

@Suite("Kiosk configuration file: as a person writes it")
struct KioskConfigFileTests {
    private func parse(_ text: String, path: String = "/etc/gestures/kiosk.conf") throws -> KioskConfigFile {
        try KioskConfigFile(bytes: Array(text.utf8), path: path)
    }

    @Test("Every line of the shipped dist/kiosk.conf parses when uncommented (one at a time, then all)")
    func shippedLinesUncommented() throws {
        let text = try String(contentsOfFile: repositoryRoot + "/dist/kiosk.conf", encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var settings = 0
        var all = lines
        for (n, line) in lines.enumerated() where line.hasPrefix("#") {
            var uncommented = lines
            uncommented[n] = String(line.dropFirst())
            all[n] = uncommented[n]
            let c = try parse(uncommented.joined(separator: "\n"))
            if c != KioskConfigFile() { settings += 1 }
        }
        #expect(settings == 4, "the shipped file offers image, reset-after, tour-after and tour")
        let c = try parse(all.joined(separator: "\n"))
        #expect(c.image == "/srv/kiosk/picture.png" && c.tour == "/srv/kiosk/tour.jsonl")
        #expect(c.resetAfter == 60 && c.tourAfter == 90)
    }

    @Test("CRLF and CR line ends, a UTF-8 BOM, trailing comments, tabs")
    func lineEndsBOMComments() throws {
        let c = try parse(
            "\u{FEFF}# kiosk\r\nreset-after = 30\r\ntour-after\t=\t45   # seconds\rimage = a.png # the picture\r\n")
        #expect(c.resetAfter == 30 && c.tourAfter == 45)
        #expect(c.image == "/etc/gestures/a.png")
    }

    @Test("A # inside a value is part of it; in double quotes even after a space")
    func hashInValue() throws {
        #expect(try parse("image = /srv/room#2.png").image == "/srv/room#2.png")
        #expect(try parse("image = \"/srv/my pictures/ #1.png\"  # quoted").image == "/srv/my pictures/ #1.png")
        #expect(try parse("image = /srv/a.png #1").image == "/srv/a.png")
    }

    @Test("Relative paths resolve against the file's folder, not the working directory")
    func relativePaths() throws {
        #expect(
            try parse("image = pic.png\ntour = t/tour.jsonl", path: "/srv/kiosk/kiosk.conf").image
                == "/srv/kiosk/pic.png")
        #expect(try parse("tour = t/tour.jsonl", path: "/srv/kiosk/kiosk.conf").tour == "/srv/kiosk/t/tour.jsonl")
        #expect(try parse("image = pic.png", path: "kiosk.conf").image == "./pic.png")
        #expect(try parse("image = pic.png", path: "/kiosk.conf").image == "/pic.png")
        #expect(try parse("image = /abs.png", path: "/srv/kiosk.conf").image == "/abs.png")
    }

    @Test("A bad line names FILE:LINE and quotes the text escaped")
    func badLines() throws {
        #expect(throws: KioskConfigFileError.self) { try parse("reset-after = 10 s") }
        do {
            _ = try parse("ok = 1", path: "k.conf")
            Issue.record("an unknown key parsed")
        } catch let error as KioskConfigFileError {
            #expect(error.description == #"k.conf:1: unknown key "ok" (expected image, reset-after, tour-after, tour)"#)
        }
        do {
            _ = try parse("\n\u{1B}]0;x", path: "k.conf")
            Issue.record("a line without = parsed")
        } catch let error as KioskConfigFileError {
            #expect(
                error.description
                    == #"k.conf:2: expected key = value (image, reset-after, tour-after, tour), got "\u{1B}]0;x""#)
        }
    }
}
