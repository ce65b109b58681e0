import Foundation
import ResumeDataCodec
import ResumeSystemCalls
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A Safari `NAME.download` bundle read from disk for `inspect`: its `Info.plist`
/// (``SafariDownloadInfo``) and its data file, the partial download, hashed as it is read. The
/// bundle named on the command line is followed if it is a link (the user named it); inside it
/// nothing is followed, everything is opened read-only (`FileSystemCalls.openEvidence(in:_:)`),
/// and `Info.plist` is read only up to ``SafariDownloadInfo/maximumSize``.
package struct SafariDownloadBundle: Sendable {
    /// The bundle as given.
    var path: String
    package var info: SafariDownloadInfo
    /// The data file: its name in the bundle, status and SHA-256 (nil when not asked for, or
    /// spared by the limit, and then why); nil when the bundle holds none.
    package var partialFile: (name: String, status: FileStatus, sha256: String?, hashSkipped: HashSkip?)?

    /// Whether `path` names a folder called `NAME.download` (following a link: the user named it).
    package static func isBundle(_ path: String, calls: FileSystemCalls = .system) -> Bool {
        guard AppContainerLayout.isDownloadBundle(BytePath(path).lastName.text),
              case .success(let status) = calls.statFollowingLinks(path) else { return false }
        return status.kind == .directory
    }

    /// Reads the bundle at `path`, hashing its partial file within `hashing` (nil: not at all,
    /// for the commands that only judge the bundle: the hash decides nothing there).
    /// - Throws: ``SafariTransferError`` naming the file that could not be read, or why
    ///   `Info.plist` is not a Safari download's.
    package init(path: String, hashing: HashLimit? = .standard, calls: FileSystemCalls = .system) throws(SafariTransferError) {
        self.path = path
        let folder: FolderHandle
        switch calls.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0) {
        case .success(let descriptor): folder = FolderHandle(descriptor, calls: calls)
        case .failure(let failure): throw .unreadable("cannot open the bundle: \(TreeWalker.describe(failure.code))")
        }
        // Read as a folder scan reads its files (``FolderEvidence``): one way to open, stat and read evidence.
        let evidence = FolderEvidence(readLimit: SafariDownloadInfo.maximumSize, calls: calls)
        let info: Data
        switch calls.openEvidence(in: folder.descriptor, "Info.plist") {
        case .success(let descriptor):
            defer { _ = calls.close(descriptor) }
            var member = FolderEvidence.Member(file: TreeWalker.File(path: "Info.plist", folder: folder, shownName: "Info.plist", isPartialFile: false),
                                               descriptor: descriptor)
            let size: Int64?
            do { size = try evidence.size(of: &member) } catch { throw .unreadable("Info.plist: \(error.message)") }
            guard let size else { throw .unreadable("Info.plist \(UnreadableEntry.notRegularFile)") }
            guard size <= Int64(evidence.readLimit) else { throw .unreadable("Info.plist is larger than \(evidence.readLimit) bytes") }
            do { info = try evidence.whole(of: &member, size: size) ?? Data() } catch { throw .unreadable("Info.plist: \(error.message)") }
        // O_NOFOLLOW's ELOOP is a link in Info.plist's place, not a loop of links.
        case .failure(let failure) where failure.code == ELOOP:
            throw .unreadable("Info.plist \(UnreadableEntry.symbolicLink)")
        case .failure(let failure):
            throw .unreadable("cannot read Info.plist: \(TreeWalker.describe(failure.code))")
        }
        self.info = try SafariDownloadInfo(propertyList: info)
        self.partialFile = try Self.dataFile(in: folder, bundleName: BytePath(path).lastName.text, info: self.info, hashing: hashing, calls: calls)
    }

    /// Resume data that continues the bundle's download, and its partial file's path: the URL,
    /// the entity tag and the server's Last-Modified when the legacy layout kept them, and the
    /// partial file's bytes as those received. With no validator (the modern layout keeps none) the engine proves the partial
    /// file against the server's bytes before appending (its overlap check), so a file changed
    /// on the server is fetched whole, never spliced.
    /// - Throws: ``SafariTransferError`` when the bundle names no URL or holds no partial file.
    package func resumeData() throws(SafariTransferError) -> (blob: Data, partialFile: String) {
        guard let url = info.url else { throw .unreadable("Info.plist names no download URL: there is nothing to resume from") }
        guard let file = partialFile else { throw .unreadable("the bundle holds no partial file: there is nothing to resume") }
        let partialPath = BytePath(path).appending(file.name).text
        do {
            let resume = try ResumeDataRebuilder(url: url, entityTag: info.entityTag, lastModified: info.lastModified).rebuild(fromPartialFile: partialPath)
            return (try resume.encoded(), partialPath)
        } catch {
            throw .unreadable("\(error)")
        }
    }

    /// The bundle's data file, as ``SafariBundleDataFile`` chooses it among the bundle's regular
    /// files.
    /// - Throws: ``SafariTransferError`` when the bundle cannot be listed: "holds no partial
    ///   file" would then be a guess.
    private static func dataFile(in folder: FolderHandle, bundleName: String, info: SafariDownloadInfo, hashing: HashLimit?, calls: FileSystemCalls)
        throws(SafariTransferError) -> (name: String, status: FileStatus, sha256: String?, hashSkipped: HashSkip?)? {
        let listing: FileSystemCalls.FolderListing
        switch calls.listFolder(folder.descriptor) {
        case .success(let found): listing = found
        case .failure(let failure): throw .unreadable("cannot list the bundle: \(TreeWalker.describe(failure.code))")
        }
        if let failure = listing.failure { throw .unreadable("cannot list the whole bundle: \(TreeWalker.describe(failure.code))") }
        let names = listing.entries.compactMap { entry in entry.kind == .regular ? entry.name : nil }.sorted { TreeWalker.byteOrder($0, $1) }
        guard let name = SafariBundleDataFile.choose(among: names, info: info, bundleName: bundleName) else { return nil }
        let descriptor: Int32
        switch calls.openEvidence(in: folder.descriptor, BytePath(name)) {
        case .success(let opened): descriptor = opened
        // Replaced by a link since the listing: not the bundle's file any more.
        case .failure(let failure) where failure.code == ELOOP: return nil
        case .failure(let failure): throw .unreadable("cannot open \(name): \(TreeWalker.describe(failure.code))")
        }
        defer { _ = calls.close(descriptor) }
        // Hashed as it is read, never held: the readLimit of a folder scan does not apply.
        let evidence = FolderEvidence(readLimit: 0, calls: calls)
        var member = FolderEvidence.Member(file: TreeWalker.File(path: name, folder: folder, shownName: name, isPartialFile: true), descriptor: descriptor)
        guard (try? evidence.size(of: &member)) != nil else { return nil }
        let status = evidence.status(of: &member).status
        // A sparse file, or one above the limit, is described, not read: `truncate -s 1T` makes
        // a terabyte of holes in no time, and reading it took minutes.
        guard let hashing else { return (name, status, nil, nil) }
        if let skipped = hashing.skip(size: status.size, allocatedSize: status.allocatedSize) { return (name, status, nil, skipped) }
        return (name, status, evidence.digest(of: &member), nil)
    }
}
