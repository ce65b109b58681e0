import CBCLibCrypto
import Crypto
import CryptoExtras
import Foundation
#if canImport(Glibc)
import Glibc
#endif

// AES-256-CBC decryption of an encrypted backup, two ways, alternating in every round: swift-crypto's
// `AES._CBC` (block by block through `AES.inversePermute`) and the system's libcrypto through the
// package's own shim (Sources/CCryptoShim, compiled here from the same file). Two workloads, as a
// scan has them: one Manifest.db-sized buffer, and the first block of each of many files.
//
//     swift build -c release --product CBCBenchmark
//     .build/release/CBCBenchmark [MiB, 48] [first blocks, 50000] [runs, 7]

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let mebibytes = arguments.count > 0 ? arguments[0] : 48
let firstBlocks = arguments.count > 1 ? arguments[1] : 50_000
let runs = arguments.count > 2 ? arguments[2] : 7

func cpuSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

func wallSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

var generator = SystemRandomNumberGenerator()
let key = SymmetricKey(size: .bits256)
let zeroIV = Data(repeating: 0, count: 16)
let plaintext = Data((0..<(mebibytes << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) })
let ciphertext = try AES._CBC.encrypt(plaintext, using: key, iv: AES._CBC.IV(ivBytes: zeroIV), noPadding: true)
let blocks = (0..<firstBlocks).map { index in ciphertext.subdata(in: (index % 1024) * 16..<((index % 1024) + 1) * 16) }

func swiftCrypto(_ input: Data, _ key: SymmetricKey, _ zeroIV: Data) -> Data {
    try! AES._CBC.decrypt(input, using: key, iv: AES._CBC.IV(ivBytes: zeroIV), noPadding: true)
}

func libcrypto(_ input: Data, _ key: SymmetricKey, _ zeroIV: Data) -> Data {
    var output = Data(count: input.count)
    let status = key.withUnsafeBytes { keyBytes in
        zeroIV.withUnsafeBytes { ivBytes in
            input.withUnsafeBytes { inputBytes in
                output.withUnsafeMutableBytes { outputBytes in
                    ccrypto_aes_cbc_decrypt(keyBytes.baseAddress!.assumingMemoryBound(to: UInt8.self), keyBytes.count,
                                            ivBytes.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                            inputBytes.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                            outputBytes.baseAddress!.assumingMemoryBound(to: UInt8.self), input.count)
                }
            }
        }
    }
    precondition(status == CCRYPTO_OK.rawValue)
    return output
}

precondition(swiftCrypto(ciphertext, key, zeroIV) == plaintext && libcrypto(ciphertext, key, zeroIV) == plaintext, "the two disagree")

struct Sample { var wall: Double; var cpu: Double }
func measure(_ body: () -> Void) -> Sample {
    let (wall, cpu) = (wallSeconds(), cpuSeconds())
    body()
    return Sample(wall: wallSeconds() - wall, cpu: cpuSeconds() - cpu)
}

let ways: [(String, (Data, SymmetricKey, Data) -> Data)] = [("swift-crypto AES._CBC", swiftCrypto), ("libcrypto (CCryptoShim)", libcrypto)]
var bulk = Array(repeating: [Sample](), count: ways.count)
var first = Array(repeating: [Sample](), count: ways.count)
for round in 0..<runs {
    // Alternating, and the order turned every round.
    for index in (round % 2 == 0 ? [0, 1] : [1, 0]) {
        let decrypt = ways[index].1
        bulk[index].append(measure { precondition(decrypt(ciphertext, key, zeroIV).count == ciphertext.count) })
        first[index].append(measure { for block in blocks { precondition(decrypt(block, key, zeroIV).count == 16) } })
    }
}

func spread(_ values: [Double], scale: Double, unit: String) -> String {
    let sorted = values.sorted()
    let median = sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    return String(format: "%.1f %@ (%.1f – %.1f)", median * scale, unit, sorted.first! * scale, sorted.last! * scale)
}

print("AES-256-CBC decryption, \(runs) runs alternating: median (min – max)")
for (index, way) in ways.enumerated() {
    print("\(way.0): \(mebibytes) MiB wall \(spread(bulk[index].map(\.wall), scale: 1000, unit: "ms")), CPU \(spread(bulk[index].map(\.cpu), scale: 1000, unit: "ms")); "
        + "\(firstBlocks) first blocks CPU \(spread(first[index].map(\.cpu), scale: 1000, unit: "ms"))")
}
