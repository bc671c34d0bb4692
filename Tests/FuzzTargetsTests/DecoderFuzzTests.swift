import Foundation
import FuzzTargets
import Testing

@Suite("The fuzz target's corpus and hostile inputs")
struct DecoderFuzzTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz/corpus")

    @Test("every file of Fuzz/corpus (the seeds and any crash found since) passes the target's invariants")
    func corpus() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path)
        #expect(files.count >= 30)
        for file in files { DecoderFuzz.run(Array(try Data(contentsOf: Self.corpus.appendingPathComponent(file)))) }
    }

    @Test("hostile inputs are refused without trapping: deep nesting, huge numbers, NaN, truncation, random bytes")
    func hostile() {
        var generator = SystemRandomNumberGenerator()
        let inputs: [String] = [
            String(repeating: "[", count: 10_000), String(repeating: "{\"a\":", count: 5_000),
            #"{"cursorMove":{"delta":[1e308,1e308]}}"#, #"{"cursorMove":{"delta":[NaN,0]}}"#,
            #"{"scroll":{"dx":-0,"dy":1e-320}}"#, #"{"text":{"text":"\ud800"}}"#, #"{"tap""#, "",
        ]
        for input in inputs { DecoderFuzz.run(Array(input.utf8)) }
        for _ in 0..<2_000 {
            DecoderFuzz.run((0..<Int.random(in: 0...600, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) })
        }
    }
}
