import Benchmark
import GestureKit
import GestureTrace
import GesturesDemo

/// The readers stay linear on hostile sizes: each benchmark parses one large input,
/// built before the measurement starts. One iteration = one whole parse.
///
/// - a 2 MB JSON Lines line: one object of 200k keys (refused for its first unknown key, after
///   the duplicate-key check has seen every key);
/// - an evemu recording touching 50k distinct protocol-B slots, one new finger per frame, each
///   lifted in the next;
/// - a JSON Lines trace of 30k touches, 200 down at a time (one down line and one up line per
///   frame);
/// - a playground spec of 30k recognizers, each requiring the next to fail (a 30k chain).
enum ParseInputs {
    static let bigObject: String = {
        var s = "{\"type\":\"down\",\"t\":0,\"id\":1,\"x\":1,\"y\":1"
        for i in 0..<200_000 { s += ",\"k\(i)\":0" }
        return s + "}\n"
    }()

    static let slots: String = {
        var s = "N: bench\nA: 2f 0 60000 0 0\nA: 35 0 1000 0 0\nA: 36 0 1000 0 0\nA: 39 0 65535 0 0\n"
        for i in 0..<50_000 {
            let t = "\(i / 1000).\(String(1_000_000 + (i % 1000) * 1000).dropFirst())"
            s += "E: \(t) 0003 002f \(i)\nE: \(t) 0003 0039 \(i)\n"
            s += "E: \(t) 0003 0035 \(i % 1000)\nE: \(t) 0003 0036 \((i * 7) % 1000)\nE: \(t) 0000 0000 0\n"
            s += "E: \(t)5 0003 0039 -1\nE: \(t)5 0000 0000 0\n"
        }
        return s
    }()

    static let touches: String = {
        var s = ""
        for i in 0..<30_000 {
            s += "{\"type\":\"down\",\"t\":\(Double(i) / 1000),\"id\":\(i),\"x\":\(i % 1000),\"y\":\(i % 700)}\n"
            if i >= 199 { s += "{\"type\":\"up\",\"t\":\(Double(i) / 1000),\"id\":\(i - 199),\"x\":1,\"y\":2}\n" }
        }
        for i in 29_801..<30_000 { s += "{\"type\":\"up\",\"t\":30,\"id\":\(i),\"x\":1,\"y\":2}\n" }
        return s
    }()

    static let spec: String = {
        var s = "["
        for i in 0..<30_000 {
            if i > 0 { s += ",\n" }
            let next = i + 1 < 30_000 ? "\"r\(i + 1)\"" : ""
            s += "{\"name\":\"r\(i)\",\"kind\":\"tap\",\"requireToFail\":[\(next)]}"
        }
        return s + "]\n"
    }()
}

func parseBenchmarks() {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal], timeUnits: .milliseconds, maxDuration: .seconds(5),
        maxIterations: 20)
    /// One benchmark: `parse` over `input()` (built before the measurement starts).
    func parse(_ name: String, _ input: @escaping @Sendable () -> String, _ parse: @escaping @Sendable (String) -> Any?)
    {
        Benchmark("Parse: " + name, configuration: configuration) { benchmark in
            let text = input()
            benchmark.startMeasurement()
            blackHole(parse(text))
        }
    }
    func trace(_ file: String) -> @Sendable (String) -> Any? {
        { try? TraceReader.parse(text: $0, file: file, size: nil, deviceText: nil) }
    }
    parse("JSON Lines object of 200k keys (2 MB)", { ParseInputs.bigObject }, trace("big.jsonl"))
    parse("evemu recording of 50k slots", { ParseInputs.slots }, trace("slots.evemu"))
    parse("JSON Lines trace of 30k touches, 200 down at a time", { ParseInputs.touches }, trace("touches.jsonl"))
    parse(
        "spec of 30k recognizers (a requireToFail chain)", { ParseInputs.spec },
        { try? PlaygroundSpec.parse($0, file: "spec.json") })
}
