import Foundation
import Testing

/// Ledgers built by Tests/LedgerFixtures/make_ledger.py in a fresh extraction folder.
struct LedgerFixture {
    static let generator = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("LedgerFixtures/make_ledger.py").path
    static let ledgerPath = "private/var/mobile/Library/com.apple.nsurlsessiond/tasks.sqlite"
    static let downloads = "private/var/mobile/Containers/Data/Application/8F9C2B1E-4D3A-4C2B-9E1F-0A1B2C3D4E5F/Library/Caches/com.apple.nsurlsessiond/Downloads/com.example.player"

    /// The extraction's top folder.
    let root: String
    var database: String { root + "/" + Self.ledgerPath }

    /// Runs the generator; `arguments` after ROOT.
    init(_ arguments: [String]) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-\(UUID().uuidString)").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.generator, root] + arguments
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw GeneratorFailure(description: "make_ledger.py exited \(process.terminationStatus): \(String(decoding: message, as: UTF8.self))")
        }
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: root)
    }

    struct GeneratorFailure: Error, CustomStringConvertible {
        var description: String
    }
}
