import Testing

@testable import resumetool

/// The CLI's own small parsers, value by value.
@Suite struct ArgumentParsingTests {
    @Test func rateArgumentsAsCurlSpellsThem() {
        #expect(RateArgument.parse("100") == 100)
        #expect(RateArgument.parse("2k") == 2048)
        #expect(RateArgument.parse("1.5M") == 1_572_864)
        #expect(RateArgument.parse("1G") == 1 << 30)
        #expect(RateArgument.parse("1024G") == 1 << 40)
        for bad in ["1025G", "0.5", "0", "", "k", "1..2", "inf", "nan", "1e3", "-5", "٣"] {
            #expect(RateArgument.parse(bad) == nil, "\(bad)")
        }
    }

    @Test func headersAreTokensAndValuesWithoutLineBreaks() throws {
        let field = try HeaderArgument.parse("X-A:  b c \t").get()
        #expect(field.name == "X-A")
        #expect(field.value == "b c")
        #expect(try HeaderArgument.parse("Empty:").get().value == "")
        for bad in ["NoColon", ": x", "Sp ace: x", "X: a\rb", "X: a\nb", "X: a\u{0}b", "Ü: x"] {
            guard case .failure = HeaderArgument.parse(bad) else {
                Issue.record("accepted \(bad)")
                continue
            }
        }
    }

    @Test func urlListsSkipCommentsAndBlankLines() {
        let parsed = URLList.parse("# a\r\nhttp://x/1\r\n\n  http://x/2  \n#http://x/3\nhttp://x/4")
        #expect(parsed.map(\.line) == [2, 4, 6])
        #expect(parsed.map(\.url) == ["http://x/1", "http://x/2", "http://x/4"])
    }

    @Test func namesAreClaimedOnceInListOrder() {
        var names = DownloadNames()
        #expect(["a", "b", "a", "a", "a.1"].map { names.claim($0) } == ["a", "b", "a.1", "a.2", "a.1.1"])
    }

    @Test func positionalNamesLeaveOptionsToTheParser() {
        #expect(PositionalNames.split(["inspect", "a", "--json", "b", "--files-from", "list", "c"]) == ["inspect", "--json", "--files-from", "list"])
        #expect(PositionalNames.names == ["a", "b", "c"])
        #expect(PositionalNames.split(["validate", "--tmp-dir", "t", "-", "--", "--json", "x"]) == ["validate", "--tmp-dir", "t"])
        #expect(PositionalNames.names == ["-", "--json", "x"])
        #expect(PositionalNames.split(["convert", "a", "--to", "xml"]) == ["convert", "a", "--to", "xml"])
        #expect(PositionalNames.split([]) == [])
    }
}
