import Foundation
import Testing

@_spi(Fuzzing) import ResumeTransfer

/// Replays every input kept in FuzzTesting/FailCases/FuzzHTTPAnswers (crashes the fuzzer found
/// and hand-made answer scripts) through the check the harness runs (``HTTPAnswerCheck``, the library's).
@Suite struct FuzzHTTPAnswersReplayTests {
    static let cases = FuzzReplay.cases("FuzzHTTPAnswers")

    @Test func thereAreCases() {
        #expect(Self.cases.count >= 3)
    }

    @Test(arguments: cases)
    func replay(name: String) throws {
        let bytes = try FuzzReplay.bytes("FuzzHTTPAnswers", name)
        #expect(HTTPAnswerCheck.check(bytes) == nil, "\(name)")
    }

    /// Seeded random scripts through the same check: none may break a property, reach a
    /// `preconditionFailure` of the machine (which would stop this process), or be ignored.
    @Test func randomScriptsKeepEveryProperty() {
        var generator = FuzzReplay.Generator(state: 0x5EED_2026)
        func next() -> UInt64 { generator.next() }
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
