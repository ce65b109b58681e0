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

    /// Options stay for the parser, with the first name (and `-` when given) after `--` standing
    /// in for the names taken; each split is a value of its own, nothing kept between two.
    /// Which options take a value comes from the commands' own declarations: each option that
    /// takes one, no flag.
    @Test func theValuedOptionsAreTheDeclaredOnes() {
        #expect(PositionalNames.valuedOptions(of: InspectCommand.self) == ["--files-from"])
        #expect(PositionalNames.valuedOptions(of: ValidateCommand.self) == ["--files-from", "--tmp-dir"])
        #expect(PositionalNames.valuedOptions(of: ConvertCommand.self).isSuperset(of: ["--to", "-o", "--output"]))
        #expect(!PositionalNames.valuedOptions(of: ConvertCommand.self).contains("--strict"))
    }

    @Test func positionalNamesLeaveOptionsToTheParser() {
        let inspect = PositionalNames(splitting: ["inspect", "a", "--json", "b", "--files-from", "list", "c"])
        #expect(inspect.parserArguments == ["inspect", "--json", "--files-from", "list", "--", "a"])
        #expect(inspect.taken == ["a", "b", "c"])
        let validate = PositionalNames(splitting: ["validate", "--tmp-dir", "t", "x", "--", "--json", "-"])
        #expect(validate.parserArguments == ["validate", "--tmp-dir", "t", "--", "x", "-"])
        #expect(validate.taken == ["x", "--json", "-"])
        let dash = PositionalNames(splitting: ["inspect", "-", "b", "-"])
        #expect(dash.parserArguments == ["inspect", "--", "-"])
        #expect(dash.taken == ["-", "b", "-"])
        let none = PositionalNames(splitting: ["inspect", "--files-from", "list"])
        #expect(none.parserArguments == ["inspect", "--files-from", "list"])
        #expect(none.taken == nil)
        #expect(PositionalNames(splitting: ["convert", "a", "--to", "xml"]).parserArguments == ["convert", "a", "--to", "xml"])
        #expect(PositionalNames(splitting: ["convert", "a", "--to", "xml"]).taken == nil)
        #expect(PositionalNames(splitting: []).parserArguments == [])
    }
}
