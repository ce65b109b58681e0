import ArgumentParser
import ResumeDataCodec

/// `resumetool convert BLOB --to CONTAINER [-o OUT] [--mask-from BLOB]`
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Rewrite a resume blob in another container.",
        discussion: """
            Containers: xml (iOS 7–11), binary, keyed-archive (iOS 12+), keyed-archive-xml, and the Network-framework format of iOS 17.4+ (nwurlsession, and nwurlsession-webkit as WebKit wraps it). Every key is kept; the request archives are copied unchanged. A Network-framework blob written in a classic container gets its inline requests and response archived stand-alone and the response's ETag and Last-Modified under their keys, so older devices and `resume` can use it.

            An upload blob (a URLSession upload task's) is written as keyed-archive, the plain binary keyed archive that plutil and plistlib read, or keyed-archive-xml, the same archive as XML. A device reads an upload blob only with its first 8 bytes XOR-ed with a constant of Apple's, which is not published; every device blob carries it, so --mask-from takes it from one: `convert plain.archive --to keyed-archive --mask-from device.uploadresume` gives a blob a device accepts.

            Example:
              resumetool convert old.plist --to keyed-archive -o new.resumedata
              resumetool convert photo.uploadresume --to keyed-archive -o photo.archive

            \(ExitStatus.help(success: "written", failure: "the blob cannot be held in that container, or the output cannot be written")) Nothing is written unless the status is 0.
            """
    )

    @Argument(help: "The resume blob; - reads standard input.", completion: .file())
    var blob: String

    @Option(name: .long, help: "The container to write: xml, binary, keyed-archive, keyed-archive-xml, nwurlsession or nwurlsession-webkit (an upload blob: keyed-archive or keyed-archive-xml).")
    var to: ResumeDataContainer

    @OptionGroup var destination: DeviceBlobOutput

    @Option(name: .customLong("mask-from"), help: ArgumentHelp(
        "For an upload blob written as keyed-archive: mask its first 8 bytes as this device's upload blob is masked, so a device reads it.",
        valueName: "BLOB"), completion: .file())
    var maskFrom: String?

    @OptionGroup var reading: StrictReading

    /// The containers an upload blob can be written in, in the words of the error that names them.
    static let uploadContainers: [ResumeDataContainer] = [.keyedArchive, .keyedArchiveXML]

    func validate() throws {
        guard maskFrom == nil || to == .keyedArchive else {
            throw ValidationError("--mask-from masks a binary keyed archive: give it with --to keyed-archive")
        }
        if blob == "-", maskFrom == "-" {
            throw ValidationError("standard input can be read once: give --mask-from a file")
        }
    }

    func run() throws {
        try reportingDiagnostics {
            switch try BlobFile.read(blob, options: reading.options) {
            case .download(let input):
                if maskFrom != nil {
                    throw Diagnostic.usageError("--mask-from is for upload blobs; \(input.input.displayName) is download resume data", command: "convert")
                }
                input.emitWarnings()
                let resume = try SegmentedBlob.forDevice(input.resume, file: input.input.displayName, trimming: self.destination.trimPartial, command: "convert")
                try BlobFile.write(resume, as: to, to: OutputFile(destination.output))
            case .upload(let name, _, let upload):
                if destination.trimPartial != nil {
                    throw Diagnostic.usageError("--trim-partial is for segmented download blobs; \(name) is upload resume data", command: "convert")
                }
                guard Self.uploadContainers.contains(to) else {
                    throw Diagnostic(file: name, message: "upload resume data cannot be written as \(to): an upload blob is written as \(Self.uploadContainers.map(\.description).joined(separator: " or "))")
                }
                var mask: [UInt8]?
                if let maskFrom { mask = try Self.mask(of: maskFrom, options: reading.options) }
                try BlobFile.write(upload, format: to.propertyListFormat, mask: mask, to: OutputFile(destination.output))
            }
        }
    }

    /// The mask of the upload blob at `path`; a file that is not a masked upload blob is an
    /// input that is not what it must be (status 2).
    private static func mask(of path: String, options: PropertyListReadOptions) throws(Diagnostic) -> [UInt8] {
        let name = InputFile(path).displayName
        guard case .upload(_, _, let upload) = try BlobFile.read(path, options: options) else {
            throw Diagnostic(file: name, message: "--mask-from: download resume data, not an upload blob: only an upload blob carries the mask a device reads upload blobs with").unreadableInput
        }
        guard upload.mask.contains(where: { $0 != 0 }) else {
            throw Diagnostic(file: name, message: "--mask-from: an unmasked upload blob (it starts \"bplist00\"): take the mask from a blob a device wrote").unreadableInput
        }
        return upload.mask
    }
}
