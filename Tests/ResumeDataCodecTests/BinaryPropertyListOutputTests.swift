import Foundation
import Testing
@testable import ResumeDataCodec

// The output is non-copyable and `#expect` copies what it inspects, so results go through locals.
@Suite struct BinaryPropertyListOutputTests {
    @Test(arguments: [1, 2, 4, 8])
    func storeAndLoadBigEndianOfEveryWidth(size: Int) throws {
        var output = try BinaryPropertyListOutput(capacity: 0)
        output.skip(3 + size)
        let value: UInt64 = size == 8 ? 0x0102_0304_0506_0708 : (1 << UInt64(8 * size)) - 2
        output.store(value, size: size, at: 3)
        let stored = output.load(at: 3, size: size)
        let first = output.byte(at: 3)
        output.appendInteger(value, size: size)
        let appended = output.load(at: 3 + size, size: size)
        let count = output.count
        let overran = output.overran
        let data = output.finish()
        #expect(stored == value)
        #expect(appended == value)
        #expect(first == UInt8(truncatingIfNeeded: value >> UInt64(8 * (size - 1))))
        #expect(count == 3 + 2 * size)
        #expect(!overran)
        #expect(data.count == 3 + 2 * size)
        #expect(data.suffix(size) == Data(BinaryPlistBuilder.bigEndian(value, size: size)))
    }

    @Test func accessOutsideTheWrittenBytesIsRecorded() throws {
        for access in 0 ..< 5 {
            var output = try BinaryPropertyListOutput(capacity: 64)
            output.append(contentsOf: [1, 2, 3, 4])
            switch access {
            case 0: output.store(1, size: 2, at: 3)
            case 1: _ = output.load(at: 2, size: 4)
            case 2: output.move(from: 0, to: 2, count: 3)
            case 3: output.truncate(to: 5)
            default: output.store(1, size: 1, at: -1)
            }
            let overran = output.overran
            let outside = output.byte(at: 4)
            let data = output.finish()
            #expect(overran, "access \(access)")
            #expect(outside == 0)
            #expect(data == Data([1, 2, 3, 4]), "access \(access)")
        }
    }

    @Test func moveTruncateAndCompare() throws {
        var output = try BinaryPropertyListOutput(capacity: 0)
        output.append(contentsOf: [1, 2, 3, 4, 5, 1, 2, 3])
        let equal = output.bytesEqual(0, 5, count: 3)
        let different = output.bytesEqual(0, 4, count: 3)
        output.move(from: 2, to: 0, count: 4)
        output.truncate(to: 4)
        let overran = output.overran
        let data = output.finish()
        #expect(equal)
        #expect(!different)
        #expect(!overran)
        #expect(data == Data([3, 4, 5, 1]))
    }

    @Test func growsPastItsCapacity() throws {
        var output = try BinaryPropertyListOutput(capacity: 16)
        let bytes = (0 ..< 10_000).map { UInt8(truncatingIfNeeded: $0) }
        output.append(contentsOf: bytes)
        output.append(7)
        #expect(output.finish() == Data(bytes + [7]))
    }
}
