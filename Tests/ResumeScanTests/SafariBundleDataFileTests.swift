import Foundation
import Testing
@testable import ResumeScan
@testable import ResumeDataCodec

/// Which file of a Safari bundle is its partial file, value by value: Finder's files never are;
/// the one `Info.plist` names, else the one named as the bundle, else the only one.
@Suite struct SafariBundleDataFileTests {
    static func info(path: String?) throws -> SafariDownloadInfo {
        var dictionary: PropertyListDictionary = ["DownloadEntryURL": "https://example.com/a"]
        if let path { dictionary["DownloadEntryPath"] = .string(path) }
        return try SafariDownloadInfo(dictionary: dictionary, what: "Info.plist")
    }

    @Test(arguments: [
        ("Icon\r", false), (".DS_Store", false), ("._setup.pkg", false), ("Info.plist", false), (".hidden", false),
        ("Icon", true), ("Icon\r.pkg", true), ("setup.pkg", true), ("CFNetworkDownload_Ab12Cd.tmp", true),
    ])
    func candidates(_ name: String, _ expected: Bool) {
        #expect(SafariBundleDataFile.isCandidate(name) == expected)
        #expect(AppContainerLayout.isPartialFile(name: name, parentName: "setup.pkg.download") == expected)
    }

    @Test func theChoice() throws {
        let named = try Self.info(path: "/Users/examiner/Desktop/renamed.pkg")
        let unnamed = try Self.info(path: nil)
        let finder = ["Icon\r", ".DS_Store", "._setup.pkg"]
        // Info.plist's name first, then the bundle's, then the only one.
        #expect(SafariBundleDataFile.choose(among: ["renamed.pkg", "setup.pkg"] + finder, info: named, bundleName: "setup.pkg.download") == "renamed.pkg")
        #expect(SafariBundleDataFile.choose(among: ["other", "setup.pkg"] + finder, info: named, bundleName: "setup.pkg.download") == "setup.pkg")
        #expect(SafariBundleDataFile.choose(among: ["other"] + finder, info: unnamed, bundleName: "setup.pkg.download") == "other")
        #expect(SafariBundleDataFile.choose(among: ["other"] + finder, info: nil, bundleName: "setup.pkg.download") == "other")
        // Several and none named, or Finder's files alone: none.
        #expect(SafariBundleDataFile.choose(among: ["a", "b"], info: unnamed, bundleName: "setup.pkg.download") == nil)
        #expect(SafariBundleDataFile.choose(among: finder + ["Info.plist"], info: named, bundleName: "setup.pkg.download") == nil)
        #expect(SafariBundleDataFile.choose(among: [], info: nil, bundleName: "x.download") == nil)
        // By bytes: a canonically equivalent spelling is another name.
        #expect(SafariBundleDataFile.choose(among: ["cafe\u{301}", "other"], info: try Self.info(path: "/d/caf\u{e9}"), bundleName: "z.download") == nil)
    }

    /// The history entry of a bundle: by identifier, else by a path that is the bundle.
    @Test func theHistoryEntryOfABundle() throws {
        let data = try PropertyListWriter().write(.dictionary(["DownloadHistory": .array([
            .dictionary(["DownloadEntryURL": "https://example.com/a", "DownloadEntryIdentifier": "ID-A", "DownloadEntryPath": "/Users/x/Downloads/a.zip"]),
            "junk",
            .dictionary(["DownloadEntryURL": "https://example.com/b", "DownloadEntryPath": "/Users/x/Downloads/b.zip.download"]),
        ])]), as: .binary)
        let history = try SafariDownloadHistory(propertyList: data)
        #expect(history.keyPaths == ["DownloadHistory[0]", "DownloadHistory[2]"])
        #expect(history.entryIndex(forBundle: "whatever.download", identifier: "ID-A") == 0)
        #expect(history.entryIndex(forBundle: "b.zip.download", identifier: nil) == 1)
        #expect(history.entryIndex(forBundle: "b.zip.download", identifier: "ID-B") == 1)
        #expect(history.entryIndex(forBundle: "a.zip.download", identifier: nil) == nil)
        let root = try SafariDownloadHistory(propertyList: try PropertyListWriter().write(.array([.dictionary(["DownloadEntryURL": "https://example.com/c"])]), as: .binary))
        #expect(root.keyPaths == ["[0]"])
    }
}
