import Foundation
import Testing
@_spi(Fuzzing) @testable import ResumeDataCodec

/// Inputs made to break a reader: each must give a clear error with the right code and position,
/// never a crash, a hang or a huge allocation.
@Suite struct BinaryHostileInputTests {
    /// {"A": "B"}: three objects, table at 0x0f, trailer at 0x12.
    let valid = BinaryPlistBuilder([[0xD1, 1, 2], [0x51, 0x41], [0x51, 0x42]])

    func trailerError(_ builder: BinaryPlistBuilder, sourceLocation: SourceLocation = #_sourceLocation) -> PropertyListError? {
        binaryError(builder.data, sourceLocation: sourceLocation)
    }

    @Test func theBaselineIsValid() throws {
        #expect(try readBinary(valid.data) == ["A": "B"])
        #expect(valid.tableOffset == 0x0f)
        #expect(valid.data.count == 0x32)
    }

    // MARK: Header and size

    @Test func wrongMagicAndTooShort() throws {
        let magic = try #require(binaryError(Data("bplist10".utf8) + valid.data.dropFirst(8)))
        #expect(magic.code == .unknownFormat)
        #expect(magic.location == .byteOffset(0, objectIndex: nil))
        #expect(magic.reason == "not a binary property list: the file does not start with \"bplist0\"")
        let short = try #require(binaryError(Data("bplist00".utf8) + Data(count: 32)))
        #expect(short.code == .truncated)
        #expect(short.reason == "a binary property list needs at least 41 bytes (header, one object, trailer); this one has 40")
        #expect(binaryError(Data())?.code == .unknownFormat)
    }

    @Test func inputSizeLimit() throws {
        let error = try #require(binaryError(valid.data, options: PropertyListReadOptions(maximumInputSize: 49)))
        #expect(error.code == .tooLarge)
        #expect(try readBinary(valid.data, options: PropertyListReadOptions(maximumInputSize: 50)) == ["A": "B"])
    }

    // MARK: Each trailer field

    @Test(arguments: [0, 9, 255])
    func offsetSizeOutOfRange(size: Int) throws {
        var builder = valid
        builder.offsetSize = size
        let error = try #require(trailerError(builder))
        #expect(error.code == .invalidTrailer)
        #expect(error.reason == "offset-table entry size is \(size); it must be 1 to 8")
        #expect(error.location == .byteOffset(builder.data.count - 32 + 6, objectIndex: nil))
    }

    @Test(arguments: [0, 9])
    func referenceSizeOutOfRange(size: Int) throws {
        var builder = valid
        builder.referenceSize = size
        let error = try #require(trailerError(builder))
        #expect(error.code == .invalidTrailer)
        #expect(error.reason == "object-reference size is \(size); it must be 1 to 8")
        #expect(error.location == .byteOffset(0x12 + 7, objectIndex: nil))
    }

    @Test func zeroObjects() throws {
        var builder = valid
        builder.claimedObjectCount = 0
        let error = try #require(trailerError(builder))
        #expect(error.code == .invalidTrailer)
        #expect(error.location == .byteOffset(0x12 + 8, objectIndex: nil))
    }

    @Test func objectCountBeyondIntAndOverflowingTheTable() throws {
        var builder = valid
        builder.claimedObjectCount = UInt64.max
        #expect(trailerError(builder)?.reason == "object count 18446744073709551615 is too large")
        builder.claimedObjectCount = UInt64(Int.max)
        builder.offsetSize = 8
        let overflow = try #require(trailerError(builder))
        #expect(overflow.code == .invalidTrailer)
        #expect(overflow.reason.hasSuffix("overflows"))
    }

    @Test func aTrailerClaimingTwoToTheThirtyOneObjects() throws {
        var builder = valid
        builder.claimedObjectCount = 1 << 31
        builder.topObject = 0
        let error = try #require(trailerError(builder))
        #expect(error.code == .invalidTrailer)
        #expect(error.reason == "offset table of 2147483648 entries of 1 bytes at 0xf runs into the trailer at 0x12")
        #expect(error.location == .byteOffset(0x12 + 8, objectIndex: nil))
    }

    @Test func objectCountLimit() throws {
        let error = try #require(binaryError(valid.data, options: PropertyListReadOptions(maximumObjectCount: 2)))
        #expect(error.code == .tooManyObjects)
        #expect(error.reason == "3 objects, more than the limit of 2")
        #expect(try readBinary(valid.data, options: PropertyListReadOptions(maximumObjectCount: 3)) == ["A": "B"])
    }

    @Test func referencesCountAgainstTheObjectLimit() throws {
        // Two objects, but 1,000 references to the second: each becomes a value in memory.
        let builder = BinaryPlistBuilder([[0xAF, 0x11, 0x03, 0xE8] + [UInt8](repeating: 1, count: 1000), [0x09]])
        let error = try #require(binaryError(builder.data, options: PropertyListReadOptions(maximumObjectCount: 999)))
        #expect(error.code == .tooManyObjects)
        #expect(error.reason == "containers hold more than 999 references in all, the object limit")
        #expect(error.location == .byteOffset(8, objectIndex: 0))
        #expect(try readBinary(builder.data, options: PropertyListReadOptions(maximumObjectCount: 1000)).arrayValue?.count == 1000)
        // Dictionaries count keys and values.
        // {"a": "a", "b": "a"}: three objects, four references.
        let dictionary = BinaryPlistBuilder([[0xD2, 1, 2, 1, 1], [0x51, 0x61], [0x51, 0x62]]).data
        let limited = try #require(binaryError(dictionary, options: PropertyListReadOptions(maximumObjectCount: 3)))
        #expect(limited.code == .tooManyObjects)
        #expect(limited.reason.hasPrefix("containers hold"))
        #expect(try readBinary(dictionary, options: PropertyListReadOptions(maximumObjectCount: 4)) == ["a": "a", "b": "a"])
    }

    @Test func topObjectOutOfRange() throws {
        var builder = valid
        builder.topObject = 3
        let error = try #require(trailerError(builder))
        #expect(error.code == .invalidTrailer)
        #expect(error.reason == "top object 3 is not below the object count 3")
        #expect(error.location == .byteOffset(0x12 + 16, objectIndex: nil))
    }

    @Test(arguments: [UInt64(0), 8])
    func offsetTableOverlappingTheHeader(offset: UInt64) throws {
        var builder = valid
        builder.claimedTableOffset = offset
        let error = try #require(trailerError(builder))
        #expect(error.code == .invalidTrailer)
        #expect(error.location == .byteOffset(0x12 + 24, objectIndex: nil))
    }

    @Test(arguments: [UInt64(0x12), 0x13, 0x31, UInt64.max])
    func offsetTableInOrAfterTheTrailer(offset: UInt64) throws {
        var builder = valid
        builder.claimedTableOffset = offset
        let error = try #require(trailerError(builder))
        #expect(error.code == .invalidTrailer)
        #expect(error.reason.hasPrefix("offset table at 0x\(String(offset, radix: 16)) is not before the trailer"))
    }

    @Test func offsetTableEndingBeforeTheTrailer() throws {
        var builder = valid
        builder.claimedTableOffset = 0x0e
        let error = try #require(trailerError(builder))
        #expect(error.code == .invalidTrailer)
        #expect(error.reason == "1 unexplained bytes between the offset table (ending at 0x11) and the trailer")
    }

    @Test func unusedTrailerBytesAndSortVersionAreIgnored() throws {
        var builder = valid
        builder.sortVersion = 0x7F
        #expect(try readBinary(builder.data) == ["A": "B"])
    }

    /// {"A": "B"} whose 2-byte offset table starts 2 bytes before the trailer and runs `count` × 2
    /// bytes, into the trailer's unused bytes, as libplist's recursion.bplist does.
    func overlappingTable(count: UInt8) -> Data {
        var bytes = Array("bplist00".utf8) + [0xD1, 1, 2, 0x51, 0x41, 0x51, 0x42]
        bytes += [0x00, 0x08]
        bytes += [0x00, 0x0B, 0x00, 0x0D, 0x00, 0x00, 2, 1]
        bytes += BinaryPlistBuilder.bigEndian(UInt64(count), size: 8) + BinaryPlistBuilder.bigEndian(0, size: 8) + BinaryPlistBuilder.bigEndian(0x0F, size: 8)
        return Data(bytes)
    }

    @Test func offsetTableMayOverlapOnlyTheUnusedTrailerBytes() throws {
        #expect(try readBinary(overlappingTable(count: 3)) == ["A": "B"])
        #expect(try readBinary(overlappingTable(count: 4)) == ["A": "B"])
        let error = try #require(binaryError(overlappingTable(count: 5)))
        #expect(error.code == .invalidTrailer)
        #expect(error.reason == "offset table of 5 entries of 2 bytes at 0xf runs into the trailer at 0x11")
    }

    @Test func referenceSizeTooSmallForTheObjectCount() throws {
        // 300 objects addressed with 1-byte references.
        var objects: [[UInt8]] = [[0xA1, 1]]
        objects += Array(repeating: [0x09], count: 299)
        var builder = BinaryPlistBuilder(objects)
        builder.offsetSize = 2
        let error = try #require(trailerError(builder))
        #expect(error.code == .invalidTrailer)
        #expect(error.reason == "object references of 1 bytes cannot address 300 objects")
        builder.referenceSize = 2
        builder.objects[0] = [0xA1, 0, 1]
        #expect(try readBinary(builder.data) == [true])
    }

    @Test func offsetSizeTooSmallToReachTheTable() throws {
        let builder = BinaryPlistBuilder([[0x4F, 0x11, 0x01, 0x00] + [UInt8](repeating: 7, count: 256)])
        var small = builder
        small.offsetSize = 1
        let error = try #require(trailerError(small))
        #expect(error.code == .invalidTrailer)
        #expect(error.reason == "offsets of 1 bytes cannot reach the offset table at 0x10c")
        #expect(try readBinary(builder.data).dataValue?.count == 256)
    }

    // MARK: References and offsets

    @Test func referenceOutOfRange() throws {
        var builder = valid
        builder.objects[0] = [0xD1, 1, 3]
        let error = try #require(trailerError(builder))
        #expect(error.code == .referenceOutOfRange)
        #expect(error.reason == "reference to object 3, but there are only 3 objects")
        #expect(error.location == .byteOffset(10, objectIndex: 0))
    }

    @Test func offsetIntoTheHeader() throws {
        var builder = valid
        builder.offsetOverrides = [2: 7]
        let error = try #require(trailerError(builder))
        #expect(error.code == .referenceOutOfRange)
        #expect(error.reason == "object 2 is at 0x7, outside the object area 0x8..<0xf")
        #expect(error.location == .byteOffset(0x0f + 2, objectIndex: 2))
    }

    @Test(arguments: [UInt64(0x0f), 0x10, 0x12, 0x20, 0xff])
    func offsetIntoTheOffsetTableOrTrailer(offset: UInt64) throws {
        var builder = valid
        builder.offsetOverrides = [1: offset]
        let error = try #require(trailerError(builder))
        #expect(error.code == .referenceOutOfRange)
        #expect(error.location == .byteOffset(0x0f + 1, objectIndex: 1))
    }

    @Test func objectRunningIntoTheOffsetTable() throws {
        var builder = valid
        builder.objects[2] = [0x53, 0x42]
        let error = try #require(trailerError(builder))
        #expect(error.code == .truncated)
        #expect(error.location == .byteOffset(0x0e, objectIndex: 2))
        #expect(error.reason == "an ASCII string of 3 bytes needs 3 bytes at 0xe but only 1 remain before the offset table")
    }

    @Test func fixedSizeObjectsCutShort() throws {
        for marker: UInt8 in [0x10, 0x11, 0x12, 0x13, 0x14, 0x22, 0x23, 0x33, 0x80, 0x87, 0x8F] {
            let error = try #require(binaryError(bplist([marker])), "marker \(marker)")
            #expect(error.code == .truncated, "marker \(marker)")
            #expect(error.location == .byteOffset(9, objectIndex: 0))
        }
    }

    // MARK: Cycles

    @Test func arrayContainingItself() throws {
        let error = try #require(binaryError(bplist([0xA1, 0])))
        #expect(error.code == .cycle)
        #expect(error.reason == "object 0 contains itself")
        #expect(error.location == .byteOffset(9, objectIndex: 0))
        #expect(error.keyPath == "[0]")
    }

    @Test func dictionaryContainingItselfThroughAValue() throws {
        // {"k": [0, <object 0>]}
        let error = try #require(binaryError(BinaryPlistBuilder([[0xD1, 1, 2], [0x51, 0x6B], [0xA2, 3, 0], [0x10, 0]]).data))
        #expect(error.code == .cycle)
        #expect(error.reason == "object 0 contains itself (reference cycle through object 2)")
        #expect(error.keyPath == "k[1]")
    }

    @Test func dictionaryContainingItselfAsAKey() throws {
        let error = try #require(binaryError(BinaryPlistBuilder([[0xD1, 0, 1], [0x09]]).data))
        #expect(error.code == .cycle)
    }

    @Test func setContainingItself() throws {
        let error = try #require(binaryError(BinaryPlistBuilder([[0xC1, 1], [0xC1, 0]]).data))
        #expect(error.code == .cycle)
        #expect(error.location == .byteOffset(11, objectIndex: 1))
    }

    @Test func aSharedObjectIsNotACycle() throws {
        // [x, [x]] with x = [] reached twice.
        #expect(try readBinary(BinaryPlistBuilder([[0xA2, 1, 2], [0xA0], [0xA1, 1]]).data) == [[], [[]]])
    }

    // MARK: Depth

    /// `depth` arrays, each holding the next; the innermost is empty.
    func nested(_ depth: Int) -> Data {
        var objects: [[UInt8]] = (0 ..< depth - 1).map { [0xA1] + BinaryPlistBuilder.bigEndian(UInt64($0 + 1), size: 2) }
        objects.append([0xA0])
        var builder = BinaryPlistBuilder(objects)
        builder.referenceSize = 2
        return builder.data
    }

    @Test func tenThousandDeep() throws {
        let error = try #require(binaryError(nested(10_000)))
        #expect(error.code == .tooDeep)
        #expect(error.reason == "containers nested deeper than the limit of 256")
        #expect(error.location == .byteOffset(8 + 256 * 3, objectIndex: 256))
        #expect(error.keyPath == String(repeating: "[0]", count: 256))
    }

    @Test func depthLimitIsExact() throws {
        #expect(try readBinary(nested(256)).arrayValue?.count == 1)
        #expect(binaryError(nested(257))?.code == .tooDeep)
        #expect(binaryError(nested(5), options: PropertyListReadOptions(maximumDepth: 4))?.code == .tooDeep)
        #expect(try readBinary(nested(4), options: PropertyListReadOptions(maximumDepth: 4)) == [[[[]]]])
    }

    // MARK: Lengths

    @Test func dataClaimingOneHundredMegabytes() throws {
        let error = try #require(binaryError(bplist([0x4F, 0x12] + BinaryPlistBuilder.bigEndian(100_000_000, size: 4) + [UInt8](repeating: 1, count: 10))))
        #expect(error.code == .truncated)
        #expect(error.reason == "a data object of 100000000 bytes needs 100000000 bytes at 0xe but only 10 remain before the offset table")
        #expect(error.location == .byteOffset(0x0e, objectIndex: 0))
    }

    @Test func lengthsThatOverflow() throws {
        // An 8-byte length with the top bit set does not fit Int.
        let negative = try #require(binaryError(bplist([0x4F, 0x13] + [UInt8](repeating: 0xFF, count: 8) + [0])))
        #expect(negative.code == .integerOverflow)
        #expect(negative.location == .byteOffset(10, objectIndex: 0))
        // UTF-16: count × 2 overflows.
        let utf16 = try #require(binaryError(bplist([0x6F, 0x13] + BinaryPlistBuilder.bigEndian(UInt64(Int.max / 2 + 1), size: 8) + [0])))
        #expect(utf16.code == .integerOverflow)
        // Dictionary: count × 2 × reference size overflows.
        var dictionary = BinaryPlistBuilder([[0xDF, 0x13] + BinaryPlistBuilder.bigEndian(UInt64(Int.max / 8), size: 8) + [0]])
        dictionary.referenceSize = 8
        #expect(trailerError(dictionary)?.code == .integerOverflow)
        // Array: count × reference size overflows.
        var array = BinaryPlistBuilder([[0xAF, 0x13] + BinaryPlistBuilder.bigEndian(UInt64(Int.max / 4), size: 8) + [0]])
        array.referenceSize = 8
        #expect(trailerError(array)?.code == .integerOverflow)
        // Large but not overflowing: truncated.
        #expect(binaryError(bplist([0xAF, 0x12, 0xFF, 0xFF, 0xFF, 0xFF, 0]))?.code == .truncated)
        #expect(binaryError(bplist([0xDF, 0x12, 0x7F, 0xFF, 0xFF, 0xFF, 0]))?.code == .truncated)
    }

    @Test func lengthMarkersThatAreNotIntegers() throws {
        let error = try #require(binaryError(bplist([0x5F, 0x23, 0, 0, 0, 0, 0, 0, 0, 1, 0x41])))
        #expect(error.code == .invalidValue)
        #expect(error.location == .byteOffset(9, objectIndex: 0))
        // A 16-byte length is not accepted either.
        #expect(binaryError(bplist([0x5F, 0x14] + [UInt8](repeating: 0, count: 15) + [1, 0x41]))?.code == .invalidValue)
        // The length itself cut short.
        #expect(binaryError(bplist([0x5F, 0x13, 0]))?.code == .truncated)
        #expect(binaryError(bplist([0x5F]))?.code == .truncated)
    }

    // MARK: Strings

    @Test(arguments: [
        ([0x61, 0xD8, 0x3D] as [UInt8], 9, "lead surrogate 0xd83d without a trail surrogate in a UTF-16 string"),
        ([0x62, 0xD8, 0x3D, 0x00, 0x41], 9, "lead surrogate 0xd83d without a trail surrogate in a UTF-16 string"),
        ([0x61, 0xDE, 0x00], 9, "trail surrogate 0xde00 without a lead surrogate in a UTF-16 string"),
        ([0x62, 0x00, 0x41, 0xDC, 0x00], 11, "trail surrogate 0xdc00 without a lead surrogate in a UTF-16 string"),
        ([0x62, 0xD8, 0x00, 0xD8, 0x00], 9, "lead surrogate 0xd800 without a trail surrogate in a UTF-16 string"),
    ])
    func badSurrogates(object: [UInt8], offset: Int, reason: String) throws {
        let error = try #require(binaryError(bplist(object)))
        #expect(error.code == .invalidString)
        #expect(error.reason == reason)
        #expect(error.location == .byteOffset(offset, objectIndex: 0))
    }

    @Test func utf16StringCutShort() throws {
        let error = try #require(binaryError(bplist([0x63, 0x00, 0x41, 0x00])))
        #expect(error.code == .truncated)
    }

    // MARK: Every prefix

    static let binaryFixtures = [
        "libplist/data.bplist", "libplist/dictref1byte.bplist", "libplist/dictref2bytes.bplist", "libplist/dictref3bytes.bplist",
        "libplist/dictref4bytes.bplist", "libplist/dictref5bytes.bplist", "libplist/dictref6bytes.bplist", "libplist/dictref7bytes.bplist",
        "libplist/dictref8bytes.bplist", "libplist/malformed_dict.bplist", "libplist/off1byte.bplist", "libplist/off2bytes.bplist",
        "libplist/off3bytes.bplist", "libplist/off4bytes.bplist", "libplist/off5bytes.bplist", "libplist/off6bytes.bplist",
        "libplist/off7bytes.bplist", "libplist/off8bytes.bplist", "libplist/order.bplist", "libplist/recursion.bplist",
        "libplist/signed.bplist", "libplist/signedunsigned.bplist", "libplist/uid.bplist", "libplist/unsigned.bplist",
        "real/ios10.1-current-request.bplist", "real/ios10.1-original-request.bplist",
    ]

    @Test(arguments: binaryFixtures)
    func everyPrefixFailsCleanly(name: String) throws {
        let data = try fixture(name)
        for length in 0 ..< data.count {
            do {
                _ = try readBinary(data.prefix(length))
                Issue.record("\(name): the \(length)-byte prefix was accepted")
            } catch let error as PropertyListError {
                // A prefix loses the real trailer, so only these kinds of failure can occur.
                #expect([.unknownFormat, .truncated, .invalidTrailer, .tooManyObjects].contains(error.code), "\(name)[..<\(length)]: \(error)")
                guard case .byteOffset(let offset, _) = error.location else {
                    Issue.record("\(name)[..<\(length)]: no byte offset in \(error)")
                    continue
                }
                #expect(offset >= 0 && offset <= length)
            }
        }
    }

    @Test(arguments: binaryFixtures)
    func everySingleByteCorruptionFailsCleanlyOrReads(name: String) throws {
        // Not a promise of rejection (many bytes can change harmlessly), only of a clean outcome:
        // a value that writes back as binary and reads back equal (the binary fuzzer's property),
        // or a reader's error placed inside the input.
        let data = try fixture(name)
        let original = Result { try readBinary(data) }
        var (read, refused) = (0, 0)
        for index in data.indices {
            for replacement: UInt8 in [0x00, 0xFF, data[index] ^ 0x01] where replacement != data[index] {
                var corrupted = data
                corrupted[index] = replacement
                do {
                    _ = try readBinary(corrupted)
                    read += 1
                    #expect(RoundTripCheck.binaryPropertyList(corrupted) == nil, "\(name)[\(index)] = \(replacement)")
                } catch let error as PropertyListError {
                    refused += 1
                    if case .byteOffset(let offset, _) = error.location {
                        #expect(offset >= 0 && offset <= data.count, "\(name)[\(index)] = \(replacement): \(error)")
                    }
                } catch {
                    Issue.record("\(name)[\(index)] = \(replacement): not a PropertyListError: \(error)")
                }
            }
        }
        // Both outcomes were reached: the trailer's bytes always refuse, and a fixture that reads
        // has bytes (string contents, unused padding) whose change still reads.
        #expect(refused > 0, "\(name): no corruption was refused")
        if case .success = original {
            #expect(read > 0, "\(name): reads, yet no corruption of it read")
        }
    }
}
