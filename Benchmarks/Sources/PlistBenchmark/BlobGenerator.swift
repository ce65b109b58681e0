import Foundation
import ResumeDataCodec

/// Writes the resume blobs of the inspect benchmark (`Benchmarks/compare.sh`): `count` blobs that
/// cycle through the four containers, each with its own URL, size, validators and headers, made
/// with `ResumeDataRebuilder` as a real partial download would be.
enum BlobGenerator {
    static let flag = "--generate-blobs"

    /// `--generate-blobs DIR [--count N]`
    static func run(_ arguments: ArraySlice<String>) throws {
        var rest = arguments
        guard let directory = rest.popFirst() else { throw BenchmarkError("\(flag) needs a directory") }
        var count = 10_000
        while let word = rest.popFirst() {
            guard word == "--count", let value = rest.popFirst().flatMap(Int.init), value > 0 else {
                throw BenchmarkError("usage: PlistBenchmark \(flag) DIR [--count N]")
            }
            count = value
        }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let partial = directory + "/CFNetworkDownload_bench.tmp"
        guard FileManager.default.createFile(atPath: partial, contents: nil) else {
            throw BenchmarkError("cannot create \(partial)")
        }
        defer { try? FileManager.default.removeItem(atPath: partial) }
        // The classic containers, as rebuild writes them (the benchmark set predates the Network-framework format).
        let containers = ResumeDataContainer.allCases.filter { $0 != .networkFramework && $0 != .networkFrameworkWebKit }
        var seed: UInt64 = 0x2545_F491_4F6C_DD1D
        func next() -> UInt64 {
            // xorshift64: cheap deterministic variety.
            seed ^= seed << 13
            seed ^= seed >> 7
            seed ^= seed << 17
            return seed
        }
        var bytes = 0
        for index in 0..<count {
            let container = containers[index % containers.count]
            // A sparse partial file: only its size goes into the blob.
            guard truncate(partial, off_t(next() % 8_000_000_000)) == 0 else {
                throw BenchmarkError("cannot resize \(partial)")
            }
            let host = ["downloads.example.com", "cdn\(index % 17).example.net", "files.example.org"][index % 3]
            var headers: [(name: String, value: String)] = [
                (name: "User-Agent", value: "ExampleDownloader/\(index % 9).\(index % 5) CFNetwork/808.1.4 Darwin/16.1.0"),
            ]
            if index % 2 == 0 {
                headers.append((name: "Authorization", value: "Bearer " + String(next(), radix: 36) + String(next(), radix: 36)))
            }
            if index % 5 == 0 {
                headers.append((name: "Cookie", value: "session=\(String(next(), radix: 16)); theme=dark"))
            }
            let rebuilder = ResumeDataRebuilder(
                url: "https://\(host)/releases/\(2000 + index % 27)/build-\(index)/archive-\(String(next() % 1_000_000, radix: 16)).tar.gz?token=\(String(next(), radix: 16))",
                entityTag: index % 3 == 2 ? nil : "\"\(String(next() % 0xFFFFFF, radix: 16))-\(String(next() % 0xFFFFFFF, radix: 16))\"",
                lastModified: index % 3 == 1 ? nil : "Sat, \(10 + index % 18) Nov 2026 09:41:07 GMT",
                headers: try headers.map { try HTTPHeaderField(name: $0.name, value: $0.value) },
                container: container,
                useLocalPath: index % 7 == 0
            )
            let blob = try rebuilder.rebuild(fromPartialFile: partial).encoded(as: container)
            let name = String(format: "%@/blob-%05d-%@.resumedata", directory, index, container.rawValue)
            guard FileManager.default.createFile(atPath: name, contents: blob) else {
                throw BenchmarkError("cannot write \(name)")
            }
            bytes += blob.count
        }
        FileHandle.standardError.write(Data("wrote \(count) blobs (\(bytes) bytes) to \(directory)\n".utf8))
    }
}
