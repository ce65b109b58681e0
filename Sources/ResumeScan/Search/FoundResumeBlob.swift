import Foundation
import ResumeDataCodec

/// A resume blob found by ``ResumeBlobSearch``: a whole file, or a data value inside one.
public struct FoundResumeBlob: Sendable, Hashable {
    /// What the blob holds, as far as the codec reads it.
    public enum Content: Sendable, Hashable {
        /// A blob the codec decodes: the four containers of spec §1 and the Network-framework
        /// format of spec §6, bare or in WebKit's wrapper.
        case resumeData(ResumeData)
        /// Bytes that start like the Network-framework format (or WebKit's wrapper of it) but do
        /// not decode: still worth reporting. `localPath` is the path WebKit's wrapper names
        /// beside it, when it had one; `reason` is the decoder's error.
        case undecodedNetworkFramework(localPath: String?, reason: String)
        /// URLSession's upload resume data (`UploadResumeData` of ResumeDataCodec).
        case upload(UploadResumeData)
    }

    /// Where in its file: `pending[1].resumeData`, or `nil` when the file is the blob.
    public var keyPath: String?
    /// The blob.
    public var content: Content
    /// Its size in bytes (the file's, or the data value's).
    public var size: Int

    public init(keyPath: String?, content: Content, size: Int) {
        self.keyPath = keyPath
        self.content = content
        self.size = size
    }

    /// The container as the codec names it (`ResumeDataContainer`), or `obscured-format` (the
    /// codec's name for the XOR-ed format) for Network-framework bytes that do not decode.
    public var containerName: String {
        switch content {
        case .resumeData(let resume): resume.container.rawValue
        case .undecodedNetworkFramework: ResumeDataError.Code.obscuredFormat.name
        case .upload: "upload"
        }
    }

    /// The decoded upload blob, when it is one.
    public var upload: UploadResumeData? {
        if case .upload(let upload) = content { return upload }
        return nil
    }

    /// The decoded blob, when it is one of the four containers.
    public var resumeData: ResumeData? {
        if case .resumeData(let resume) = content { return resume }
        return nil
    }

    /// `NSURLSessionResumeInfoLocalPath`, or the path beside a WebKit-wrapped Network-framework blob.
    public var localPath: String? {
        switch content {
        case .resumeData(let resume): resume.localPath
        case .undecodedNetworkFramework(let localPath, _): localPath
        case .upload: nil
        }
    }
}

extension FoundResumeBlob {
    /// The note `scan` gives Network-framework bytes that do not decode, in place of the
    /// validator's findings.
    static func undecodedNote(reason: String) -> ResumeDataFinding {
        ResumeDataFinding(.note, .init(ResumeDataError.Code.obscuredFormat.name),
                          "starts like Apple's Network-framework resume data but cannot be decoded: \(reason)")
    }
}
