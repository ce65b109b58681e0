import Foundation
import Testing

@_spi(Fuzzing) @testable import ResumeTransfer

/// Replays every input kept in FuzzTesting/FailCases/FuzzUploadAnswers through the check the
/// harness runs (``UploadAnswerCheck``, the library's), and seeded random scripts through it.
@Suite struct FuzzUploadAnswersReplayTests {
    static let cases = FuzzReplay.cases("FuzzUploadAnswers")

    @Test func thereAreCases() {
        #expect(Self.cases.count >= 6)
    }

    @Test(arguments: cases)
    func replay(name: String) async throws {
        let bytes = try FuzzReplay.bytes("FuzzUploadAnswers", name)
        #expect(await UploadAnswerCheck.check(bytes) == nil, "\(name)")
    }

    /// Seeded random scripts: none may break a property. They must also reach the engine's
    /// paths, or the check proves little: uploads that end well after an append, a creation again
    /// after a forgotten upload, refusals by a limit, offsets beyond what was sent, and the retry budget.
    @Test func randomScriptsKeepEveryPropertyAndReachEveryPath() async {
        var generator = FuzzReplay.Generator(state: 0x5EED_2611)
        var reached: Set<String> = []
        for round in 0..<3000 {
            let script = (0..<Int(generator.next() % 300)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            guard let played = await UploadAnswerCheck.play(script) else { continue }
            #expect(played.broken == nil, "script \(round): \(script)")
            if played.broken != nil { return }
            if played.restarted { reached.insert("created again") }
            switch played.outcome {
            case .success where played.requests.contains(where: { $0.hasPrefix("PATCH") }): reached.insert("complete after an append")
            case .success: reached.insert("complete")
            case .failure(.beyondServerLimit): reached.insert("limit")
            case .failure(.offsetBeyondSent), .failure(.offsetBeyondFile): reached.insert("offset beyond")
            case .failure(.transfer(.retriesExhausted)): reached.insert("retries")
            case .failure(.malformedAnswer): reached.insert("malformed")
            case .failure: reached.insert("other failure")
            }
        }
        #expect(reached == ["complete after an append", "complete", "created again", "limit", "offset beyond", "retries", "malformed", "other failure"])
    }

    /// The seeds (the first script of the random rounds to reach each path) still reach it: a
    /// change in the engine or the script's reading that moves them is seen here.
    @Test func theSeedsReachTheirPaths() async throws {
        func played(_ name: String) async throws -> UploadAnswerCheck.Played {
            try #require(await UploadAnswerCheck.play(try FuzzReplay.bytes("FuzzUploadAnswers", "seed-\(name)")))
        }
        let append = try await played("complete-after-append")
        #expect(append.requests.contains { $0.hasPrefix("PATCH ") })
        #expect((try? append.outcome.get()) != nil)
        let creation = try await played("complete-on-creation")
        #expect(creation.requests.allSatisfy { $0.hasPrefix("POST ") })
        #expect((try? creation.outcome.get()) != nil)
        #expect(try await played("created-again").restarted)
        guard case .failure(.beyondServerLimit) = try await played("limit-refusal").outcome else {
            Issue.record("seed-limit-refusal no longer ends on a limit")
            return
        }
        switch try await played("offset-beyond").outcome {
        case .failure(.offsetBeyondSent), .failure(.offsetBeyondFile): break
        default: Issue.record("seed-offset-beyond no longer ends on an offset beyond")
        }
        guard case .failure(.transfer(.retriesExhausted)) = try await played("retries-exhausted").outcome else {
            Issue.record("seed-retries-exhausted no longer runs out of retries")
            return
        }
    }

    @Test func aScriptTooShortToStartIsNoUpload() async {
        #expect(await UploadAnswerCheck.play([]) == nil)
        #expect(await UploadAnswerCheck.check([1, 2]) == nil)
    }
}
