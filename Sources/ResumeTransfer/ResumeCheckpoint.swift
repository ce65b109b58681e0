import Foundation

/// The one place that converts between ``DownloadCheckpoint`` and the resume blob on disk.
///
/// Stand-in until `ResumeData` lands in ResumeDataCodec: a JSON dictionary with the spec's §2 keys.
enum ResumeCheckpoint {
    /// A blob read back: the checkpoint and where it says the partial file is.
    struct Decoded: Equatable, Sendable {
        var checkpoint: DownloadCheckpoint
        /// `NSURLSessionResumeInfoTempFileName`: the partial file's bare name.
        var tempFileName: String?
        /// `NSURLSessionResumeInfoLocalPath`: the partial file's absolute path.
        var localPath: String?
    }

    private struct Stored: Codable {
        var NSURLSessionDownloadURL: String
        var NSURLSessionResumeBytesReceived: Int64
        var NSURLSessionResumeInfoTempFileName: String?
        var NSURLSessionResumeInfoLocalPath: String?
        var NSURLSessionResumeEntityTag: String?
        var NSURLSessionResumeServerDownloadDate: String?
        var NSURLSessionResumeInfoVersion: Int64
        var originalURL: String
    }

    static func encode(_ checkpoint: DownloadCheckpoint, partialPath: String) throws(DownloadError) -> Data {
        let stored = Stored(
            NSURLSessionDownloadURL: checkpoint.currentURL,
            NSURLSessionResumeBytesReceived: checkpoint.bytesReceived,
            NSURLSessionResumeInfoTempFileName: (partialPath as NSString).lastPathComponent,
            NSURLSessionResumeInfoLocalPath: absolute(partialPath),
            NSURLSessionResumeEntityTag: checkpoint.entityTag,
            NSURLSessionResumeServerDownloadDate: checkpoint.lastModified,
            NSURLSessionResumeInfoVersion: 2,
            originalURL: checkpoint.originalURL
        )
        do {
            return try JSONEncoder().encode(stored)
        } catch {
            throw .invalidResumeData("cannot encode: \(error)")
        }
    }

    static func decode(_ data: Data) throws(DownloadError) -> Decoded {
        let stored: Stored
        do {
            stored = try JSONDecoder().decode(Stored.self, from: data)
        } catch {
            throw .invalidResumeData("cannot decode: \(error)")
        }
        guard stored.NSURLSessionResumeBytesReceived >= 0 else {
            throw .invalidResumeData("NSURLSessionResumeBytesReceived is negative")
        }
        let checkpoint = DownloadCheckpoint(
            originalURL: stored.originalURL,
            currentURL: stored.NSURLSessionDownloadURL,
            bytesReceived: stored.NSURLSessionResumeBytesReceived,
            entityTag: stored.NSURLSessionResumeEntityTag,
            lastModified: stored.NSURLSessionResumeServerDownloadDate
        )
        return Decoded(
            checkpoint: checkpoint,
            tempFileName: stored.NSURLSessionResumeInfoTempFileName,
            localPath: stored.NSURLSessionResumeInfoLocalPath
        )
    }

    static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        return FileManager.default.currentDirectoryPath + "/" + path
    }
}
