// swift-tools-version: 6.0
// libFuzzer harnesses for the parsers of ResumeDataCodec, the CLI's renderers (compiled in
// through symlinks) and the download state machine (through ResumeTransfer's `@_spi(Fuzzing)`
// entry point). A nested package so that the main
// package never depends on sanitizer builds; `run.sh` builds it with
// `--sanitize=fuzzer --sanitize=address` (see README.md).
import PackageDescription

let harnesses = [
    "FuzzXMLPlist", "FuzzBinaryPlist", "FuzzKeyedArchive", "FuzzRequestArchive", "FuzzResumeData", "FuzzRenderers", "FuzzHTTPAnswers",
]

let package = Package(
    name: "FuzzTesting",
    dependencies: [
        .package(name: "resumetool", path: ".."),
    ],
    targets: [
        .target(
            name: "FuzzCommon",
            dependencies: [.product(name: "ResumeDataCodec", package: "resumetool")]
        ),
    ] + harnesses.map { name in
        .executableTarget(
            name: name,
            // FuzzHTTPAnswers calls the engine's fuzzing entry point (`@_spi(Fuzzing)`).
            dependencies: ["FuzzCommon", .product(name: "ResumeDataCodec", package: "resumetool")]
                + (name == "FuzzHTTPAnswers" ? [.product(name: "ResumeTransfer", package: "resumetool")] : []),
            // The main package's files compiled in through symlinks use the library's `package`
            // API, which this other package reaches only through `@testable import`; they import
            // it so under this condition.
            swiftSettings: [.define("FUZZ_HARNESS")]
        )
    },
    swiftLanguageModes: [.v6]
)
