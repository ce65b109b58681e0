import Foundation
import Testing
@testable import ResumeDataCodec

/// The one date text of the package: the XML writer's whole seconds, the reports' fractional
/// seconds, the range they spell, and the note for the rest.
struct ISO8601DateTextTests {
    private typealias T = ISO8601DateText

    private static func date(_ secondsSince1970: Double) -> Date { Date(timeIntervalSince1970: secondsSince1970) }

    @Test func wholeSecondsRoundDown() {
        let cases: [(Double, String)] = [
            (0, "1970-01-01T00:00:00Z"), (0.999_999, "1970-01-01T00:00:00Z"), (-0.5, "1969-12-31T23:59:59Z"),
            (-1e-7, "1969-12-31T23:59:59Z"), (1_429_517_149.9, "2015-04-20T08:05:49Z"),
            (951_868_799, "2000-02-29T23:59:59Z"), (951_868_800, "2000-03-01T00:00:00Z"),
            (-62_135_596_800, "0001-01-01T00:00:00Z"), (-62_135_596_799.5, "0001-01-01T00:00:00Z"),
            (253_402_300_799, "9999-12-31T23:59:59Z"), (253_402_300_799.999_9, "9999-12-31T23:59:59Z"),
            // Outside years 1-9999 as %04d prints them, for the XML writer (and read back by it).
            (-62_135_596_800.5, "0000-12-31T23:59:59Z"), (-62_198_755_200, "-001-01-01T00:00:00Z"),
            (253_402_300_800, "10000-01-01T00:00:00Z"), (9.0e15, "285200616-07-24T16:00:00Z"),
            (-9.0e15, "-285196677-06-10T08:00:00Z"),
        ]
        for (seconds, text) in cases {
            #expect(T.string(Self.date(seconds), fractionalSeconds: false) == text, "\(seconds)")
        }
    }

    @Test func fractionalSecondsKeepUpToSixDigits() {
        let cases: [(Double, String)] = [
            (0, "1970-01-01T00:00:00Z"), (0.5, "1970-01-01T00:00:00.5Z"), (0.25, "1970-01-01T00:00:00.25Z"),
            (-0.5, "1969-12-31T23:59:59.5Z"), (-0.25, "1969-12-31T23:59:59.75Z"), (-1.000_001, "1969-12-31T23:59:58.999999Z"),
            (1_429_517_149.123_456, "2015-04-20T08:05:49.123456Z"), (1_429_517_149.1, "2015-04-20T08:05:49.1Z"),
            // An exact tie (2^-7 × 10^6 = 7812.5) goes to the even digit, as %.6f does.
            (0.007_812_5, "1970-01-01T00:00:00.007812Z"), (0.023_437_5, "1970-01-01T00:00:00.023438Z"),
            // Digits that round to nothing are not written; those that round to a whole second
            // are the next second (only within 2^32 s of 1970 can a double have them).
            (1e-7, "1970-01-01T00:00:00Z"), (.leastNonzeroMagnitude, "1970-01-01T00:00:00Z"), (-1e-7, "1970-01-01T00:00:00Z"),
            (0.999_999_6, "1970-01-01T00:00:01Z"), (86_399.999_999_9, "1970-01-02T00:00:00Z"),
            (-62_135_596_800, "0001-01-01T00:00:00Z"), (253_402_300_799.999_97, "9999-12-31T23:59:59.999969Z"),
        ]
        for (seconds, text) in cases {
            #expect(T.string(Self.date(seconds), fractionalSeconds: true) == text, "\(seconds)")
        }
    }

    @Test func spellableIsYearsOneToNineThousandNineHundredNinetyNine() {
        #expect(T.isSpellable(Self.date(-62_135_596_800)))
        #expect(!T.isSpellable(Self.date(-62_135_596_800.5)))
        #expect(T.isSpellable(Self.date(0)))
        #expect(T.isSpellable(Self.date(253_402_300_799.999_97)))
        #expect(!T.isSpellable(Self.date(253_402_300_800)))
        for value in [Double.nan, .infinity, -.infinity, 1e300, -1e300, .greatestFiniteMagnitude] {
            #expect(!T.isSpellable(Date(timeIntervalSinceReferenceDate: value)), "\(value)")
        }
    }

    @Test func noCalendarSpellingForNaNInfinitiesAndHugeDates() {
        for value in [Double.nan, .infinity, -.infinity, 1e300, -1e300, 9.000_000_000_000_002e15, -9.000_000_000_000_002e15] {
            #expect(T.string(Self.date(value), fractionalSeconds: false) == nil, "\(value)")
            #expect(T.string(Self.date(value), fractionalSeconds: true) == nil, "\(value)")
        }
    }

    @Test func textNotesWhatHasNoSpelling() {
        #expect(T.text(Self.date(1_429_517_149.25), fractionalSeconds: true) == "2015-04-20T08:05:49.25Z")
        #expect(T.text(Self.date(1_429_517_149.25), fractionalSeconds: false) == "2015-04-20T08:05:49Z")
        let noted: [(Double, String)] = [
            (.nan, "nan"), (.infinity, "inf"), (-.infinity, "-inf"), (1e300, "1e+300"), (-1e300, "-1e+300"),
            // Spellable by the XML writer, but not in four digits.
            (252_424_281_600, "252424281600.0"), (-63_113_904_000.5, "-63113904000.5"),
        ]
        for (value, number) in noted {
            for fractional in [false, true] {
                #expect(T.text(Date(timeIntervalSinceReferenceDate: value), fractionalSeconds: fractional)
                    == "\(number) seconds since 2001-01-01 (out of range)", "\(value)")
            }
        }
    }

    @Test func archivedValueDescriptionUsesWholeSeconds() {
        #expect(ArchivedValue.date(Self.date(1_429_517_149.75)).description == "2015-04-20T08:05:49Z")
        // Foundation's formatter switched to the Julian calendar here (0001-01-03).
        #expect(ArchivedValue.date(Self.date(-62_135_596_800)).description == "0001-01-01T00:00:00Z")
        #expect(ArchivedValue.date(Date(timeIntervalSinceReferenceDate: .nan)).description
            == "nan seconds since 2001-01-01 (out of range)")
        #expect(ArchivedValue.array([.date(Date(timeIntervalSinceReferenceDate: 1e300))]).description
            == "(1e+300 seconds since 2001-01-01 (out of range))")
    }

    /// The reports used `gmtime_r` and `%.6f` with trailing zeros dropped: the same text for every
    /// date whose six digits neither round to zero nor to a whole second (those printed a bare
    /// "." before the Z).
    @Test func sameTextAsGmtimeAndPrintfFormatted() {
        var generator = SeededGenerator(state: 0x150_8601)
        var compared = 0
        for round in 0..<20_000 {
            let seconds: Double
            switch round % 4 {
            case 0: seconds = Double.random(in: -62_135_596_800..<253_402_300_800, using: &generator)
            case 1: seconds = Double.random(in: -4_294_967_296...4_294_967_296, using: &generator)
            case 2: seconds = Double(Int.random(in: -100_000...100_000, using: &generator)) / 128
            default: seconds = Double(Int.random(in: 0...2_000_000_000, using: &generator)) + Double(Int.random(in: 0...1_000_000, using: &generator)) / 1_000_000
            }
            // Both see the seconds since 1970 that Date gives back (it keeps seconds since 2001).
            let date = Self.date(seconds)
            guard let old = Self.gmtimeAndPrintf(date.timeIntervalSince1970) else { continue }
            compared += 1
            #expect(T.string(date, fractionalSeconds: true) == old, "\(seconds)")
            let whole = String(old.prefix(19)) + "Z"
            #expect(T.string(date, fractionalSeconds: false) == whole, "\(seconds)")
        }
        #expect(compared > 19_000)
    }

    @Test func wholeSecondsReadBackAsTheSameSecond() throws {
        var generator = SeededGenerator(state: 0xDA7E)
        for round in 0..<5_000 {
            let bound = round % 2 == 0 ? 9.0e15 : 1e12
            let seconds = Double.random(in: -bound...bound, using: &generator).rounded(.down)
            let text = try #require(T.string(Self.date(seconds), fractionalSeconds: false))
            let parsed = Array(text.utf8).withUnsafeBufferPointer { T.parse($0) }
            #expect(parsed?.timeIntervalSince1970 == seconds, "\(text)")
        }
    }

    /// What ResumeReports' DateText did before, for comparison; nil where it printed "." alone.
    private static func gmtimeAndPrintf(_ seconds: Double) -> String? {
        let whole = seconds.rounded(.down)
        var time = time_t(whole)
        var parts = tm()
        gmtime_r(&time, &parts)
        var text = String(format: "%04d-%02d-%02dT%02d:%02d:%02d",
                          Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
                          Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
        let fraction = seconds - whole
        if fraction > 0 {
            let printed = String(format: "%.6f", fraction)
            guard printed != "0.000000", printed != "1.000000" else { return nil }
            var digits = printed.dropFirst(1)
            while digits.last == "0" { digits.removeLast() }
            text += digits
        }
        return text + "Z"
    }
}
