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
    ],
    targets: [
        .executableTarget(
            name: "PlistBenchmark",
            dependencies: [
                .product(name: "ResumeDataCodec", package: "resumetool"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
