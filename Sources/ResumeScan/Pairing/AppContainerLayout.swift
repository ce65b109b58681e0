import Foundation
import ResumeDataCodec
import ResumeSystemCalls
/// Where an app keeps things, decided from paths alone (no I/O), for `resumetool scan`: which
/// folder is a file's app container, where a blob's partial file should be, and which files are
/// partial downloads.
package enum AppContainerLayout {
    /// Folders whose presence marks an app container (iOS data containers and a Mac home both
    /// hold `Library/`; `tmp/` is where CFNetwork puts partial files).
    static let markerFolders: Set<String> = ["Library", "tmp"]

    /// The file iOS keeps in every container, whose `MCMMetadataIdentifier` is the container's
    /// bundle, group or plugin ID (forensic-formats §3).
    static let metadataName = ".com.apple.mobile_container_manager.metadata.plist"
    /// Metadata plists larger than this are not read: a real one is a few hundred bytes.
    static let metadataMaximumSize = 1 << 20

    /// `MCMMetadataIdentifier` of a container's metadata plist (the bundle, group or plugin ID),
    /// nil when the bytes are no such plist or larger than ``metadataMaximumSize``: one parse
    /// for a folder's container and an archive's.
    static func bundleID(inMetadata data: Data) -> String? {
        guard data.count <= metadataMaximumSize else { return nil }
        let options = PropertyListReadOptions(maximumDepth: 16, maximumObjectCount: 100_000, maximumInputSize: metadataMaximumSize,
                                              duplicateKeys: .keepLast)
        guard let top = try? PropertyListReader(options: options).read(data).value.dictionaryValue else { return nil }
        return top["MCMMetadataIdentifier"]?.stringValue
    }

    /// The nearest folder above `path` that is in `containers` (the folders found to hold a
    /// `Library/` or `tmp/`), or `nil`. Paths are `/`-separated as the walk spells them.
    static func containerRoot(of path: String, containers: Set<BytePath>) -> String? {
        var current = path.utf8[...]
        while let slash = current.lastIndex(of: Self.slash) {
            current = current[..<slash]
            if current.isEmpty { return containers.contains("/") ? "/" : nil }
            let folder = String(decoding: current, as: UTF8.self)
            if containers.contains(BytePath(spelled: folder)) { return folder }
        }
        return nil
    }

    /// Where a blob's `TempFileName` should be: the `tmp/` of its app container. `nil` when the
    /// name is not a bare file name (a path in it could point anywhere) or there is no container.
    /// The name is spelled as the scan spells paths (``EvidenceName/text(ofBlobPath:)``).
    static func tempFilePath(name: String, containerRoot: String?) -> String? {
        guard let containerRoot, PartialFileResolution.isBareFileName(name) else { return nil }
        return BytePath(containerRoot).appending("tmp").appending(name).text
    }

    /// Paths inside the scanned tree where a device's `LocalPath` may now be, best first: the
    /// device path beneath each of `deviceRoots`; the path itself when it lies under a scanned
    /// root (spelled from the root as the walk spells it, so `scan .` in a Mac's home finds
    /// `/Users/me/…`); then, after taking off the device's prefix up to the app container's UUID
    /// folder (`…/Application/8C1F…/`), the rest under every scanned folder of that UUID, and
    /// under the blob's own app container (a reinstalled app gets a new UUID).
    /// `localPath` and the roots' absolute paths are spelled as the scan spells paths
    /// (``EvidenceName``), so that the two compare equal only when their bytes do.
    /// - Parameters:
    ///   - roots: each scanned root's absolute path (symbolic links resolved) and its spelling.
    ///   - deviceRoots: where an extraction holds the device's `/private/var`
    ///     (`filesystem1/private/var`); the device path beneath each comes first.
    ///   - uuidFolders: scanned folders named like a container UUID, by that name.
    static func localPathCandidates(_ localPath: String, roots: [(absolute: String, spelled: String)], deviceRoots: [String] = [],
                                    containerRoot: String?, uuidFolders: [String: [String]]) -> [String] {
        var candidates: [String] = []
        // Two spellings of one name are two files here, so candidates are told apart by bytes.
        func add(_ path: BytePath) {
            let text = path.text
            if !candidates.contains(where: { $0.utf8.elementsEqual(text.utf8) }) { candidates.append(text) }
        }
        if let names = BytePath(localPath).withoutNoFollow.privateVarNames {
            for root in deviceRoots { add(names.dropFirst(2).reduce(BytePath(root)) { $0.appending($1) }) }
        }
        let local = BytePath(localPath)
        let components = local.names()
        // `..` could step out of the folder it was joined to.
        guard local.isAbsolute, !components.contains(where: { $0.isParentName || $0.isCurrentName }) else { return candidates }
        for root in roots where local.isInside(BytePath(root.absolute)) {
            let rest = localPath.utf8.dropFirst(root.absolute.utf8.count).drop { $0 == UInt8(ascii: "/") }
            add(rest.isEmpty ? BytePath(root.spelled) : BytePath(root.spelled).appending(BytePath(bytes: rest)))
        }
        guard let uuidIndex = components.lastIndex(where: { isContainerUUID($0.text) }), uuidIndex + 1 < components.count else {
            return candidates
        }
        let rest = components[(uuidIndex + 1)...]
        for folder in uuidFolders[components[uuidIndex].text.uppercased()] ?? [] { add(rest.reduce(BytePath(folder)) { $0.appending($1) }) }
        if let containerRoot { add(rest.reduce(BytePath(containerRoot)) { $0.appending($1) }) }
        return candidates
    }

    /// A partial file CFNetwork leaves (`CFNetworkDownload_XXXXXX.tmp`), or a file that may be
    /// the data file of a WebKit `NAME.download` folder (``SafariBundleDataFile/isCandidate(_:)``:
    /// not its `Info.plist`, nor Finder's files).
    static func isPartialFile(name: String, parentName: String) -> Bool {
        if name.hasPrefix("CFNetworkDownload_"), name.hasSuffix(".tmp"), name.utf8.count > 22 { return true }
        return isDownloadBundle(parentName) && SafariBundleDataFile.isCandidate(name)
    }

    /// Whether a folder's name is a Safari (WebKit) unfinished download's, `NAME.download`.
    static func isDownloadBundle(_ folderName: String) -> Bool {
        folderName.hasSuffix(".download") && folderName.utf8.count > 9
    }

    /// Whether a file is Safari's list of downloads, `Safari/Downloads.plist`.
    static func isDownloadHistory(name: String, parentName: String) -> Bool {
        name == "Downloads.plist" && parentName == "Safari"
    }

    /// Whether a file is the `Info.plist` of a Safari `NAME.download` bundle.
    static func isDownloadBundleInfo(name: String, parentName: String) -> Bool {
        name == "Info.plist" && isDownloadBundle(parentName)
    }

    /// `8C1F2A90-6B7D-4E3C-9A51-2F0D3B4C5E6F`: 8-4-4-4-12 hexadecimal digits, as iOS names
    /// app containers (and the simulator, devices).
    static func isContainerUUID(_ name: some StringProtocol) -> Bool {
        // The length first: most names are not 36 bytes long, and the copy is then never made.
        guard name.utf8.count == 36 else { return false }
        let bytes = Array(name.utf8)
        for (index, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20) else { return false }
            }
        }
        return true
    }

    private static let slash = UInt8(ascii: "/")

}
