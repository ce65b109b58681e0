import Foundation

/// A resume blob found by ``ResumeBlobSearch``: a whole file, or a data value inside one.
package struct FoundResumeBlob: Sendable, Hashable {
    /// What the blob holds, as far as the codec reads it.
    package enum Content: Sendable, Hashable {
        /// A blob of the four containers of spec §1, decoded.
        case resumeData(ResumeData)
        /// The Network-framework format (spec §6): recognised, not decoded yet. `localPath` is
        /// the path WebKit's wrapper names beside it, when it had one.
        case networkFramework(localPath: String?)
    }

    /// Where in its file: `pending[1].resumeData`, or `nil` when the file is the blob.
    package var keyPath: String?
    /// The blob.
    package var content: Content
    /// Its size in bytes (the file's, or the data value's).
    package var size: Int

    package init(keyPath: String?, content: Content, size: Int) {
        self.keyPath = keyPath
        self.content = content
        self.size = size
    }

    /// The container as the codec names it: `xml`, `binary`, `keyed-archive`, `keyed-archive-xml`,
    /// or `obscured-format` (the code of the error ``ResumeData/init(data:options:)`` throws for
    /// the Network-framework format).
    package var containerName: String {
        switch content {
        case .resumeData(let resume): resume.container.rawValue
        case .networkFramework: ResumeDataError.Code.obscuredFormat.name
        }
    }

    /// The decoded blob, when it is one of the four containers.
    package var resumeData: ResumeData? {
        if case .resumeData(let resume) = content { return resume }
        return nil
    }

    /// `NSURLSessionResumeInfoLocalPath`, or the path beside a WebKit-wrapped Network-framework blob.
    package var localPath: String? {
        switch content {
        case .resumeData(let resume): resume.localPath
        case .networkFramework(let localPath): localPath
        }
    }
}

extension FoundResumeBlob {
    /// The note `scan` gives a Network-framework blob, in place of the validator's findings.
    package static let networkFrameworkNote = ResumeDataFinding(
        .note, .init(ResumeDataError.Code.obscuredFormat.name),
        "Apple's Network-framework resume data (an NWURLSessionDownloadResumeInfo archive XOR-ed with \"TedLasso\"): recognised but not decoded yet, so its URL and byte count are not shown")
}
