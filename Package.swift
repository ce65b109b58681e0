// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "resumetool",
    products: [
        .library(name: "ResumeDataCodec", targets: ["ResumeDataCodec"]),
        .executable(name: "resumetool", targets: ["resumetool"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", exact: "1.6.0"),
    ],
    targets: [
        // libxml2 as the system provides it; found through pkg-config.
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev", "pkg-config"])]
        ),
        // A narrow C surface over libxml2: opaque pointers and plain structs only, so that
        // libxml2's own headers (and their version-dependent callback signatures) never reach Swift.
        .target(
            name: "CXMLShim",
            dependencies: ["CLibXML2"]
        ),
        .target(
            name: "ResumeDataCodec",
            dependencies: [
                "CXMLShim",
                .product(name: "OrderedCollections", package: "swift-collections"),
            ]
        ),
        .executableTarget(
            name: "resumetool",
            dependencies: [
                "ResumeDataCodec",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "ResumeDataCodecTests",
            dependencies: ["ResumeDataCodec"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "ResumetoolTests",
            dependencies: ["resumetool", "ResumeDataCodec"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
