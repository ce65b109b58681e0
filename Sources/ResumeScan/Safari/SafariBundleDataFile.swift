import ResumeSystemCalls

/// Which file of a Safari `NAME.download` bundle is its partial download, decided once for
/// `scan`, `inspect`, `validate`, `explain` and `resume`. A bundle on disk holds more than its
/// `Info.plist` and data file: Finder leaves `Icon\r` (a custom icon's resource file), `.DS_Store`
/// and `._NAME` AppleDouble files in it, and none of them is ever the download.
package enum SafariBundleDataFile {
    /// Finder's custom-icon file: `Icon` and a carriage return.
    static let finderIconName = "Icon\r"

    /// Whether a file in a bundle may be its data file: not `Info.plist`, not Finder's `Icon\r`,
    /// `.DS_Store` or `._*` AppleDouble files, nor any other hidden file.
    package static func isCandidate(_ name: String) -> Bool {
        name != "Info.plist" && name != finderIconName && !name.hasPrefix(".")
    }

    /// The bundle's data file among `names` (its regular files that are ``isCandidate(_:)``): the
    /// one its `Info.plist` names (the last name of `DownloadEntryPath`, where Safari meant the
    /// finished file to go), else the one named as the bundle without `.download` (as Safari
    /// names it), else the only one; nil when there is none, or several and none of them named.
    package static func choose(among names: [String], info: SafariDownloadInfo?, bundleName: String) -> String? {
        let candidates = names.filter(isCandidate)
        // By bytes: `String`'s `==` takes canonically equivalent names for one, and the bundle
        // can hold both spellings.
        func find(_ name: String) -> String? { candidates.first { $0.utf8.elementsEqual(name.utf8) } }
        if let path = info?.path, let named = find(BytePath(path).lastName.text) { return named }
        if bundleName.hasSuffix(".download"), let named = find(String(bundleName.dropLast(".download".count))) { return named }
        return candidates.count == 1 ? candidates[0] : nil
    }
}
