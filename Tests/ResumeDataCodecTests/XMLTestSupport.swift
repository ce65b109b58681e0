import Foundation
import Testing
@testable import ResumeDataCodec

/// Helpers shared by the XML reader, writer and hostile-input tests.
enum XMLTestSupport {
    static let header = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """

    static func read(_ text: String, options: PropertyListReadOptions = .default) throws -> PropertyListValue {
        try XMLPropertyListReader(options: options).read(Data(text.utf8))
    }

    static func read(bytes: [UInt8], options: PropertyListReadOptions = .default) throws -> PropertyListValue {
        try XMLPropertyListReader(options: options).read(Data(bytes))
    }

    /// The error reading `text` throws, or `nil` when it reads.
    static func readError(_ text: String, options: PropertyListReadOptions = .default) -> PropertyListError? {
        readError(bytes: Array(text.utf8), options: options)
    }

    static func readError(bytes: [UInt8], options: PropertyListReadOptions = .default) -> PropertyListError? {
        do {
            _ = try XMLPropertyListReader(options: options).read(Data(bytes))
            return nil
        } catch let error as PropertyListError {
            return error
        } catch {
            Issue.record("unexpected error type \(error)")
            return nil
        }
    }

    static func write(_ value: PropertyListValue, keyOrder: PropertyListWriter.KeyOrder = .preserved) throws -> String {
        String(decoding: try XMLPropertyListWriter(keyOrder: keyOrder).write(value), as: UTF8.self)
    }

    static func fixture(_ name: String) throws -> Data {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/libplist/\(name)", withExtension: nil))
        return try Data(contentsOf: url)
    }

    /// The XML fixtures libplist's README says must round-trip.
    static let roundTripFixtures = [
        "1.plist", "2.plist", "3.plist", "4.plist", "6.plist", "7.plist", "cdata.plist",
        "empty_keys.plist", "entities.plist", "hex.plist",
    ]

    /// Every XML fixture, the ones that must be rejected included.
    static let allXMLFixtures = roundTripFixtures + [
        "amp.plist", "invalid_tag.plist", "offxml.plist", "order.plist", "signed.plist",
        "unsigned.plist", "signedunsigned.plist",
    ]

    static func date(_ secondsSince1970: Int) -> PropertyListValue {
        .date(Date(timeIntervalSince1970: TimeInterval(secondsSince1970)))
    }
}
