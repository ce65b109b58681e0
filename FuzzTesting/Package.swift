// swift-tools-version: 6.0
// libFuzzer harnesses for the parsers of ResumeDataCodec (its `@_spi(Fuzzing) RoundTripCheck`),
// the CLI's renderers (the ResumeReports product) and the download state machine (ResumeTransfer's
// `@_spi(Fuzzing) HTTPAnswerCheck`). A nested package so that the main package never depends on
// sanitizer builds; `run.sh` builds it with `--sanitize=fuzzer --sanitize=address` (see
// README.md). Every harness depends on the main package's products only, through their public
// and `@_spi(Fuzzing)` API (no `@testable import`, no symlinked sources).
import PackageDescription

let harnesses = [
    "FuzzXMLPlist", "FuzzBinaryPlist", "FuzzKeyedArchive", "FuzzRequestArchive", "FuzzResumeData", "FuzzRenderers", "FuzzHTTPAnswers",
    "FuzzDirectHead", "FuzzLedgerRow", "FuzzUploadAnswers",
]

/// Products beyond the codec that a harness fuzzes.
let extraProducts: [String: [String]] = [
    "FuzzRenderers": ["ResumeReports"],
    // The engine's fuzzing entry point, `@_spi(Fuzzing) HTTPAnswerCheck`.
    "FuzzHTTPAnswers": ["ResumeTransfer"],
    // The direct path's head reader, `@_spi(Fuzzing) DirectHeadCheck`.
    "FuzzDirectHead": ["ResumeTransfer"],
    // One row of nsurlsessiond's ledger, `@_spi(Fuzzing) LedgerRowCheck`.
    "FuzzLedgerRow": ["ResumeScan"],
    // The upload engine's rounds against scripted answers, `@_spi(Fuzzing) UploadAnswerCheck`.
    "FuzzUploadAnswers": ["ResumeTransfer"],
]

let package = Package(
    name: "FuzzTesting",
    dependencies: [
        .package(name: "resumetool", path: ".."),
    ],
    targets: [
        .target(name: "FuzzCommon"),
    ] + harnesses.map { name in
        .executableTarget(
            name: name,
            dependencies: ["FuzzCommon", .product(name: "ResumeDataCodec", package: "resumetool")]
                + (extraProducts[name] ?? []).map { .product(name: $0, package: "resumetool") }
        )
    },
    swiftLanguageModes: [.v6]
)
