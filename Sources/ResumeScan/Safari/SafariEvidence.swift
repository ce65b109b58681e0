import Foundation

/// What a file of the evidence is to Safari, decided once for a folder's files and an archive's
/// members alike, from its name, its folder's name and the bytes the probe already holds: a
/// `.download` bundle's `Info.plist`, `Safari/Downloads.plist`, or neither. A file that has
/// either name and does not read as Safari's is reported with the reason `inspect` gives
/// (``problem``): its bundle or history is then missing from the scan, and the examiner is told.
struct SafariEvidence {
    /// Which of Safari's files a name says a file is.
    enum Role: Sendable, Hashable {
        /// `NAME.download/Info.plist`.
        case bundleInfo
        /// `Safari/Downloads.plist`.
        case history

        init?(name: String, parentName: String) {
            self.init(name: name, parentName: { parentName })
        }

        /// The folder's name is asked only of a file named as one of Safari's: a scan asks this
        /// of every file it walks, and most are neither.
        init?(name: String, parentName: () -> String) {
            guard name == "Info.plist" || name == "Downloads.plist" else { return nil }
            let parent = parentName()
            if AppContainerLayout.isDownloadBundleInfo(name: name, parentName: parent) {
                self = .bundleInfo
            } else if AppContainerLayout.isDownloadHistory(name: name, parentName: parent) {
                self = .history
            } else {
                return nil
            }
        }

    }

    var download: SafariDownloadInfo?
    var history: SafariDownloadHistory?
    /// Why a file named as Safari's does not read as Safari's: `inspect`'s reason.
    var problem: String?

    init() {}

    init(name: String, parentName: String, data: Data) {
        do throws(SafariTransferError) {
            switch Role(name: name, parentName: parentName) {
            case .bundleInfo: download = try SafariDownloadInfo(propertyList: data)
            case .history: history = try SafariDownloadHistory(propertyList: data)
            case nil: break
            }
        } catch {
            problem = error.description
        }
    }

    /// Whether the file is worth a finding of its own.
    var isFound: Bool { download != nil || history != nil }
}
