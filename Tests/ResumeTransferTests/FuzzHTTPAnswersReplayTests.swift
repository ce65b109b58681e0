import Foundation
import Testing

@_spi(Fuzzing) import ResumeTransfer

/// Replays every input kept in FuzzTesting/FailCases/FuzzHTTPAnswers (crashes the fuzzer found
/// and hand-made answer scripts) through the check the harness runs (``HTTPAnswerCheck``, the library's).
@Suite struct FuzzHTTPAnswersReplayTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("FuzzTesting/FailCases/FuzzHTTPAnswers")

    static let cases: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
        .filter { !$0.hasPrefix(".") }.sorted()

    @Test func thereAreCases() {
        #expect(Self.cases.count >= 3)
    }

    @Test(arguments: cases)
    func replay(name: String) throws {
        let bytes = try Data(contentsOf: Self.folder.appendingPathComponent(name))
        #expect(HTTPAnswerCheck.check(Array(bytes)) == nil, "\(name)")
    }

    /// Seeded random scripts through the same check: none may break a property, reach a
    /// `preconditionFailure` of the machine (which would stop this process), or be ignored.
    @Test func randomScriptsKeepEveryProperty() {
        var state: UInt64 = 0x5EED_2026
        func next() -> UInt64 {
            // SplitMix64: the same scripts on every run.
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        for round in 0..<3000 {
            let script = (0..<Int(next() % 400)).map { _ in UInt8(truncatingIfNeeded: next()) }
            let broken = HTTPAnswerCheck.check(script)
            #expect(broken == nil, "script \(round): \(script)")
            if broken != nil { return }
        }
    }

    /// An empty script, and the truncating loop with a retry budget of 0, keep every property.
    @Test func shortScriptsKeepEveryProperty() {
        #expect(HTTPAnswerCheck.check([]) == nil)
        #expect(HTTPAnswerCheck.check([0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 1, 0, 12, 4, 4, 1, 0, 0, 0, 0, 1, 0, 12, 4, 4, 1]) == nil)
    }
}
