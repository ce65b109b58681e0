import Foundation
import ResumeDataCodec

/// The property lists the benchmark reads and writes, made with the library so that every run
/// (and every machine) measures the same bytes.
enum BenchmarkInputs {
    /// A resume dictionary as iOS 10 saves it: download URL, sizes, dates, and the current and
    /// original requests as keyed-archive `data` of about 2 KB each (long headers, as an
    /// authenticated download carries).
    static func resumeDictionary() throws -> PropertyListValue {
        let partial = FileManager.default.temporaryDirectory
            .appendingPathComponent("plist-benchmark-partial-\(getpid())").path
        guard FileManager.default.createFile(atPath: partial, contents: nil),
              let handle = FileHandle(forWritingAtPath: partial) else {
            throw BenchmarkError("cannot create \(partial)")
        }
        defer { try? FileManager.default.removeItem(atPath: partial) }
        // A sparse partial file: only its size goes into the resume data.
        try handle.truncate(atOffset: 48_213_504)
        try handle.close()

        let token = String(repeating: "eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9", count: 12)
        let rebuilder = ResumeDataRebuilder(
            url: "https://downloads.example.com/releases/2026/11/resumetool-sample-archive-with-a-long-name.tar.gz?token=8f14e45fceea167a5a36dedd4bea2543",
            entityTag: "\"5f3c1a-2dfe000-5a3b2c1d0e9f8\"",
            lastModified: "Sat, 21 Nov 2026 09:41:07 GMT",
            headers: [
                try HTTPHeaderField(name: "Authorization", value: "Bearer " + token),
                try HTTPHeaderField(name: "User-Agent", value: "ExampleDownloader/4.2.1 (iPhone; iOS 10.1; Scale/3.00) CFNetwork/808.1.4 Darwin/16.1.0"),
                try HTTPHeaderField(name: "Accept-Language", value: "en-GB;q=1, fr-FR;q=0.9, de-DE;q=0.8, es-ES;q=0.7, it-IT;q=0.6"),
                try HTTPHeaderField(name: "Cookie", value: "session=" + String(repeating: "a1b2c3d4e5f6", count: 20) + "; theme=dark; consent=accepted"),
                try HTTPHeaderField(name: "X-Request-Trace", value: "trace-" + String(repeating: "0123456789abcdef", count: 8)),
            ],
            container: .xml
        )
        return .dictionary(try rebuilder.rebuild(fromPartialFile: partial).entries)
    }

    /// An array of `count` download records, each a dictionary of strings, integers, a real, a
    /// date, a boolean and 32 bytes of data. Every record differs, so writers cannot share much.
    static func records(count: Int) -> PropertyListValue {
        var items: [PropertyListValue] = []
        items.reserveCapacity(count)
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        for index in 0..<count {
            var bytes = [UInt8]()
            bytes.reserveCapacity(32)
            for _ in 0..<4 {
                // xorshift64*: cheap deterministic bytes.
                seed ^= seed >> 12
                seed ^= seed << 25
                seed ^= seed >> 27
                let word = seed &* 0x2545_F491_4F6C_DD1D
                withUnsafeBytes(of: word) { bytes.append(contentsOf: $0) }
            }
            var record = PropertyListDictionary()
            record["identifier"] = .string("download-\(index)")
            record["title"] = .string("Nightly build \(index % 9_973), part \(index) of the archive")
            record["bytes"] = .integer(PropertyListInteger(Int64(index) &* 7_919 % 10_000_000_000))
            record["progress"] = .real(PropertyListReal(Double(index % 1_000) / 1_000 + Double(index) * 1e-9))
            record["modified"] = .date(Date(timeIntervalSinceReferenceDate: 500_000_000 + Double(index) * 37))
            record["complete"] = .boolean(index % 3 == 0)
            record["checksum"] = .data(Data(bytes))
            items.append(.dictionary(record))
        }
        return .array(items)
    }

    /// ``records(count:)`` sized so that its encoding in `format` is about `targetBytes` long.
    static func records(about targetBytes: Int, as format: PropertyListFormat) throws -> (value: PropertyListValue, bytes: Data) {
        let sampleCount = 2_000
        let sample = try PropertyListWriter().write(records(count: sampleCount), as: format)
        var count = max(1, Int(Double(targetBytes) / Double(sample.count) * Double(sampleCount)))
        var value = records(count: count)
        var bytes = try PropertyListWriter().write(value, as: format)
        // Reference and offset sizes grow with the object count, so scale once more at full size.
        if abs(bytes.count - targetBytes) > targetBytes / 50 {
            count = max(1, Int(Double(targetBytes) / Double(bytes.count) * Double(count)))
            value = records(count: count)
            bytes = try PropertyListWriter().write(value, as: format)
        }
        return (value, bytes)
    }
}

/// A failure of the benchmark itself (not of the code it measures).
struct BenchmarkError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
