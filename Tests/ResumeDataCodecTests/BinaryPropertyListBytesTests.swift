import Foundation
import Testing
@testable import ResumeDataCodec

private typealias Fault = BinaryPropertyListBytes.Fault

/// Runs `body` on the object area of a whole file, whose trailer must be valid.
private func withArea<T>(_ data: Data, _ body: (BinaryPropertyListBytes) throws -> T) throws -> T {
    try data.withUnsafeBytes { bytes in
        let trailer = try BinaryPropertyListTrailer(parsing: bytes, maximumObjectCount: 1 << 20)
        return try body(BinaryPropertyListBytes(bytes, trailer: trailer))
    }
}

/// The object area of a file of one object, which starts at byte 8: its marker is at 8, what
/// follows the marker at 9.
private func withObject<T>(_ object: [UInt8], _ body: (BinaryPropertyListBytes) throws -> T) throws -> T {
    try withArea(bplist(object), body)
}

/// The fault of a read, or `nil` when it succeeds.
private func fault<T>(of read: () throws(Fault) -> T) -> Fault? {
    do {
        _ = try read()
        return nil
    } catch {
        return error
    }
}

/// An extended count: `0x_F`, then an integer object of `size` bytes.
private func extended(_ marker: UInt8, count: UInt64, size: Int) -> [UInt8] {
    let exponent: UInt8 = switch size {
    case 1: 0
    case 2: 1
    case 4: 2
    default: 3
    }
    return [marker | 0x0F, 0x10 | exponent] + BinaryPlistBuilder.bigEndian(count, size: size)
}

@Suite struct BinaryPropertyListBytesTests {
    // MARK: Big-endian reads

    @Test(arguments: 1 ... 8)
    func readsEverySizeBigEndianAtAnyOffset(size: Int) {
        let bytes: [UInt8] = [0xEE, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0xEE]
        let expected = (1 ... size).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        bytes.withUnsafeBytes { raw in
            // Offset 1: unaligned for every size above 1.
            #expect(BinaryPropertyListBytes.bigEndian(raw, at: 1, size: size) == expected)
        }
    }

    @Test func readsTheHighBitWithoutSignExtension() {
        [UInt8](repeating: 0xFF, count: 8).withUnsafeBytes { raw in
            #expect(BinaryPropertyListBytes.bigEndian(raw, at: 0, size: 1) == 0xFF)
            #expect(BinaryPropertyListBytes.bigEndian(raw, at: 0, size: 3) == 0xFF_FFFF)
            #expect(BinaryPropertyListBytes.bigEndian(raw, at: 0, size: 8) == .max)
        }
    }

    // MARK: Bounds

    @Test func fitsOnlyInsideTheObjectArea() throws {
        // Object area 8..<12.
        try withObject([0x43, 0x61, 0x62, 0x63]) { area in
            #expect(area.objectAreaEnd == 12)
            #expect(area.fits(4, at: 8))
            #expect(area.fits(0, at: 12))
            #expect(!area.fits(5, at: 8))
            #expect(!area.fits(1, at: 12))
            #expect(!area.fits(0, at: 13))
            #expect(!area.fits(-1, at: 8))
            #expect(!area.fits(.max, at: 9))
        }
    }

    // MARK: Object offsets

    @Test func objectOffsetsComeFromTheTable() throws {
        try withArea(BinaryPlistBuilder([[0x08], [0x09]]).data) { area in
            do {
                let read = try area.offset(ofObject: 0)
                #expect(read == 8)
            }
            do {
                let read = try area.offset(ofObject: 1)
                #expect(read == 9)
            }
        }
    }

    @Test(arguments: [(UInt64(7), "object 1 is at 0x7, outside the object area 0x8..<0xa"),
                      (10, "object 1 is at 0xa, outside the object area 0x8..<0xa"),
                      (0xFF, "object 1 is at 0xff, outside the object area 0x8..<0xa")])
    func anOffsetOutsideTheObjectAreaIsAFault(offset: UInt64, message: String) throws {
        var builder = BinaryPlistBuilder([[0x08], [0x09]])
        builder.offsetOverrides = [1: offset]
        try withArea(builder.data) { area in
            // The table starts at 10, its entry for object 1 at 11.
            #expect(fault(of: { () throws(Fault) in try area.offset(ofObject: 1) }) == .objectOutsideArea(index: 1, entry: 11, offset: offset))
            let error = area.propertyListError(.objectOutsideArea(index: 1, entry: 11, offset: offset), object: 0)
            #expect(error.code == .referenceOutOfRange)
            #expect(error.location == .byteOffset(11, objectIndex: 1))
            #expect(error.description == "byte 0xb: object 1: \(message)")
        }
    }

    @Test(arguments: 1 ... 8)
    func offsetsOfEveryEntrySize(size: Int) throws {
        var builder = BinaryPlistBuilder([[0x08], [0x09]])
        builder.offsetSize = size
        try withArea(builder.data) { area in
            #expect(area.trailer.offsetSize == size)
            do {
                let read = try area.offset(ofObject: 1)
                #expect(read == 9)
            }
        }
    }

    // MARK: References

    @Test(arguments: 1 ... 8)
    func referencesOfEverySize(size: Int) throws {
        // An array of object 1 and object 2 (a reference past the 3 objects last).
        var builder = BinaryPlistBuilder([[0xA3] + [1, 2, 3].flatMap { BinaryPlistBuilder.bigEndian($0, size: size) }, [0x08], [0x09]])
        builder.referenceSize = size
        try withArea(builder.data) { area in
            do {
                let read = try area.reference(at: 9)
                #expect(read == 1)
            }
            do {
                let read = try area.reference(at: 9 + size)
                #expect(read == 2)
            }
            let third = 9 + 2 * size
            #expect(fault(of: { () throws(Fault) in try area.reference(at: third) }) == .referenceOutOfRange(object: 3, at: third))
            #expect(area.propertyListError(.referenceOutOfRange(object: 3, at: third), object: 0).description
                == "byte 0x\(String(third, radix: 16)): object 0: reference to object 3, but there are only 3 objects")
        }
    }

    @Test func aReferenceOfAllOnesIsOutOfRange() throws {
        var builder = BinaryPlistBuilder([[0xA1] + [UInt8](repeating: 0xFF, count: 8)])
        builder.referenceSize = 8
        try withArea(builder.data) { area in
            #expect(fault(of: { () throws(Fault) in try area.reference(at: 9) }) == .referenceOutOfRange(object: .max, at: 9))
        }
    }

    // MARK: Counts

    @Test(arguments: 0 ... 14)
    func aCountBelowFifteenIsTheMarkersNibble(nibble: Int) throws {
        try withObject([0x40 | UInt8(nibble)] + [UInt8](repeating: 0, count: nibble)) { area in
            var position = 9
            do {
                let read = try area.count(marker: 0x40 | UInt8(nibble), at: &position)
                #expect(read == nibble)
            }
            #expect(position == 9)
        }
    }

    @Test(arguments: [(1, UInt64(200)), (2, 0x1234), (4, 0x1234_5678), (8, UInt64(Int.max))])
    func anExtendedCountOfEverySize(size: Int, count: UInt64) throws {
        try withObject(extended(0x40, count: count, size: size)) { area in
            var position = 9
            do {
                let read = try area.count(marker: 0x4F, at: &position)
                #expect(read == Int(count))
            }
            #expect(position == 10 + size)
        }
    }

    @Test(arguments: [UInt8(0x14), 0x15, 0x1F, 0x00, 0x20, 0x23, 0x50, 0x80, 0xFF])
    func anExtendedCountMustBeAnIntegerOfOneToEightBytes(countMarker: UInt8) throws {
        try withObject([0x5F, countMarker] + [UInt8](repeating: 0, count: 16)) { area in
            var position = 9
            #expect(fault(of: { () throws(Fault) in try area.count(marker: 0x5F, at: &position) }) == .invalidCountMarker(marker: 0x5F, countMarker: countMarker, at: 9))
            #expect(position == 9)
            #expect(area.propertyListError(.invalidCountMarker(marker: 0x5F, countMarker: countMarker, at: 9), object: 0).description
                == "byte 0x9: object 0: the length after marker 0x5f must be an integer object of 1 to 8 bytes, found marker 0x\(String(countMarker, radix: 16))")
        }
    }

    @Test func aMissingCountMarkerIsTruncated() throws {
        try withObject([0x4F]) { area in
            var position = 9
            let expected = Fault.truncated(.countMarker, needed: 1, at: 9)
            #expect(fault(of: { () throws(Fault) in try area.count(marker: 0x4F, at: &position) }) == expected)
            #expect(area.propertyListError(expected, object: 0).description
                == "byte 0x9: object 0: the length of the object needs 1 bytes at 0x9 but only 0 remain before the offset table")
        }
    }

    @Test(arguments: 0 ... 3)
    func aCutExtendedCountIsTruncated(exponent: Int) throws {
        let size = 1 << exponent
        // One byte of the count short.
        try withObject([0x4F, 0x10 | UInt8(exponent)] + [UInt8](repeating: 0, count: size - 1)) { area in
            var position = 9
            let expected = Fault.truncated(.count(size: size), needed: 1 + size, at: 9)
            #expect(fault(of: { () throws(Fault) in try area.count(marker: 0x4F, at: &position) }) == expected)
            #expect(area.propertyListError(expected, object: 0).description
                == "byte 0x9: object 0: a \(size)-byte length needs \(1 + size) bytes at 0x9 but only \(size) remain before the offset table")
        }
    }

    @Test(arguments: [UInt64(Int.max) + 1, .max])
    func aCountAboveIntMaxOverflows(count: UInt64) throws {
        try withObject(extended(0xA0, count: count, size: 8)) { area in
            var position = 9
            #expect(fault(of: { () throws(Fault) in try area.count(marker: 0xAF, at: &position) }) == .countOverflow(value: count, at: 10))
            #expect(area.propertyListError(.countOverflow(value: count, at: 10), object: 0).description
                == "byte 0xa: object 0: length \(count) (0x\(String(count, radix: 16))) does not fit a count")
        }
    }

    // MARK: Data and strings

    @Test func dataAndStringExtents() throws {
        try withObject([0x43, 1, 2, 3]) { area in
            do {
                let read = try area.string(marker: 0x43, at: 9)
                #expect(read == (9, 3))
            }
        }
        try withObject(extended(0x50, count: 16, size: 2) + [UInt8](repeating: 0x61, count: 16)) { area in
            do {
                let read = try area.string(marker: 0x5F, at: 9)
                #expect(read == (12, 16))
            }
        }
        try withObject([0x62, 0, 0x61, 0, 0x62]) { area in
            do {
                let read = try area.string(marker: 0x62, at: 9)
                #expect(read == (9, 2))
            }
        }
    }

    @Test(arguments: [(UInt8(0x44), Fault.truncated(.data(count: 4), needed: 4, at: 9), "a data object of 4 bytes needs 4 bytes at 0x9 but only 3 remain before the offset table"),
                      (0x54, .truncated(.ascii(count: 4), needed: 4, at: 9), "an ASCII string of 4 bytes needs 4 bytes at 0x9 but only 3 remain before the offset table"),
                      (0x62, .truncated(.utf16(units: 2), needed: 4, at: 9), "a UTF-16 string of 2 code units needs 4 bytes at 0x9 but only 3 remain before the offset table")])
    func aStringLongerThanTheAreaIsTruncated(marker: UInt8, expected: BinaryPropertyListBytes.Fault, message: String) throws {
        try withObject([marker, 1, 2, 3]) { area in
            #expect(fault(of: { () throws(Fault) in try area.string(marker: marker, at: 9) }) == expected)
            #expect(area.propertyListError(expected, object: 0).description == "byte 0x9: object 0: \(message)")
        }
    }

    @Test func aUTF16LengthThatOverflowsIsAFault() throws {
        let units = Int.max / 2 + 1
        try withObject(extended(0x60, count: UInt64(units), size: 8)) { area in
            let expected = Fault.lengthOverflow(.utf16(units: units), at: 8)
            #expect(fault(of: { () throws(Fault) in try area.string(marker: 0x6F, at: 9) }) == expected)
            let error = area.propertyListError(expected, object: 0)
            #expect(error.code == .integerOverflow)
            #expect(error.description == "byte 0x8: object 0: a UTF-16 string of \(units) code units is too long")
        }
    }

    @Test(arguments: 0 ... 17)
    func asciiIsCheckedByteByByteAndWordByWord(count: Int) throws {
        // Every length around the 8-byte words, with a high byte at each position in turn.
        let text = [UInt8](repeating: 0x7F, count: count)
        try withObject([0x5F, 0x10, UInt8(count)] + text) { area in
            #expect(area.isASCII(start: 11, count: count))
        }
        for bad in 0 ..< count {
            var high = text
            high[bad] = 0x80
            try withObject([0x5F, 0x10, UInt8(count)] + high) { area in
                #expect(!area.isASCII(start: 11, count: count), "high byte at \(bad) of \(count)")
                // Bytes before the string do not count.
                #expect(area.isASCII(start: 11, count: bad))
            }
        }
    }

    // MARK: Containers

    @Test func containerExtents() throws {
        try withArea(BinaryPlistBuilder([[0xA2, 1, 1], [0x08]]).data) { area in
            do {
                let read = try area.container(marker: 0xA2, at: 9)
                #expect(read == (9, 2))
            }
        }
        try withArea(BinaryPlistBuilder([[0xC1, 1], [0x08]]).data) { area in
            do {
                let read = try area.container(marker: 0xC1, at: 9)
                #expect(read == (9, 1))
            }
        }
        try withArea(BinaryPlistBuilder([extended(0xD0, count: 1, size: 1) + [1, 2], [0x51, 0x61], [0x08]]).data) { area in
            do {
                let read = try area.container(marker: 0xDF, at: 9)
                #expect(read == (11, 1))
            }
        }
    }

    @Test(arguments: [(UInt8(0xA3), Fault.truncated(.elements(count: 3), needed: 6, at: 9), "3 references of 2 bytes needs 6 bytes at 0x9 but only 4 remain before the offset table"),
                      (0xC3, .truncated(.elements(count: 3), needed: 6, at: 9), "3 references of 2 bytes needs 6 bytes at 0x9 but only 4 remain before the offset table"),
                      (0xD2, .truncated(.entries(count: 2), needed: 8, at: 9), "2 key and 2 value references of 2 bytes needs 8 bytes at 0x9 but only 4 remain before the offset table")])
    func referencesPastTheAreaAreTruncated(marker: UInt8, expected: BinaryPropertyListBytes.Fault, message: String) throws {
        var builder = BinaryPlistBuilder([[marker, 0, 0, 0, 0]])
        builder.referenceSize = 2
        try withArea(builder.data) { area in
            #expect(fault(of: { () throws(Fault) in try area.container(marker: marker, at: 9) }) == expected)
            #expect(area.propertyListError(expected, object: 0).description == "byte 0x9: object 0: \(message)")
        }
    }

    @Test func containerLengthsThatOverflowAreFaults() throws {
        // Twice the count of references, or the count times 2-byte references, passes Int.max.
        let count = Int.max / 2 + 1
        var builder = BinaryPlistBuilder([extended(0xA0, count: UInt64(count), size: 8)])
        builder.referenceSize = 2
        try withArea(builder.data) { area in
            let expected = Fault.lengthOverflow(.elements(count: count), at: 8)
            #expect(fault(of: { () throws(Fault) in try area.container(marker: 0xAF, at: 9) }) == expected)
            #expect(area.propertyListError(expected, object: 0).description == "byte 0x8: object 0: a container of \(count) elements is too large")
        }
        try withObject(extended(0xD0, count: UInt64(count), size: 8)) { area in
            let expected = Fault.lengthOverflow(.entries(count: count), at: 8)
            #expect(fault(of: { () throws(Fault) in try area.container(marker: 0xDF, at: 9) }) == expected)
            #expect(area.propertyListError(expected, object: 0).description == "byte 0x8: object 0: a dictionary of \(count) entries is too large")
        }
    }

    // MARK: Integers

    static let integers: [([UInt8], PropertyListInteger)] = [
        ([0x10, 0xFF], PropertyListInteger(UInt64(0xFF))),
        ([0x11, 0xFF, 0xFE], PropertyListInteger(UInt64(0xFFFE))),
        ([0x12, 0xFF, 0xFF, 0xFF, 0xFF], PropertyListInteger(UInt64(0xFFFF_FFFF))),
        ([0x13] + [UInt8](repeating: 0xFF, count: 8), PropertyListInteger(Int64(-1))),
        ([0x14] + [UInt8](repeating: 0, count: 8) + [UInt8](repeating: 0xFF, count: 8), PropertyListInteger(UInt64.max)),
        ([0x14] + [UInt8](repeating: 0xFF, count: 9) + [UInt8](repeating: 0, count: 7), PropertyListInteger(Int64(-(1 << 56)))),
    ]

    @Test(arguments: integers)
    func integersOfEverySize(object: [UInt8], value: PropertyListInteger) throws {
        try withObject(object) { area in
            do {
                let read = try area.integer(marker: object[0], at: 9)
                #expect(read == value)
            }
        }
    }

    @Test func aSixteenByteIntegerOutsideTheModelIsAFault() throws {
        // High 8 bytes all ones but the low 8 not negative, and high 8 bytes 1.
        for (high, low) in [(UInt64.max, UInt64(1)), (1, 0)] {
            let object = [UInt8(0x14)] + BinaryPlistBuilder.bigEndian(high, size: 8) + BinaryPlistBuilder.bigEndian(low, size: 8)
            try withObject(object) { area in
                let expected = Fault.integerOutOfRange(high: high, low: low, at: 9)
                #expect(fault(of: { () throws(Fault) in try area.integer(marker: 0x14, at: 9) }) == expected)
                #expect(area.propertyListError(expected, object: 0).description
                    == "byte 0x9: object 0: a 16-byte integer (0x\(String(high, radix: 16))\(String(low, radix: 16))) outside -2^63…2^64-1")
            }
        }
    }

    @Test(arguments: [UInt8(0x15), 0x1F])
    func anIntegerOfMoreThanSixteenBytesIsAFault(marker: UInt8) throws {
        try withObject([marker, 0]) { area in
            #expect(fault(of: { () throws(Fault) in try area.integer(marker: marker, at: 9) }) == .integerSize(marker: marker, at: 8))
            #expect(area.propertyListError(.integerSize(marker: marker, at: 8), object: 0).description
                == "byte 0x8: object 0: an integer of 2^\(marker & 0x0F) bytes (marker 0x\(String(marker, radix: 16))); the largest is 16")
        }
    }

    @Test(arguments: 0 ... 4)
    func aCutIntegerIsTruncated(exponent: Int) throws {
        let size = 1 << exponent
        try withObject([0x10 | UInt8(exponent)] + [UInt8](repeating: 0, count: size - 1)) { area in
            let expected = Fault.truncated(.integer(size: size), needed: size, at: 9)
            #expect(fault(of: { () throws(Fault) in try area.integer(marker: 0x10 | UInt8(exponent), at: 9) }) == expected)
            #expect(area.propertyListError(expected, object: 0).description
                == "byte 0x9: object 0: a \(size)-byte integer needs \(size) bytes at 0x9 but only \(size - 1) remain before the offset table")
        }
    }

    // MARK: Reals and dates

    @Test func realsAndDates() throws {
        try withObject([0x22] + BinaryPlistBuilder.bigEndian(UInt64(Float(1.5).bitPattern), size: 4)) { area in
            do {
                let read = try area.real(marker: 0x22, at: 9)
                #expect(read == PropertyListReal(Float(1.5)))
            }
        }
        try withObject([0x23] + BinaryPlistBuilder.bigEndian((-2.25).bitPattern, size: 8)) { area in
            do {
                let read = try area.real(marker: 0x23, at: 9)
                #expect(read == PropertyListReal(-2.25))
            }
        }
        try withObject([0x33] + BinaryPlistBuilder.bigEndian(1000.5.bitPattern, size: 8)) { area in
            do {
                let read = try area.date(at: 9)
                #expect(read == 1000.5)
            }
        }
    }

    @Test(arguments: [UInt8(0x20), 0x21, 0x24, 0x2F])
    func aRealOfAnotherSizeIsAFault(marker: UInt8) throws {
        try withObject([marker] + [UInt8](repeating: 0, count: 8)) { area in
            #expect(fault(of: { () throws(Fault) in try area.real(marker: marker, at: 9) }) == .realSize(marker: marker, at: 8))
            #expect(area.propertyListError(.realSize(marker: marker, at: 8), object: 0).description
                == "byte 0x8: object 0: a real of \(1 << Int(marker & 0x0F)) bytes (marker 0x\(String(marker, radix: 16))); only 4 and 8 exist")
        }
    }

    @Test func cutRealsAndDatesAreTruncated() throws {
        try withObject([0x22, 0, 0, 0]) { area in
            let expected = Fault.truncated(.real(size: 4), needed: 4, at: 9)
            #expect(fault(of: { () throws(Fault) in try area.real(marker: 0x22, at: 9) }) == expected)
            #expect(area.propertyListError(expected, object: 0).description == "byte 0x9: object 0: a 4-byte real needs 4 bytes at 0x9 but only 3 remain before the offset table")
        }
        try withObject([0x23, 0, 0, 0, 0, 0, 0, 0]) { area in
            let expected = Fault.truncated(.real(size: 8), needed: 8, at: 9)
            #expect(fault(of: { () throws(Fault) in try area.real(marker: 0x23, at: 9) }) == expected)
            #expect(area.propertyListError(expected, object: 0).description == "byte 0x9: object 0: an 8-byte real needs 8 bytes at 0x9 but only 7 remain before the offset table")
        }
        try withObject([0x33, 0, 0]) { area in
            let expected = Fault.truncated(.date, needed: 8, at: 9)
            #expect(fault(of: { () throws(Fault) in try area.date(at: 9) }) == expected)
            #expect(area.propertyListError(expected, object: 0).description == "byte 0x9: object 0: a date needs 8 bytes at 0x9 but only 2 remain before the offset table")
        }
    }

    // MARK: UIDs

    @Test(arguments: 1 ... 16)
    func uidsOfEverySize(size: Int) throws {
        // The value 0x0102… in the last min(size, 8) bytes, zeros before.
        let low = min(size, 8)
        let object = [0x80 | UInt8(size - 1)] + [UInt8](repeating: 0, count: size - low) + (1 ... low).map(UInt8.init)
        try withObject(object) { area in
            do {
                let read = try area.uid(marker: object[0], at: 9)
                #expect(read == (1 ... low).reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
            }
        }
    }

    @Test(arguments: 9 ... 16)
    func aLongUIDAboveUInt64MaxIsAFault(size: Int) throws {
        // The first non-zero leading byte is reported, here the last of them.
        let object = [0x80 | UInt8(size - 1)] + [UInt8](repeating: 0, count: size - 9) + [1] + [UInt8](repeating: 0, count: 8)
        try withObject(object) { area in
            let byte = 9 + size - 9
            #expect(fault(of: { () throws(Fault) in try area.uid(marker: object[0], at: 9) }) == .uidOverflow(size: size, at: byte))
            #expect(area.propertyListError(.uidOverflow(size: size, at: byte), object: 0).description
                == "byte 0x\(String(byte, radix: 16)): object 0: a \(size)-byte UID above 2^64 - 1")
        }
    }

    @Test func aCutUIDIsTruncated() throws {
        try withObject([0x83, 0, 0]) { area in
            let expected = Fault.truncated(.uid(size: 4), needed: 4, at: 9)
            #expect(fault(of: { () throws(Fault) in try area.uid(marker: 0x83, at: 9) }) == expected)
            #expect(area.propertyListError(expected, object: 0).description == "byte 0x9: object 0: a 4-byte UID needs 4 bytes at 0x9 but only 2 remain before the offset table")
        }
    }

    // MARK: Budgets and messages

    @Test func aBudgetSpendsExactlyWhatItHas() {
        var budget = BinaryPropertyListBytes.Budget(5)
        let spent = [budget.spend(2), budget.spend(3), budget.spend(0), budget.spend(1)]
        #expect(spent == [true, true, true, false])
        #expect(budget.remaining == 0)

        var small = BinaryPropertyListBytes.Budget(3)
        let tooMuch = small.spend(4)
        #expect(!tooMuch)
        // A refused spend takes nothing.
        #expect(small.remaining == 3)
        let all = small.spend(3)
        #expect(all)
        #expect(small.remaining == 0)
    }

    @Test func aTruncationPastTheAreaReportsNothingRemaining() throws {
        try withObject([0x08]) { area in
            // An offset beyond the area's end never reports a negative remainder.
            #expect(area.propertyListError(.truncated(.date, needed: 8, at: 20), object: 3).description
                == "byte 0x14: object 3: a date needs 8 bytes at 0x14 but only 0 remain before the offset table")
        }
    }

    @Test func hexDigitsArePaddedToAnEvenCount() {
        #expect(BinaryPropertyListBytes.hex(UInt8(0x0F)) == "0f")
        #expect(BinaryPropertyListBytes.hex(UInt8(0xAB)) == "ab")
        #expect(BinaryPropertyListBytes.hex(UInt16(0xD800)) == "d800")
        #expect(BinaryPropertyListBytes.hex(UInt16(0x100)) == "0100")
    }
}
