import Foundation

// What the reader reads objects into; apart so the reader's file keeps to its steps.
extension BinaryRequestArchiveReader {
    /// What an object of the property list is, read in place (after ``validate()``).
    enum Node {
        case boolean(Bool)
        case integer(PropertyListInteger)
        case real(PropertyListReal)
        case date(Date)
        /// Bytes `start ..< start + count`.
        case data(start: Int, count: Int)
        /// ASCII bytes `start ..< start + count`.
        case ascii(start: Int, count: Int)
        case uid(UInt64)
        /// `count` references from `references`.
        case array(references: Int, count: Int)
        /// `count` key references from `references`, then `count` value references.
        case dictionary(references: Int, count: Int)
    }

    /// A class description as read, with what ``decodeObject(references:count:uid:)`` does with
    /// its objects, worked out once per class rather than by comparing names per object.
    struct ObjectClass {
        enum Kind { case dictionary, array, string, data, url, date, other }
        var name: String
        var chain: [String]
        var kind: Kind

        init(name: String, chain: [String]) {
            self.name = name
            self.chain = chain
            switch name {
            case "NSDictionary", "NSMutableDictionary": kind = .dictionary
            case "NSArray", "NSMutableArray": kind = .array
            case "NSString", "NSMutableString": kind = .string
            case "NSData", "NSMutableData": kind = .data
            case "NSURL": kind = .url
            case "NSDate": kind = .date
            default: kind = .other
            }
        }
    }
}
