import ResumeSystemCalls

/// Which of a scan's partial files are Safari bundles' data files, and what names each: its
/// bundle's `Info.plist` and the `Downloads.plist` entry of the bundle. A file in a
/// `NAME.download` folder is the bundle's when ``SafariBundleDataFile`` chooses it among the
/// folder's partial files and the bundle is named somewhere (its `Info.plist` reads as
/// Safari's, or a `Downloads.plist` entry names it); any other is an orphan, as before.
struct SafariBundleTies {
    /// What ties a data file to its bundle.
    struct Tie {
        var info: SafariDownloadInfo?
        var historyEntry: ScanInventory.SafariHistoryEntry?
    }

    private var ties: [BytePath: Tie] = [:]

    /// - Parameters:
    ///   - found: the evidence's findings (each bundle's `Info.plist` among them).
    ///   - partialFiles: the partial files no blob names.
    ///   - histories: the `Downloads.plist` files found so far.
    init(found: [FileProbe.Finding], partialFiles: [FileProbe.Finding], histories: [ScanInventory.SafariHistoryFile]) {
        var infos: [BytePath: SafariDownloadInfo] = [:]
        for file in found { if let info = file.safariDownload { infos[BytePath(spelled: file.path).folder] = info } }
        // The partial files of each bundle folder, in the scan's order.
        var folders: [String] = []
        var names: [BytePath: [String]] = [:]
        for file in partialFiles {
            let folder = BytePath(file.path).folder.text
            guard AppContainerLayout.isDownloadBundle(BytePath(folder).lastName.text) else { continue }
            if names[BytePath(spelled: folder)] == nil { folders.append(folder) }
            names[BytePath(spelled: folder), default: []].append(BytePath(file.path).lastName.text)
        }
        let lookups = histories.map { SafariDownloadHistory.EntryLookup($0.history) }
        for folder in folders {
            let bundleName = BytePath(folder).lastName.text
            let info = infos[BytePath(spelled: folder)]
            var entry: ScanInventory.SafariHistoryEntry?
            for (history, lookup) in zip(histories, lookups) {
                guard let index = lookup.entryIndex(forBundle: bundleName, identifier: info?.identifier) else { continue }
                entry = ScanInventory.SafariHistoryEntry(path: history.path, index: index, keyPath: history.history.keyPaths[index])
                break
            }
            guard info != nil || entry != nil,
                  let name = SafariBundleDataFile.choose(among: names[BytePath(spelled: folder)] ?? [], info: info, bundleName: bundleName) else { continue }
            ties[BytePath(spelled: folder).appending(BytePath(spelled: name))] = Tie(info: info, historyEntry: entry)
        }
    }

    /// What ties the partial file at `path` to its bundle; nil for an orphan.
    func tie(of path: String) -> Tie? {
        ties[BytePath(spelled: path)]
    }
}
