import ArgumentParser
import Foundation
import ResumeDataCodec
import ResumeScan

/// A resume blob read from a file or standard input, with what was needed to report on it.
struct BlobFile {
    let input: InputFile
    let bytes: Data
    let resume: ResumeData

    /// What a file holds: download resume data, or an upload task's.
    enum Content {
        case download(BlobFile)
        case upload(name: String, bytes: Data, upload: UploadResumeData)
    }

    /// Reads and decodes a download blob; any failure becomes a diagnostic naming the file and
    /// the position, and upload resume data is refused, saying which commands read it.
    init(_ argument: String, options: PropertyListReadOptions = .default, command: String = "this command") throws(Diagnostic) {
        switch try Self.read(argument, options: options) {
        case .download(let blob): self = blob
        case .upload(let name, _, let upload):
            throw Diagnostic(file: name, message: "upload resume data (a URLSession upload task's, draft \(upload.draftVersion.map(VisibleText.escaping) ?? "unknown")): \(command) works on download resume data; inspect, validate, explain, edit and convert read upload blobs, and resume --file continues them").unreadableInput
        }
    }

    private init(input: InputFile, bytes: Data, resume: ResumeData) {
        self.input = input
        self.bytes = bytes
        self.resume = resume
    }

    /// Reads and decodes a blob of either kind (``UploadResumeData/read(_:options:)`` decides).
    static func read(_ argument: String, options: PropertyListReadOptions = .default) throws(Diagnostic) -> Content {
        let input = InputFile(argument)
        let bytes = try input.read()
        do {
            if let upload = try UploadResumeData.read(bytes, options: options) {
                return .upload(name: input.displayName, bytes: bytes, upload: upload)
            }
            return .download(BlobFile(input: input, bytes: bytes, resume: try ResumeData(data: bytes, options: options)))
        } catch let error as ResumeDataError {
            try refuseTaskArchive(bytes, name: input.displayName)
            throw Diagnostic(file: input.displayName, position: error.locationDescription, message: error.message).unreadableInput
        } catch {
            try refuseTaskArchive(bytes, name: input.displayName)
            throw Diagnostic(file: input.displayName, message: "\(error)").unreadableInput
        }
    }

    /// What a file that is nsurlsessiond's older task list is, and which commands read it.
    static let taskArchiveMessage = "nsurlsessiond's task list (a session's tasks.plist, the ledger before tasks.sqlite), not resume data: "
        + "`resumetool tasks` lists its tasks and `resumetool rebuild --from-task FILE --task N` makes a resume blob from one"

    /// Refuses bytes that did not read as resume data and are nsurlsessiond's older task list,
    /// saying so instead of the decoder's error.
    private static func refuseTaskArchive(_ bytes: Data, name: String) throws(Diagnostic) {
        guard TaskLedger.isTaskArchive(bytes) else { return }
        throw Diagnostic(file: name, message: taskArchiveMessage).unreadableInput
    }

    /// What reading let through (keys given twice), for standard error.
    var warnings: [Diagnostic] { Diagnostic.warnings(resume.readWarnings, file: input.displayName) }

    /// Prints ``warnings`` on standard error.
    func emitWarnings() {
        for warning in warnings { warning.emit() }
    }

    /// Writes a blob in a container to `-o` (or standard output), refusing binary on a terminal.
    /// A keyed archive gets the top key Apple's writer uses, `NSKeyedArchiveRootObjectKey`,
    /// whatever key the input had (`root`, say), as ``ResumeData/encoded(as:)`` always writes it.
    static func write(_ resume: ResumeData, as container: ResumeDataContainer, to output: OutputFile) throws(Diagnostic) {
        try output.checkCanReceive(binary: container.propertyListFormat == .binary)
        let bytes: Data
        do {
            bytes = try resume.encoded(as: container)
        } catch {
            throw Diagnostic(file: output.displayName, message: "\(error)")
        }
        try output.write(bytes)
    }
}

extension BlobFile {
    /// Writes upload resume data to `-o` (or standard output), refusing binary on a terminal:
    /// the binary keyed archive masked with `mask` (nil: unmasked, the plain archive other tools
    /// read), or the plain archive as XML.
    static func write(_ upload: UploadResumeData, format: PropertyListFormat, mask: [UInt8]?, to output: OutputFile) throws(Diagnostic) {
        try output.checkCanReceive(binary: format == .binary)
        let bytes: Data
        do {
            if format == .binary, let mask {
                var masked = upload
                masked.mask = mask
                bytes = try masked.encoded(masked: true)
            } else {
                bytes = try upload.keyedArchiveData(format: format)
            }
        } catch {
            throw Diagnostic(file: output.displayName, message: "\(error)")
        }
        try output.write(bytes)
    }
}

extension ResumeDataContainer: ExpressibleByArgument {}
extension RepairTarget: ExpressibleByArgument {}


/// Runs a command body, turning a diagnostic into a message on stderr and its exit status
/// (1, or 2 for an input that could not be read).
func reportingDiagnostics(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let diagnostic as Diagnostic {
        diagnostic.emit()
        throw diagnostic.status.code
    }
}
