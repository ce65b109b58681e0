import Testing

@testable import ResumeTransfer

/// ``ResumeJudgement`` value by value: which validator decides, and the verdict on each answer.
@Suite struct ResumeJudgementTests {
    static let strong = "\"a1\""
    static let date = "Sun, 01 Nov 2026 10:00:01 GMT"
    static let otherDate = "Mon, 02 Nov 2026 10:00:01 GMT"

    /// Every pairing of the blob's validators with the server's.
    @Test(arguments: [
        // A strong tag byte for byte decides, whatever the dates say.
        (("\"a1\"", date), ("\"a1\"", date), ResumeJudgement.Comparison.same(.entityTag)),
        (("\"a1\"", date), ("\"a1\"", otherDate), .same(.entityTag)),
        (("\"a1\"", nil), ("\"a1\"", otherDate), .same(.entityTag)),
        // Another opaque tag, weak or strong on either side, is another entity.
        (("\"a1\"", date), ("\"b2\"", date), .differs(.entityTag)),
        (("W/\"a1\"", date), ("W/\"b2\"", date), .differs(.entityTag)),
        (("\"a1\"", date), ("W/\"b2\"", date), .differs(.entityTag)),
        // The same tag, weak on either side, proves nothing: the date decides.
        (("W/\"a1\"", date), ("W/\"a1\"", date), .same(.lastModified)),
        (("W/\"a1\"", date), ("W/\"a1\"", otherDate), .differs(.lastModified)),
        (("\"a1\"", date), ("W/\"a1\"", otherDate), .differs(.lastModified)),
        (("W/\"a1\"", nil), ("W/\"a1\"", date), .unproven),
        // No tag on one side: the date decides, or nothing does.
        (("\"a1\"", date), (nil, otherDate), .differs(.lastModified)),
        ((nil, date), ("\"a1\"", date), .same(.lastModified)),
        (("\"a1\"", nil), (nil, date), .unproven),
        ((nil, nil), ("\"a1\"", date), .unproven),
        (("", date), ("", date), .same(.lastModified)),
    ] as [((String?, String?), (String?, String?), ResumeJudgement.Comparison)])
    func validators(ours: (String?, String?), theirs: (String?, String?), expected: ResumeJudgement.Comparison) {
        let comparison = ResumeJudgement.compare(ours: (ours.0, ours.1), theirs: (theirs.0, theirs.1))
        #expect(comparison == expected, "ours \(ours), theirs \(theirs)")
    }

    static func known(tag: String? = strong, date: String? = date, total: Int64? = 1000, start: Int64 = 400, prefix: Int64 = 400) -> ResumeJudgement.Known {
        ResumeJudgement.Known(entityTag: tag, lastModified: date, totalLength: total, requestStart: start, prefix: prefix)
    }

    static func answer(_ status: Int, tag: String? = strong, date: String? = date, range: String? = nil, length: String? = nil) -> ResumeJudgement.Answer {
        ResumeJudgement.Answer(status: status, entityTag: tag, lastModified: date, contentRange: range, contentLength: length)
    }

    @Test func aFittingPartialAnswerContinues() {
        #expect(ResumeJudgement.judge(Self.known(), Self.answer(206, range: "bytes 400-999/1000", length: "600")) == .continueAt(400))
        // S3: the same MD5 ETag, a new date.
        #expect(ResumeJudgement.judge(Self.known(), Self.answer(206, date: Self.otherDate, range: "bytes 400-999/1000")) == .continueAt(400))
        // The tail proved again: the range starts before the prefix.
        #expect(ResumeJudgement.judge(Self.known(tag: nil, start: 100), Self.answer(206, tag: nil, range: "bytes 100-999/1000")) == .continueAt(400))
        // Nothing known yet: no validator to contradict.
        #expect(ResumeJudgement.judge(Self.known(tag: nil, date: nil, total: nil, start: 0, prefix: 0), Self.answer(206, tag: "\"z\"", range: "bytes 0-999/1000"))
            == .continueAt(0))
    }

    @Test func aPartialAnswerThatDoesNotFitStartsOver() {
        let known = Self.known()
        #expect(ResumeJudgement.judge(known, Self.answer(206, range: nil)) == .restart(.unfitRange))
        #expect(ResumeJudgement.judge(known, Self.answer(206, range: "bytes 300-999/1000")) == .restart(.unfitRange))
        #expect(ResumeJudgement.judge(known, Self.answer(206, range: "bytes 400-999/1000", length: "599")) == .restart(.unfitRange))
        #expect(ResumeJudgement.judge(known, Self.answer(206, range: "bytes 400-999/2000")) == .restart(.otherLength(known: 1000, now: 2000)))
        #expect(ResumeJudgement.judge(known, Self.answer(206, tag: "\"b2\"", range: "bytes 400-999/1000")) == .restart(.changed(.entityTag)))
        #expect(ResumeJudgement.judge(Self.known(tag: nil), Self.answer(206, tag: nil, date: Self.otherDate, range: "bytes 400-999/1000"))
            == .restart(.changed(.lastModified)))
        // A range ending before the bytes on disk.
        #expect(ResumeJudgement.judge(Self.known(start: 100), Self.answer(206, range: "bytes 100-199/1000")) == .restart(.unfitRange))
    }

    @Test func aWholeFileStartsOverSayingWhy() {
        #expect(ResumeJudgement.judge(Self.known(), Self.answer(200, length: "1000")) == .restart(.wholeFile(sameEntity: true)))
        #expect(ResumeJudgement.judge(Self.known(), Self.answer(200, length: "1001")) == .restart(.wholeFile(sameEntity: false)))
        #expect(ResumeJudgement.judge(Self.known(), Self.answer(200, tag: "\"b2\"", length: "1000")) == .restart(.changed(.entityTag)))
        #expect(ResumeJudgement.judge(Self.known(total: nil), Self.answer(200, length: nil)) == .restart(.wholeFile(sameEntity: true)))
    }

    @Test func aRangePastTheEndIsCompleteOnlyAtTheEndOfTheSameEntity() {
        let atEnd = Self.known(total: nil, start: 1000, prefix: 1000)
        #expect(ResumeJudgement.judge(atEnd, Self.answer(416, range: "bytes */1000")) == .complete(1000))
        #expect(ResumeJudgement.judge(atEnd, Self.answer(416, tag: "\"b2\"", range: "bytes */1000")) == .restart(.changed(.entityTag)))
        #expect(ResumeJudgement.judge(atEnd, Self.answer(416, range: "bytes */900")) == .restart(.pastEnd))
        #expect(ResumeJudgement.judge(atEnd, Self.answer(416, range: nil)) == .restart(.pastEnd))
        #expect(ResumeJudgement.judge(Self.known(start: 500, prefix: 1000), Self.answer(416, range: "bytes */1000")) == .restart(.pastEnd))
        #expect(ResumeJudgement.judge(Self.known(start: 0, prefix: 0), Self.answer(416, range: "bytes */0")) == .restart(.pastEnd))
    }

    @Test(arguments: [301, 302, 404, 429, 500, 503, 100, 204])
    func otherStatusesAreNotRangeAnswers(status: Int) {
        #expect(ResumeJudgement.judge(Self.known(), Self.answer(status)) == .notARangeAnswer)
    }
}
