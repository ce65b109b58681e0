import Foundation

/// What a file of the evidence is to Safari, decided once for a folder's files and an archive's
/// members alike, from its name, its folder's name and the bytes the probe already holds: a
/// `.download` bundle's `Info.plist`, `Safari/Downloads.plist`, or neither. A file of either
/// name that does not read as Safari's is any other property list: nothing is said of it.
struct SafariEvidence {
    var download: SafariDownloadInfo?
    var history: SafariDownloadHistory?

    init() {}

    init(name: String, parentName: String, data: Data) {
        if AppContainerLayout.isDownloadBundleInfo(name: name, parentName: parentName) {
            download = try? SafariDownloadInfo(propertyList: data)
        } else if AppContainerLayout.isDownloadHistory(name: name, parentName: parentName) {
            history = try? SafariDownloadHistory(propertyList: data)
        }
    }

    /// Whether the file is worth a finding of its own.
    var isFound: Bool { download != nil || history != nil }
}
