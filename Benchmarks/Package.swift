// swift-tools-version: 6.0
import PackageDescription

// Kept apart from the main package so that `swift test` at the root never builds it and the
// library never depends on anything the benchmark needs.
let package = Package(
    name: "Benchmarks",
    dependencies: [
        // Named explicitly: a path dependency is otherwise known by its directory's name,
        // which differs between checkouts and worktrees.
        .package(name: "resumetool", path: ".."),
        // UploadBenchServer: Apple's resumable-upload server, at the versions the root package's
        // upload tests pin, so the benchmark's peer is the tests' peer.
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-extras", exact: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types", exact: "1.8.0"),
        // CBCBenchmark: the swift-crypto the root package pins.
        .package(url: "https://github.com/apple/swift-crypto", exact: "4.5.2"),
    ],
    targets: [
        .executableTarget(
            name: "PlistBenchmark",
            dependencies: [
                .product(name: "ResumeDataCodec", package: "resumetool"),
            ]
        ),
        // The server of upload_bench.py (issue 36): NIOResumableUpload, and plain PUTs for curl.
        .executableTarget(
            name: "UploadBenchServer",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOResumableUpload", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        // AES-CBC in bulk: swift-crypto's AES._CBC against the system's libcrypto (libssl-dev),
        // through the shim the root package used before swift-crypto 4.5 decrypted in bulk.
        .target(
            name: "CBCLibCrypto",
            linkerSettings: [.linkedLibrary("crypto")]
        ),
        .executableTarget(
            name: "CBCBenchmark",
            dependencies: [
                "CBCLibCrypto",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
