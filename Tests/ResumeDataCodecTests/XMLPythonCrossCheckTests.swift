import Foundation
import Testing
@testable import ResumeDataCodec

/// Checks the XML reader and writer against Python's plistlib, through the same subprocess and
/// tagged-JSON exchange as the binary cross-check.
@Suite struct XMLPythonCrossCheckTests {
    typealias Python = BinaryPythonCrossCheckTests

    /// What plistlib's XML writer can hold: no UIDs, sets or nulls; whole-second dates.
    static func xmlCompatible(_ value: PropertyListValue) -> PropertyListValue? {
        switch value {
        case .uid, .set, .null: return nil
        case .array(let items): return .array(items.compactMap(xmlCompatible))
        case .dictionary(let dictionary):
            return .dictionary(PropertyListDictionary(entries: dictionary.compactMap { entry in xmlCompatible(entry.value).map { (entry.key, $0) } }) ?? [:])
        default: return value
        }
    }

    static func containsReal(_ value: PropertyListValue) -> Bool {
        switch value {
        case .real: true
        case .array(let items), .set(let items): items.contains(where: containsReal)
        case .dictionary(let dictionary): dictionary.values.contains(where: containsReal)
        default: false
        }
    }

    static func corpus(seed: UInt64) -> [PropertyListValue] {
        var random = RandomPropertyList(seed: seed, pythonCompatible: true)
        // The fixed corpus's 70,000-element values exist to reach binary size classes; XML has
        // none, so they only slow the test.
        let small = Python.fixedCorpus.filter { value in
            switch value {
            case .array(let items): items.count < 1000
            case .data(let bytes): bytes.count < 10_000
            default: true
            }
        }
        return (small + (0 ..< 150).map { _ in random.value() }).compactMap(xmlCompatible)
    }

    @Test func plistlibWritesXMLWeReadAndTheSameBytesAsOursWithoutReals() throws {
        let corpus = Self.corpus(seed: 0x5EED_0001)
        let output = try Python().python("dumpxml", "[" + corpus.map(Python.tagged).joined(separator: ",") + "]")
        try #require(output.count == corpus.count)
        var compared = 0
        for (value, hex) in zip(corpus, output) {
            let pythonBytes = try Python.bytes(fromHex: try #require(hex as? String))
            let read = try PropertyListReader().read(pythonBytes)
            #expect(read.format == .xml)
            #expect(read.value == value)
            // plistlib prints reals with repr(), CoreFoundation (and we) with %.17g: only the
            // real-free values can match byte for byte.
            if !Self.containsReal(value) {
                #expect(try PropertyListWriter().write(value, as: .xml) == pythonBytes, "bytes differ for \(value)")
                compared += 1
            }
        }
        #expect(compared > 50)
    }

    @Test func plistlibReadsOurXML() throws {
        let corpus = Self.corpus(seed: 0x5EED_0002)
        let encoded = try corpus.map { try PropertyListWriter().write($0, as: .xml) }
        let output = try Python().python("load", "[" + encoded.map { "\"\(Python.hex($0))\"" }.joined(separator: ",") + "]")
        try #require(output.count == corpus.count)
        for (value, tagged) in zip(corpus, output) {
            #expect(try Python.untagged(tagged) == value)
        }
    }
}
