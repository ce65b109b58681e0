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

    /// An empty script, and the truncating loop with a retry budget of 0, keep every property.
    @Test func shortScriptsKeepEveryProperty() {
        #expect(HTTPAnswerCheck.check([]) == nil)
        #expect(HTTPAnswerCheck.check([0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 1, 0, 12, 4, 4, 1, 0, 0, 0, 0, 1, 0, 12, 4, 4, 1]) == nil)
    }
}
