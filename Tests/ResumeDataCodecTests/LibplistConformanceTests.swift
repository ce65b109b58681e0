import Foundation
import Testing
@testable import ResumeDataCodec

/// libplist's own test files (Fixtures/libplist/README.md says where they come from and what
/// libplist expects of each), across both formats.
@Suite struct LibplistConformanceTests {
    static func fixture(_ name: String) throws -> Data {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/libplist/\(name)", withExtension: nil))
        return try Data(contentsOf: url)
    }

    static func read(_ name: String, options: PropertyListReadOptions = .default) throws -> (value: PropertyListValue, format: PropertyListFormat) {
        try PropertyListReader(options: options).read(try fixture(name))
    }

    @Test(arguments: ["amp.plist", "invalid_tag.plist", "malformed_dict.bplist", "recursion.bplist"])
    func rejected(_ name: String) throws {
        let error = try #require(throws: PropertyListError.self) { try Self.read(name) }
        #expect(error.locationDescription != nil, "\(name): \(error) has no position")
    }

    @Test func rejectionsSayWhatAndWhere() throws {
        let recursion = try #require(throws: PropertyListError.self) { try Self.read("recursion.bplist") }
        #expect(recursion.code == .cycle)
        let amp = try #require(throws: PropertyListError.self) { try Self.read("amp.plist") }
        #expect(amp.code == .malformedXML)
        // `<!test>` inside a key is not well-formed XML: libxml2 rejects it before the plist grammar.
        let tag = try #require(throws: PropertyListError.self) { try Self.read("invalid_tag.plist") }
        #expect(tag.code == .malformedXML)
        #expect(tag.description == "3:14: markup that is not well-formed XML: expected a tag, text, a comment or CDATA")
    }

    @Test(arguments: (1...8).flatMap { ["off\($0)byte\($0 == 1 ? "" : "s").bplist", "dictref\($0)byte\($0 == 1 ? "" : "s").bplist"] })
    func referenceAndOffsetSizesDecodeLikeTheXMLTwin(_ name: String) throws {
        let (binary, format) = try Self.read(name)
        #expect(format == .binary)
        #expect(binary == (try Self.read("offxml.plist").value))
    }

    @Test(arguments: [("order.bplist", "order.plist"), ("signed.bplist", "signed.plist"),
                      ("unsigned.bplist", "unsigned.plist"), ("signedunsigned.bplist", "signedunsigned.plist")])
    func binaryEqualsItsXMLTwin(_ pair: (String, String)) throws {
        #expect(try Self.read(pair.0).value == (try Self.read(pair.1).value))
    }

    @Test func integersAtTheEdges() throws {
        #expect(try Self.read("signed.plist").value == .integer(-1))
        #expect(try Self.read("unsigned.plist").value == .integer(PropertyListInteger(UInt64.max)))
        #expect(try Self.read("signedunsigned.bplist").value == .array([
            .integer(-1), .integer(PropertyListInteger(UInt64.max)), .integer(PropertyListInteger(Int64.max)),
            .integer(PropertyListInteger(Int64.min)), .integer(PropertyListInteger(UInt64(1) << 63)),
        ]))
    }

    /// empty_keys.plist holds the empty key twice (once spelled `<key><!-- comment --></key>`).
    /// By default it reads as CoreFoundation, plistlib and libplist read it, one empty key with
    /// the last value, and the reader says so; strict reading refuses it.
    @Test func aRepeatedEmptyKeyIsKeptLastWithAWarningAndRejectedWhenStrict() throws {
        let document = try PropertyListReader().readDocument(try Self.fixture("empty_keys.plist"))
        #expect(document.value == ["": "empty key with comment"])
        #expect(document.format == .xml)
        #expect(document.warnings.map(\.description) == ["5:5: root.: duplicate key \"\" in <dict>; the last value is kept"])
        #expect(try Self.read("empty_keys.plist").value == ["": "empty key with comment"])
        let error = try #require(throws: PropertyListError.self) { try Self.read("empty_keys.plist", options: .strict) }
        #expect(error.code == .duplicateKey)
        #expect(error.description == "5:5: root.: duplicate key \"\" in <dict>: each key may appear once")
    }

    @Test(arguments: ["1.plist", "2.plist", "3.plist", "4.plist", "6.plist", "7.plist", "cdata.plist",
                      "empty_keys.plist", "entities.plist", "hex.plist", "data.bplist", "uid.bplist"])
    func roundTripsThroughBothFormats(_ name: String) throws {
        let original = try Self.read(name, options: .init(duplicateKeys: .keepLast)).value
        let binary = try PropertyListWriter().write(original, as: .binary)
        let fromBinary = try PropertyListReader().read(binary).value
        #expect(fromBinary == original)
        let xml = try PropertyListWriter().write(fromBinary, as: .xml)
        let fromXML = try PropertyListReader().read(xml).value
        #expect(fromXML == original)
        // Our own output re-encodes byte for byte.
        #expect(try PropertyListWriter().write(fromXML, as: .xml) == xml)
        #expect(try PropertyListWriter().write(fromXML, as: .binary) == binary)
    }
}
