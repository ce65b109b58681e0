// swift-tools-version: 6.0
import Foundation
import PackageDescription

// The package one folder up, by path: its identity is that folder's name, whatever the checkout
// is called. An application depends on it by URL instead (docs/library.md).
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
let identity = root.lastPathComponent.lowercased()

let package = Package(
    name: "ResumetoolExamples",
    dependencies: [
        .package(path: ".."),
    ],
    targets: [
        // Read a blob: what it holds and what is wrong with it.
        .executableTarget(
            name: "ReadBlob",
            dependencies: [.product(name: "ResumeDataCodec", package: identity)]
        ),
        // Rebuild a blob from a partial file when the app saved none.
        .executableTarget(
            name: "RebuildBlob",
            dependencies: [.product(name: "ResumeDataCodec", package: identity)]
        ),
        // Read nsurlsessiond's task ledger from an extraction.
        .executableTarget(
            name: "ReadTaskLedger",
            dependencies: [.product(name: "ResumeScan", package: identity)]
        ),
        // Download, and after a crash (kill -9) continue where the last checkpoint left off.
        .executableTarget(
            name: "DownloadAfterCrash",
            dependencies: [.product(name: "ResumeTransfer", package: identity)]
        ),
    ],
    swiftLanguageModes: [.v6]
)
