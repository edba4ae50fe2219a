import GestureTestSupport
import GestureTrace
import Testing

private let document = JSONParser.Style.document(expecting: "a JSON array")

/// The error as `line:column: message`, or nil when the text parses.
private func failure(_ text: String, _ style: JSONParser.Style) -> String? {
    do {
        _ = try JSONParser.parse(text, style: style)
        return nil
    } catch {
        return "\(error.line):\(error.column): \(error.message)"
    }
}

@Suite struct JSONParserTests {
    @Test func documentPositionsCountLinesAndBytesAfterTheByteOrderMark() throws {
        let v = try JSONParser.parse("\u{FEFF}[1,\n  {\"é\": 2.5,\n \"k\":\n  true}]", style: document)
        #expect(v.line == 1 && v.column == 1)
        guard case .array(let items) = v.kind, case .object(let members) = items[1].kind else {
            Issue.record("expected an array holding an object: \(v)")
            return
        }
        #expect(items[0].kind == .number(1, integer: 1))
        #expect((items[1].line, items[1].column) == (2, 3))
        #expect(members.map(\.key) == ["é", "k"])
        #expect(members.map { [$0.line, $0.column] } == [[2, 4], [3, 2]])
        #expect(members[0].value.kind == .number(2.5, integer: nil) && members[0].value.column == 10)
        #expect((members[1].value.line, members[1].value.column) == (4, 3))
    }

    @Test func stylesWordTheSameErrorDifferently() {
        let text = "[{\"a\\\"\":1,\n\"a\\\"\":2}]"
        #expect(failure(text, .line) == #"2:1: duplicate key "a\"""#)
        // (Keys show through the one message helper in both styles: escaped, so the quote in
        // the key cannot end the quoted key early.)
        #expect(failure(text, document) == #"2:1: duplicate key "a\"""#)
        #expect(failure(" \n", document) == "2:1: expected a JSON array, got an empty file")
        #expect(failure("[1,", .line) == "1:4: expected a value")
        #expect(failure("[1,", document) == "1:4: expected a value, got the end of the file")
    }

    @Test func unpairedSurrogatesAreReplacedOnALineAndRefusedInADocument() throws {
        let v = try JSONParser.parse(#"["\uD800\u0041","\uDC00","\uD83D\uDE00"]"#, style: .line)
        guard case .array(let items) = v.kind else {
            Issue.record("expected an array: \(v)")
            return
        }
        #expect(items.map(\.kind) == [.string("\u{FFFD}A"), .string("\u{FFFD}"), .string("😀")])
        #expect(items.map(\.column) == [2, 17, 26])
        #expect(failure(#"["\uD800\u0041"]"#, document) == "1:15: expected a low surrogate")
        #expect(failure(#"["\uDC00"]"#, document) == #"1:9: expected a valid \u escape"#)
    }

    @Test func nestingStopsAt64Levels() throws {
        _ = try JSONParser.parse(String(repeating: "[", count: 64) + String(repeating: "]", count: 64), style: .line)
        let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(failure(deep, .line) == "1:65: nesting too deep")
    }
}
