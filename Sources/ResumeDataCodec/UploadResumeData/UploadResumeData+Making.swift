import Foundation

extension UploadResumeData {
    /// The blob of a file upload this package drives itself: the keys, types and order
    /// CFNetwork's `createResumeDataForTaskInfo:` writes for a file body (`bodyType` 1), with the
    /// original request archived inline.
    ///
    /// The mask is all zero, so ``encoded(masked:)`` gives a plain `bplist00` keyed archive:
    /// Apple's constant is unknown, and a made-up one would be no more acceptable to URLSession
    /// than none while hiding the archive from plutil and plistlib. A device's blob read and
    /// rewritten keeps its own mask instead.
    /// - Parameters:
    ///   - headers: the creation request's fields as they are to be archived (the caller leaves
    ///     credentials out).
    /// - Throws: `KeyedArchiveError` when the request cannot be archived.
    package static func fileUpload(
        draftVersion: UploadDraftVersion, resumeURL: HTTPURL, requestURL: HTTPURL, method: String,
        headers: [(name: String, value: String)], file path: String
    ) throws -> UploadResumeData {
        let request = URLRequestArchive(url: requestURL.url, method: method, headers: headers)
        let entries: [ArchivedValue.DictionaryEntry] = [
            .init(key: UploadResumeKey.draftVersion, value: .string(draftVersion.description)),
            .init(key: UploadResumeKey.resumeURL, value: .url(ArchivedURL(relativeString: resumeURL.string))),
            .init(key: UploadResumeKey.originalRequest, value: .object(try request.archivedObject())),
            .init(key: UploadResumeKey.bodyType, value: .integer(1)),
            .init(key: UploadResumeKey.uploadFile, value: uploadFileValue(path)),
        ]
        return UploadResumeData(entries: entries, mask: [UInt8](repeating: 0, count: 8))
    }

    /// `uploadFile` for a path: a `file:` `NSURL`, percent-encoded, as CFNetwork archives the
    /// file it was given. The path is taken as a file's without looking at the disk: it may name
    /// a file on the device that made the blob.
    static func uploadFileValue(_ path: String) -> ArchivedValue {
        .url(ArchivedURL(relativeString: URL(fileURLWithPath: path, isDirectory: false).absoluteString))
    }
}
