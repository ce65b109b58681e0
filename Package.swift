// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "resumetool",
    products: [
        .library(name: "ResumeDataCodec", targets: ["ResumeDataCodec"]),
        .library(name: "ResumeTransfer", targets: ["ResumeTransfer"]),
        .library(name: "ResumeScan", targets: ["ResumeScan"]),
        // The text, JSON and CSV renderers of the CLI; a product so the fuzzing harnesses import it.
        .library(name: "ResumeReports", targets: ["ResumeReports"]),
        .executable(name: "resumetool", targets: ["resumetool"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", exact: "1.6.0"),
        .package(url: "https://github.com/swift-server/async-http-client", exact: "1.37.0"),
        // Named directly only so the transfer tests can run an in-process NIO HTTP server;
        // async-http-client already brings it.
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
        .package(url: "https://github.com/apple/swift-crypto", exact: "4.5.2"),
        // Named for TLSConfiguration (--cacert, --insecure) and the tests' HTTPS server;
        // async-http-client already brings it.
        .package(url: "https://github.com/apple/swift-nio-ssl", exact: "2.37.6"),
        // `swift package generate-documentation` for the two libraries' DocC catalogs.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", exact: "1.5.0"),
        // SQLite evidence (nsurlsessiond's tasks.sqlite, a backup's Manifest.db), over the system's libsqlite3.
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        // scan --html: every string from evidence escaped by construction.
        .package(url: "https://github.com/JohnSundell/Plot", exact: "0.14.0"),
        // The resumable-upload draft's fields (Upload-Offset, Upload-Complete, Upload-Limit) are
        // RFC 9651 structured fields: Apple's parser, the one its own server code uses.
        .package(url: "https://github.com/apple/swift-http-structured-headers", exact: "1.7.0"),
        // An upload's proxy tunnel (NIOExtras, NIOSOCKS) and, for the tests only, Apple's
        // resumable-upload server (NIOResumableUpload, interop 3, 5, 6), run in-process as the peer
        // of the upload engine's tests; async-http-client already brings it.
        .package(url: "https://github.com/apple/swift-nio-extras", exact: "1.35.2"),
        // Test-only: the HTTP types NIOResumableUpload's handlers speak.
        .package(url: "https://github.com/apple/swift-http-types", exact: "1.8.0"),
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
        // libarchive as the system provides it (zip and tar extractions for scan, issue 25).
        .systemLibrary(
            name: "CLibArchive",
            pkgConfig: "libarchive",
            providers: [.apt(["libarchive-dev"])]
        ),
        // Intel's ISA-L as the system provides it (Debian ships its libisal.pc): gzip files are
        // inflated by it on a thread of CArchiveShim's own, faster than libarchive's zlib filter
        // (CArchiveInflater.h); only C includes it.
        .systemLibrary(
            name: "CLibISAL",
            pkgConfig: "libisal",
            providers: [.apt(["libisal-dev"])]
        ),
        // One streaming pass over an archive: an opaque reader and plain structs, as CXMLShim.
        .target(
            name: "CArchiveShim",
            dependencies: ["CLibArchive", "CLibISAL"]
        ),
        // SQLite as the system provides it (the libsqlite3 GRDB links): sqlite3_deserialize.
        .systemLibrary(
            name: "CLibSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // One function, a database from bytes read in memory, as CXMLShim is over libxml2.
        .target(
            name: "CSQLiteShim",
            dependencies: ["CLibSQLite"]
        ),
        // splice(2) and pipe2, which Swift's Glibc module does not show (they need _GNU_SOURCE).
        .target(name: "CSpliceShim"),
        // Every system call of the package (files, folders, sockets, pipes, standard streams) as
        // one seam the fault tests can replace, each retried on EINTR by one helper; not a product.
        .target(
            name: "ResumeSystemCalls",
            dependencies: ["CSpliceShim"]
        ),
        // Generic utilities the libraries and the CLI share: results of all cores in order, and
        // files replaced atomically. Not a product: no client needs them on their own.
        .target(
            name: "ResumeSupport",
            dependencies: ["ResumeSystemCalls"]
        ),
        .target(
            name: "ResumeDataCodec",
            dependencies: [
                "CXMLShim",
                "ResumeSystemCalls",
                .product(name: "OrderedCollections", package: "swift-collections"),
            ]
        ),
        // Finds resume blobs, partial files and app containers in folder trees (resumetool scan).
        .target(
            name: "ResumeScan",
            dependencies: [
                "ResumeDataCodec",
                "ResumeSupport",
                "ResumeSystemCalls",
                "CArchiveShim",
                // A decrypted Manifest.db read in memory.
                "CSQLiteShim",
                .product(name: "GRDB", package: "GRDB.swift"),
                // SHA-256 of findings, and the AES key unwrap, PBKDF2 and AES-CBC (one BoringSSL
                // call per buffer since swift-crypto 4.5) of encrypted backups.
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ]
        ),
        // What the CLI prints: inspect, archive, plist and scan reports as text, JSON and CSV.
        .target(
            name: "ResumeReports",
            dependencies: [
                "ResumeDataCodec",
                "ResumeScan",
                // What a transfer reports (its events, the server's answer to a probe) is
                // rendered here, with every other report.
                "ResumeTransfer",
                .product(name: "Plot", package: "Plot"),
            ]
        ),
        .target(
            name: "ResumeTransfer",
            dependencies: [
                "ResumeDataCodec",
                "ResumeSupport",
                "ResumeSystemCalls",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                // The body is received on NIO's event loop and written on a NIOThreadPool thread.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                // The partial file's write lock (NIOLock: a pthread mutex whose waiters sleep; the
                // standard library's Mutex spins first, which burns the second core).
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                // The direct path frames HTTP/1.1 with NIO's encoder and decoder on an EmbeddedChannel.
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                // The direct path's TLS handshake ends with NIOTLS's event.
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "RawStructuredFieldValues", package: "swift-http-structured-headers"),
                // An upload's tunnel through a proxy (CONNECT, SOCKS5): the handlers
                // async-http-client's own proxies are built on.
                .product(name: "NIOExtras", package: "swift-nio-extras"),
                .product(name: "NIOSOCKS", package: "swift-nio-extras"),
            ]
        ),
        .executableTarget(
            name: "resumetool",
            dependencies: [
                "ResumeDataCodec",
                "ResumeSupport",
                "ResumeTransfer",
                "ResumeScan",
                "ResumeReports",
                "ResumeSystemCalls",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "ResumeDataCodecTests",
            // ResumeBlobScanTests drives ResumeScan's decisions with the codec's test blobs.
            dependencies: ["ResumeDataCodec", "ResumeScan", "ResumeSystemCalls"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "ResumeScanTests",
            dependencies: [
                "ResumeScan",
                "ResumeDataCodec",
                "ResumeReports",
                "ResumeSystemCalls",
                .product(name: "GRDB", package: "GRDB.swift"),
                // BackupCryptoTests wraps keys and encrypts of its own.
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "ResumetoolTests",
            dependencies: ["resumetool", "ResumeDataCodec", "ResumeSystemCalls",
                           // ScanRendererTests renders fixed findings.
                           "ResumeScan", "ResumeReports"],
            // Golden outputs, read from the source tree through #filePath (not bundled); the
            // backup generator, run by the tests as a Python script.
            exclude: ["Expected", "Backups"]
        ),
        .testTarget(
            name: "ResumeTransferTests",
            dependencies: [
                "ResumeTransfer",
                "ResumeReports",
                "ResumeSupport",
                "resumetool",
                "ResumeDataCodec",
                "ResumeSystemCalls",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                // UploadEngineTests: Apple's resumable-upload server in-process.
                .product(name: "NIOResumableUpload", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            // tls/ is read through #filePath by the HTTPS test server.
            exclude: ["tls"],
            resources: [.copy("nginx")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
