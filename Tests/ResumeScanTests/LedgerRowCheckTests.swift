import Foundation
import GRDB
import Testing

@_spi(Fuzzing) @testable import ResumeScan

/// The check the `FuzzLedgerRow` harness runs (``LedgerRowCheck``, the library's): hand-made rows,
/// a broken property it must catch, and seeded random rows, none of which may trap or break it.
@Suite struct LedgerRowCheckTests {
    /// A value of the check's input format.
    enum Value {
        case null, integer(Int64), real(Double), text(String), blob([UInt8])

        var encoded: [UInt8] {
            func word(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) } }
            func sized(_ tag: UInt8, _ bytes: [UInt8]) -> [UInt8] { [tag, UInt8(bytes.count >> 8), UInt8(bytes.count & 0xFF)] + bytes }
            switch self {
            case .null: return [0]
            case .integer(let value): return [1] + word(UInt64(bitPattern: value))
            case .real(let value): return [2] + word(value.bitPattern)
            case .text(let text): return sized(3, Array(text.utf8))
            case .blob(let bytes): return sized(4, bytes)
            }
        }
    }

    /// The columns in ``TaskLedger/knownColumns`` order, the unnamed ones NULL.
    static func row(small: Bool = false, _ values: [String: Value]) -> [UInt8] {
        [small ? 1 : 0] + TaskLedger.knownColumns.flatMap { (values[$0.name] ?? .null).encoded }
    }

    static let partial = "/.nofollow/private/var/mobile/Containers/Data/Application/8F9C2B1E-4D3A-4C2B-9E1F-0A1B2C3D4E5F/Library/Caches/x.tmp"

    /// Every input the harness kept in FuzzTesting/FailCases/FuzzLedgerRow (a crash CI's fuzz
    /// run finds lands there) through the same check, with the empty input and a row of 0xFF.
    @Test func keptFuzzInputsKeepEveryProperty() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("FuzzTesting/FailCases/FuzzLedgerRow")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
        var inputs: [(String, [UInt8])] = [("(empty)", []), ("(0xFF × 64)", [UInt8](repeating: 0xFF, count: 64))]
        for name in names {
            inputs.append((name, Array(try Data(contentsOf: folder.appendingPathComponent(name)))))
        }
        for (name, bytes) in inputs {
            #expect(LedgerRowCheck.check(bytes) == nil, "\(name)")
        }
    }

    @Test func handMadeRowsKeepEveryProperty() throws {
        let good = Self.row(["identifier": .integer(7), "session_id": .text("s"), "bundle_id": .text("b"), "state": .integer(1),
                             "path_to_download_task_file": .text(Self.partial)])
        #expect(LedgerRowCheck.check(good) == nil)
        // The same row decoded directly: the check's input is the row the ledger would read.
        let decoded = try #require(try? RowValues(rowID: 1, columns: [
            ("identifier", "integer", 8, 7.databaseValue), ("session_id", "text", 1, "s".databaseValue),
            ("path_to_download_task_file", "text", Int64(Self.partial.utf8.count), Self.partial.databaseValue),
        ], limits: TaskLedger.Limits()).decoded(root: LedgerRowCheck.root).get())
        #expect(decoded.partialFile?.path == "/fuzz-root/private/var/mobile/Containers/Data/Application/8F9C2B1E-4D3A-4C2B-9E1F-0A1B2C3D4E5F/Library/Caches/x.tmp")
        for hostile in [
            Self.row(["identifier": .integer(1), "session_id": .blob([0xFF])]),
            Self.row(["identifier": .text("1"), "session_id": .text("s")]),
            Self.row(["identifier": .integer(1), "session_id": .text("s"), "path_to_download_task_file": .text("/private/var/../../etc/passwd")]),
            Self.row(["identifier": .integer(1), "session_id": .text("s"), "path_to_download_task_file": .text("/var/mobile/a\u{0}b")]),
            Self.row(["identifier": .integer(1), "session_id": .text("s"), "creation_time": .real(.nan), "earliest_begin_date": .real(-.infinity)]),
            Self.row(small: true, ["identifier": .integer(1), "session_id": .text("s"), "original_request": .blob(Array(repeating: 0x62, count: 200))]),
            Self.row(["identifier": .integer(1), "session_id": .text("s"), "download_file_url": .blob(Array("bplist00".utf8))]),
            [], [0], [1, 1],
        ] {
            #expect(LedgerRowCheck.check(hostile) == nil)
        }
    }

    @Test func aPartialFileOutsideTheRootIsCaught() {
        let outside = LedgerPartialFile(column: "path_to_download_task_file", recorded: "/x", devicePath: "/x", path: "/elsewhere/x",
                                        entry: nil, refusal: nil)
        #expect(LedgerRowCheck.check(outside) == "the partial file /elsewhere/x is outside /fuzz-root")
        let both = LedgerPartialFile(column: "path_to_download_task_file", recorded: "/x", devicePath: "/x", path: "/fuzz-root/x",
                                     entry: nil, refusal: "no")
        #expect(LedgerRowCheck.check(both) == "a partial file both mapped and refused")
    }

    @Test func seededRandomRowsKeepEveryProperty() {
        var generator = SplitMix64(state: 0x1ED6_E426)
        func next() -> UInt64 { generator.next() }
        let pieces = ["/", "/.nofollow", "private", "var", "mobile", "root", "Containers", "Data", "Shared", "AppGroup", "Application",
                      "8F9C2B1E-4D3A-4C2B-9E1F-0A1B2C3D4E5F", "..", ".", "", "Downloads", "com.b", "x.tmp", "file://", "%2e%2e"]
        for round in 0..<2000 {
            var values: [String: Value] = [:]
            for column in TaskLedger.knownColumns where next() % 3 != 0 {
                switch next() % 6 {
                case 0: values[column.name] = .integer(Int64(bitPattern: next()))
                case 1: values[column.name] = .real(Double(bitPattern: next()))
                case 2: values[column.name] = .blob((0..<Int(next() % 40)).map { _ in UInt8(truncatingIfNeeded: next()) })
                case 3: values[column.name] = .text((0..<Int(next() % 8)).map { _ in pieces[Int(next() % UInt64(pieces.count))] }.joined(separator: "/"))
                default: values[column.name] = .null
                }
            }
            let input = Self.row(small: next() % 2 == 0, values)
            // Cut short now and then: a row ends where the bytes end.
            let cut = next() % 4 == 0 ? Array(input.prefix(Int(next() % UInt64(input.count + 1)))) : input
            #expect(LedgerRowCheck.check(cut) == nil, "round \(round)")
        }
    }
}
