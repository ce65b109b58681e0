import Foundation
import Testing
@testable import ResumeDataCodec
@testable import ResumeScan

/// The one parse of a container's metadata plist, which a folder scan and an archive scan share.
@Suite struct ContainerMetadataTests {
    @Test func theBundleIDOfAContainer() throws {
        for format in [PropertyListFormat.binary, .xml] {
            let metadata = try PropertyListWriter().write(["MCMMetadataIdentifier": "com.example.app", "MCMMetadataVersion": 6], as: format)
            #expect(AppContainerLayout.bundleID(inMetadata: metadata) == "com.example.app")
        }
        // No key, a key of the wrong type, no dictionary, no plist: no bundle ID.
        #expect(AppContainerLayout.bundleID(inMetadata: try PropertyListWriter().write(["MCMMetadataVersion": 6], as: .binary)) == nil)
        #expect(AppContainerLayout.bundleID(inMetadata: try PropertyListWriter().write(["MCMMetadataIdentifier": 7], as: .binary)) == nil)
        #expect(AppContainerLayout.bundleID(inMetadata: try PropertyListWriter().write(["com.example.app"], as: .binary)) == nil)
        #expect(AppContainerLayout.bundleID(inMetadata: Data("not a plist".utf8)) == nil)
        #expect(AppContainerLayout.bundleID(inMetadata: Data()) == nil)
        // Over the bound, even when it would parse (XML padded with white space).
        let padded = try PropertyListWriter().write(["MCMMetadataIdentifier": "com.example.app"], as: .xml)
            + Data(repeating: 0x20, count: AppContainerLayout.metadataMaximumSize)
        #expect(AppContainerLayout.bundleID(inMetadata: padded) == nil)
        #expect(AppContainerLayout.bundleID(inMetadata: padded.prefix(AppContainerLayout.metadataMaximumSize)) == "com.example.app")
    }
}
