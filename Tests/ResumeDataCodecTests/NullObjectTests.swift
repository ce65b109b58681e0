import Foundation
import Testing
@testable import ResumeDataCodec

/// The binary null object (marker 0x00): read as CoreFoundation reads it (kCFNull), kept by the
/// binary writer, refused by the XML writer with its key path, as XML has no element for it.
@Suite struct NullObjectTests {
    @Test func binaryWriterKeepsNullAsOneSharedObject() throws {
        #expect(try writeBinary(.null) == singleObjectFile([0x00]))
        let bytes = try writeBinary([.null, "x", .null])
        // One array, one null shared by both references, one string.
        #expect(Array(bytes[8 ..< 15]) == [0xA3, 1, 2, 1, 0x00, 0x51, 0x78])
        #expect(try PropertyListReader().read(Data(bytes)).value == [.null, "x", .null])
    }

    @Test func xmlWriterRefusesNullNamingItsKeyPath() throws {
        let nested: PropertyListValue = ["a": ["b", .null]]
        let error = try #require(throws: PropertyListError.self) { try PropertyListWriter().write(nested, as: .xml) }
        #expect(error.code == .unrepresentable)
        #expect(error.keyPath == "root.a[1]")
        #expect(error.description == "root.a[1]: a null object (binary marker 0x00) has no XML spelling")
        let top = try #require(throws: PropertyListError.self) { try PropertyListWriter().write(.null, as: .xml) }
        #expect(top.description == "root: a null object (binary marker 0x00) has no XML spelling")
    }

    @Test func nullIsItsOwnTypeAndEqualOnlyToItself() {
        #expect(PropertyListValue.null.typeName == "null")
        #expect(PropertyListValue.null == .null)
        #expect(PropertyListValue.null != .boolean(false))
        #expect(PropertyListValue.null != .array([]))
    }

    @Test func aKeyedArchiveRefusesNullAsAnArchivedValue() throws {
        let error = try #require(throws: KeyedArchiveError.self) { try ArchivedValue(plain: ["k": .null]) }
        #expect(error.code == .unrepresentable)
        #expect(error.keyPath == "k")
    }
}
