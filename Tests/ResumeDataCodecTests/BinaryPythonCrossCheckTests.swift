import Foundation
import Testing
@testable import ResumeDataCodec

/// Checks the binary reader and writer against Python's plistlib, run as a subprocess (python3 is
/// on every machine this project builds on). Values travel to and from Python as tagged JSON:
/// `["s", text]`, `["i", "decimal"]`, `["f", "hex of the double's bits"]`, `["b", "1"]`,
/// `["d", "hex bits of seconds since 2001"]`, `["x", "hex bytes"]`, `["u", "decimal"]`,
/// `["a", [items]]`, `["D", [[key, item], …]]` (key order kept), `["n", ""]` (the null object,
/// Python's `None`); ``untagged(_:)`` also reads `["S", [items]]` as a set (the peer suites'
/// fixtures use it; plistlib has no sets).
@Suite struct BinaryPythonCrossCheckTests {
    static let script = #"""
    import datetime, json, plistlib, struct, sys

    EPOCH = datetime.datetime(2001, 1, 1)
    uids = {}  # one UID object per number, so plistlib shares equal UIDs as it shares other scalars

    def to_py(tagged):
        tag, v = tagged
        if tag == 's': return v
        if tag == 'i': return int(v)
        if tag == 'f': return struct.unpack('>d', bytes.fromhex(v))[0]
        if tag == 'b': return v == '1'
        if tag == 'd': return EPOCH + datetime.timedelta(seconds=struct.unpack('>d', bytes.fromhex(v))[0])
        if tag == 'x': return bytes.fromhex(v)
        if tag == 'u': return uids.setdefault(int(v), plistlib.UID(int(v)))
        if tag == 'n': return None
        if tag == 'a': return [to_py(x) for x in v]
        if tag == 'D': return {k: to_py(x) for k, x in v}
        raise ValueError(tag)

    def from_py(o):
        if o is None: return ['n', '']
        if isinstance(o, bool): return ['b', '1' if o else '0']
        if isinstance(o, int): return ['i', str(o)]
        if isinstance(o, float): return ['f', struct.pack('>d', o).hex()]
        if isinstance(o, str): return ['s', o]
        if isinstance(o, bytes): return ['x', o.hex()]
        if isinstance(o, datetime.datetime): return ['d', struct.pack('>d', (o - EPOCH).total_seconds()).hex()]
        if isinstance(o, plistlib.UID): return ['u', str(o.data)]
        if isinstance(o, list): return ['a', [from_py(x) for x in o]]
        if isinstance(o, dict): return ['D', [[k, from_py(x)] for k, x in o.items()]]
        raise TypeError(type(o))

    mode, source, target = sys.argv[1:4]
    with open(source, encoding='utf-8') as f:
        items = json.load(f)
    if mode in ('dump', 'dumpxml'):
        fmt = plistlib.FMT_XML if mode == 'dumpxml' else plistlib.FMT_BINARY
        out = [plistlib.dumps(to_py(t), fmt=fmt, sort_keys=False).hex() for t in items]
    else:
        out = [from_py(plistlib.loads(bytes.fromhex(h))) for h in items]
    with open(target, 'w', encoding='utf-8') as f:
        json.dump(out, f)
    """#

    struct PythonFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs the script in `mode` over a JSON array and returns the JSON array it writes.
    func python(_ mode: String, _ input: String) throws -> [Any] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bplist-python-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let scriptURL = directory.appendingPathComponent("check.py")
        let inputURL = directory.appendingPathComponent("in.json")
        let outputURL = directory.appendingPathComponent("out.json")
        let errorURL = directory.appendingPathComponent("stderr.txt")
        try Data(Self.script.utf8).write(to: scriptURL)
        try Data(input.utf8).write(to: inputURL)
        try Data().write(to: errorURL)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", scriptURL.path, mode, inputURL.path, outputURL.path]
        process.standardError = try FileHandle(forWritingTo: errorURL)
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw PythonFailure(description: "python3 exited with \(process.terminationStatus): \(String(decoding: (try? Data(contentsOf: errorURL)) ?? Data(), as: UTF8.self))")
        }
        let output = try JSONSerialization.jsonObject(with: Data(contentsOf: outputURL))
        guard let array = output as? [Any] else { throw PythonFailure(description: "python3 wrote \(output)") }
        return array
    }

    // MARK: Tagged JSON

    static func json(_ string: String) -> String {
        var result = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case _ where scalar.value < 0x20: result += String(format: "\\u%04x", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    static func hexBits(_ value: Double) -> String {
        hex((0 ..< 8).map { UInt8(truncatingIfNeeded: value.bitPattern >> UInt64(56 - 8 * $0)) })
    }

    static func tagged(_ value: PropertyListValue) -> String {
        switch value {
        case .string(let string): "[\"s\",\(json(string))]"
        case .integer(let integer): "[\"i\",\"\(integer)\"]"
        case .real(let real): "[\"f\",\"\(hexBits(real.value))\"]"
        case .boolean(let boolean): "[\"b\",\"\(boolean ? 1 : 0)\"]"
        case .date(let date): "[\"d\",\"\(hexBits(date.timeIntervalSinceReferenceDate))\"]"
        case .data(let data): "[\"x\",\"\(hex(data))\"]"
        case .uid(let uid): "[\"u\",\"\(uid)\"]"
        case .null: "[\"n\",\"\"]"
        case .array(let elements), .set(let elements): "[\"a\",[\(elements.map(tagged).joined(separator: ","))]]"
        case .dictionary(let dictionary): "[\"D\",[\(dictionary.map { "[\(json($0.key)),\(tagged($0.value))]" }.joined(separator: ","))]]"
        }
    }

    static func bytes(fromHex hex: String) throws -> Data {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { throw PythonFailure(description: "odd hex") }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index ..< index + 2], as: UTF8.self), radix: 16) else {
                throw PythonFailure(description: "bad hex")
            }
            bytes.append(byte)
        }
        return Data(bytes)
    }

    static func double(fromHex hex: String) throws -> Double {
        let bits = try bytes(fromHex: hex).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Double(bitPattern: bits)
    }

    static func untagged(_ object: Any) throws -> PropertyListValue {
        guard let pair = object as? [Any], pair.count == 2, let tag = pair[0] as? String else {
            throw PythonFailure(description: "not a tagged value: \(object)")
        }
        let payload = pair[1]
        func text() throws -> String {
            guard let text = payload as? String else { throw PythonFailure(description: "expected text in \(object)") }
            return text
        }
        switch tag {
        case "s": return .string(try text())
        case "i":
            let text = try text()
            if let signed = Int64(text) { return .integer(PropertyListInteger(signed)) }
            guard let unsigned = UInt64(text) else { throw PythonFailure(description: "integer \(text)") }
            return .integer(PropertyListInteger(unsigned))
        case "f": return .real(PropertyListReal(try double(fromHex: text())))
        case "b": return .boolean(try text() == "1")
        case "d": return .date(Date(timeIntervalSinceReferenceDate: try double(fromHex: text())))
        case "x": return .data(try bytes(fromHex: text()))
        case "u":
            guard let uid = UInt64(try text()) else { throw PythonFailure(description: "uid in \(object)") }
            return .uid(uid)
        case "n": return .null
        case "a", "S":
            guard let items = payload as? [Any] else { throw PythonFailure(description: "array in \(object)") }
            return tag == "a" ? .array(try items.map(untagged)) : .set(try items.map(untagged))
        case "D":
            guard let entries = payload as? [Any] else { throw PythonFailure(description: "dict in \(object)") }
            var dictionary = PropertyListDictionary()
            for entry in entries {
                guard let pair = entry as? [Any], pair.count == 2, let key = pair[0] as? String else {
                    throw PythonFailure(description: "entry in \(object)")
                }
                dictionary[key] = try untagged(pair[1])
            }
            return .dictionary(dictionary)
        default:
            throw PythonFailure(description: "unknown tag \(tag)")
        }
    }

    /// What plistlib makes of a value: 32-bit reals widen to 64 bits, sets become arrays.
    static func pythonView(_ value: PropertyListValue) -> PropertyListValue {
        switch value {
        case .real(let real) where real.isSinglePrecision: .real(PropertyListReal(real.value))
        case .array(let elements), .set(let elements): .array(elements.map(pythonView))
        case .dictionary(let dictionary):
            .dictionary(PropertyListDictionary(entries: dictionary.map { ($0.key, pythonView($0.value)) }) ?? [:])
        default: value
        }
    }

    // MARK: Corpus

    /// Values chosen to cover every size class: edge integers, long strings and data (length
    /// objects), 256+ objects (2-byte references) and 64 KiB+ of objects (4-byte offsets).
    static var fixedCorpus: [PropertyListValue] {
        let integers: [PropertyListValue] = [
            0, 1, 255, 256, 65535, 65536, .integer(PropertyListInteger(Int64(UInt32.max))), .integer(PropertyListInteger(Int64(UInt32.max) + 1)),
            -1, -256, .integer(PropertyListInteger(Int64.min)), .integer(PropertyListInteger(Int64.max)),
            .integer(PropertyListInteger(UInt64(1) << 63)), .integer(PropertyListInteger(UInt64.max)),
        ]
        return [
            .array(integers),
            ["A": "B"],
            "",
            "plain ascii",
            .string(String(repeating: "long ascii string ", count: 20)),
            "é and 😀 and 日本語",
            ["é": "e\u{301}", "e\u{301}x": "é"],
            .data(Data()),
            .data(Data((0 ..< 100).map { UInt8($0) })),
            .data(Data(repeating: 0xA5, count: 70_000)),
            .array((0 ..< 300).map { .string("string \($0)") }),
            .array((0 ..< 70_000).map { .integer(PropertyListInteger($0)) }),
            [.uid(0), .uid(255), .uid(256), .uid(65536), .uid(UInt64(UInt32.max) + 1), .uid(UInt64.max), .uid(0)],
            [.date(Date(timeIntervalSinceReferenceDate: 0)), .date(Date(timeIntervalSinceReferenceDate: -978_307_200)), .date(Date(timeIntervalSinceReferenceDate: 500_000_000))],
            [1.5, 0.1, 1e300, .real(PropertyListReal(Double.infinity)), .real(PropertyListReal(-Double.infinity))],
            [true, false, 1, 1.0, "1", true, 1, 1.0, "1"],
            ["$version": 100000, "$archiver": "NSKeyedArchiver", "$top": ["root": .uid(1)], "$objects": ["$null", ["NS.keys": [.uid(2)], "NS.objects": [.uid(3)], "$class": .uid(4)], "k", "v"]],
            [[], [:], [[]], ["x": [:]]],
            // plistlib writes None as the null object (0x00), as CoreFoundation writes kCFNull.
            [.null, false, .null, ["n": .null]],
        ]
    }

    // MARK: Tests

    @Test func plistlibWritesTheSameBytesAndWeReadThem() throws {
        var random = RandomPropertyList(seed: 0xC0FF_EE00, pythonCompatible: true)
        let corpus = Self.fixedCorpus + (0 ..< 200).map { _ in random.value() }
        let output = try python("dump", "[" + corpus.map(Self.tagged).joined(separator: ",") + "]")
        try #require(output.count == corpus.count)
        for (value, hex) in zip(corpus, output) {
            let pythonBytes = try Self.bytes(fromHex: try #require(hex as? String))
            let ours = try BinaryPropertyListWriter().write(value)
            #expect(ours == pythonBytes, "bytes differ for \(value)")
            let read = try readBinary(pythonBytes)
            #expect(read == value)
            // Same key order too: our re-encoding of what we read equals plistlib's bytes.
            #expect(try BinaryPropertyListWriter().write(read) == pythonBytes)
        }
    }

    @Test func plistlibReadsOurOutput() throws {
        // Everything plistlib can read, 32-bit reals, -0.0 and nan included; sets become arrays
        // first (plistlib does not read sets).
        var random = RandomPropertyList(seed: 0xFACE_B00C)
        let corpus = Self.fixedCorpus + [[.real(PropertyListReal(Float(1.5))), -0.0, .real(PropertyListReal(Double.nan)), 0.0]]
            + (0 ..< 200).map { _ in random.value() }
        let values = corpus.map(Self.withoutSets)
        let encoded = try values.map { try BinaryPropertyListWriter().write($0) }
        let output = try python("load", "[" + encoded.map { "\"\(Self.hex($0))\"" }.joined(separator: ",") + "]")
        try #require(output.count == values.count)
        for (value, tagged) in zip(values, output) {
            let read = try Self.untagged(tagged)
            let expected = Self.pythonView(value)
            #expect(read == expected)
            #expect(try BinaryPropertyListWriter().write(read) == BinaryPropertyListWriter().write(expected), "order or exact value differs for \(value)")
        }
    }

    static func withoutSets(_ value: PropertyListValue) -> PropertyListValue {
        switch value {
        case .array(let elements), .set(let elements): .array(elements.map(withoutSets))
        case .dictionary(let dictionary): .dictionary(PropertyListDictionary(entries: dictionary.map { ($0.key, withoutSets($0.value)) }) ?? [:])
        default: value
        }
    }

    @Test func plistlibReadsTheFixturesAsWeDo() throws {
        let names = ["libplist/data.bplist", "libplist/order.bplist", "libplist/signedunsigned.bplist", "libplist/uid.bplist",
                     "libplist/dictref5bytes.bplist", "libplist/off7bytes.bplist", "real/ios10.1-current-request.bplist", "real/ios10.1-original-request.bplist"]
        let files = try names.map { try fixture($0) }
        let output = try python("load", "[" + files.map { "\"\(Self.hex($0))\"" }.joined(separator: ",") + "]")
        try #require(output.count == files.count)
        for (name, (data, tagged)) in zip(names, zip(files, output)) {
            #expect(try readBinary(data) == Self.untagged(tagged), "\(name)")
        }
    }
}
