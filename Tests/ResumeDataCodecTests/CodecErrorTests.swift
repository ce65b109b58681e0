import Testing
@testable import ResumeDataCodec

/// The one shape of the codec's errors: the text of each part, equality on the code, and what
/// each domain adds (a wrapped property-list error, an unreadable blob's position).
@Suite struct CodecErrorTests {
    @Test func theDescriptionJoinsPositionObjectKeyPathAndReason() {
        let binary = PropertyListError(.truncated, "a date needs 8 bytes", at: .byteOffset(0x1A4, objectIndex: 12), keyPath: "root.when")
        #expect(binary.locationDescription == "byte 0x1a4")
        #expect(binary.message == "object 12: root.when: a date needs 8 bytes")
        #expect(binary.description == "byte 0x1a4: object 12: root.when: a date needs 8 bytes")

        let noObject = PropertyListError(.invalidTrailer, "object count is 0", at: .byteOffset(0, objectIndex: nil))
        #expect(noObject.description == "byte 0x0: object count is 0")

        let xml = PropertyListError(.malformedXML, "expected </string>", at: .lineColumn(line: 3, column: 17), keyPath: "root")
        #expect(xml.locationDescription == "3:17")
        #expect(xml.description == "3:17: root: expected </string>")

        let nowhere = KeyedArchiveError(.uidOutOfRange, "UID 40 out of range (38 objects)", keyPath: "$objects[12].NS.keys[3]")
        #expect(nowhere.locationDescription == nil)
        #expect(nowhere.description == "$objects[12].NS.keys[3]: UID 40 out of range (38 objects)")
        #expect(ResumeDataError(.invalidArgument, "not absolute").description == "not absolute")
    }

    @Test func anEmptyKeyPathIsNone() {
        #expect(KeyedArchiveError(.nullRoot, "the root is nil", keyPath: "").keyPath == nil)
        #expect(KeyedArchiveError(.nullRoot, "the root is nil", keyPath: "").description == "the root is nil")
        #expect(PropertyListError(.cycle, "contains itself", keyPath: "").keyPath == nil)
    }

    @Test func errorsAreEqualWhenTheirCodesAre() {
        let one = PropertyListError(.truncated, "one", at: .byteOffset(1, objectIndex: 0))
        let other = PropertyListError(.truncated, "other", at: .lineColumn(line: 2, column: 3), keyPath: "root")
        #expect(one == other)
        #expect(one.hashValue == other.hashValue)
        #expect(one != PropertyListError(.cycle, "one", at: .byteOffset(1, objectIndex: 0)))
        #expect(Set([one, other]).count == 1)
    }

    @Test func codesAreTheirNames() {
        #expect(PropertyListError.Code.unknownFormat.description == "unknown-format")
        #expect(KeyedArchiveError.Code.uidOutOfRange.name == "uid-out-of-range")
        #expect(ResumeDataError.Code.obscuredFormat.name == "obscured-format")
        #expect(ResumeDataFinding.Code.ios11ByteRange.description == "ios11-byte-range")
        #expect(PropertyListError.Code.duplicateKey == PropertyListError.Code("duplicate-key"))
    }

    @Test func aKeyedArchiveErrorWrapsAPropertyListError() throws {
        let inner = PropertyListError(.truncated, "a date needs 8 bytes", at: .byteOffset(9, objectIndex: 0))
        var error = KeyedArchiveError(inner)
        #expect(error.code == .propertyList)
        #expect(error.reason == "byte 0x9: object 0: a date needs 8 bytes")
        #expect(error.description == "byte 0x9: object 0: a date needs 8 bytes")
        let underlying = try #require(error.underlying)
        #expect(underlying.location == .byteOffset(9, objectIndex: 0))
        #expect(underlying.reason == "a date needs 8 bytes")

        error.underlying = nil
        #expect(error.underlying == nil)
        #expect(KeyedArchiveError(.invalidTop, "no $top").underlying == nil)
    }

    @Test func anUnreadableBlobKeepsThePositionAndTheKeyPath() {
        let inner = PropertyListError(.duplicateKey, "key \"a\" appears twice", at: .byteOffset(0x20, objectIndex: 3), keyPath: "root.a")
        let error = ResumeDataError(unreadable: inner)
        #expect(error.code == .unreadable)
        #expect(error.location == .byteOffset(0x20, objectIndex: 3))
        #expect(error.keyPath == nil)
        #expect(error.description == "byte 0x20: object 3: root.a: key \"a\" appears twice")
    }
}
