import Foundation
import Testing
@testable import ResumeDataCodec

@Suite struct PropertyListValueTests {
    @Test func dictionaryKeepsInsertionOrderAndComparesWithoutIt() {
        var a = PropertyListDictionary()
        a["b"] = 1
        a["a"] = 2
        let b: PropertyListDictionary = ["a": 2, "b": 1]
        #expect(a.keys == ["b", "a"])
        #expect(b.keys == ["a", "b"])
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a.sortedByKey().keys == ["a", "b"])
    }

    @Test func dictionaryFromEntriesRejectsRepeatedKeys() {
        #expect(PropertyListDictionary(entries: [("k", 1), ("k", 2)]) == nil)
        #expect(PropertyListDictionary(entries: [("k", 1), ("j", 2)])?.keys == ["k", "j"])
    }

    @Test func integersAboveInt64MaxAreUnsigned() {
        let big = PropertyListInteger(UInt64.max)
        #expect(big.int64Value == nil)
        #expect(big.uint64Value == UInt64.max)
        #expect(big.description == "18446744073709551615")
        #expect(PropertyListInteger(UInt64(5)) == PropertyListInteger(Int64(5)))
        #expect(PropertyListInteger(-1) < big)
        #expect(PropertyListInteger(-1).uint64Value == nil)
        #expect(PropertyListInteger(-1).isNegative)
    }

    @Test func realsCompareByBitsAndWidth() {
        #expect(PropertyListReal(Double.nan) == PropertyListReal(Double.nan))
        #expect(PropertyListReal(0.0) != PropertyListReal(-0.0))
        #expect(PropertyListReal(Float(1.5)) != PropertyListReal(1.5))
        #expect(PropertyListReal(Float(1.5)).value == 1.5)
    }

    @Test func errorDescriptionsNamePosition() {
        let xml = PropertyListError(.unexpectedElement, "expected </string>, found </key>", at: .lineColumn(line: 3, column: 17))
        #expect(xml.description == "3:17: expected </string>, found </key>")
        let binary = PropertyListError(.referenceOutOfRange, "reference 9 out of range (4 objects)", at: .byteOffset(0x1a4, objectIndex: 12), keyPath: "$objects[1]")
        #expect(binary.description == "byte 0x1a4: object 12: $objects[1]: reference 9 out of range (4 objects)")
        #expect(binary == PropertyListError(.referenceOutOfRange, "other text"))
    }
}
