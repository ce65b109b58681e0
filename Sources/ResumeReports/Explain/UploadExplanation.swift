import Foundation
import ResumeDataCodec
import ResumeTransfer

/// Why an *upload* blob would continue, start over or fail (`resumetool explain UPLOADBLOB`):
/// the shape and words of ``ResumeExplanation``, for the resumable-upload draft.
///
/// What the blob alone tells is decided by `UploadResumeDataValidator`'s findings (the rules
/// URLSession applies, not spelled again here), one check for each key they are about; the
/// blob holds no offset, so how much the server has is known only from an ``UploadProbe``.
package struct UploadExplanation: Sendable, Equatable {
    typealias Verdict = ResumeExplanation.Verdict
    typealias Reason = ResumeExplanation.Reason
    typealias Check = ResumeExplanation.Check

    /// Whether, and how, the server was asked.
    package enum Server: Sendable, Equatable {
        /// No `--probe`.
        case notAsked
        /// `--probe`, but nothing was sent; why (the blob fails on its own, or names no URL to ask).
        case withheld(String)
        /// The offset request's answer, or why there is none.
        case asked(Result<UploadProbe, TransferError>)
    }

    /// The file given to continue the upload with (`--file`), as found on this machine.
    package enum LocalFile: Sendable, Equatable {
        /// No `--file`.
        case notGiven
        /// The path given, and why it cannot be the upload's file (missing, not a regular file,
        /// unreadable).
        case unusable(path: String, why: String)
        /// A regular file of `size` bytes, and what the blob's body says of it.
        case file(path: String, size: Int64, verdict: UploadBody.FileVerdict)
    }

    package var verdict: ResumeExplanation.Verdict
    /// The byte the upload continues at: the server's offset (with `--probe`); 0 for a restart;
    /// `nil` when it fails, or when the server was not asked.
    var offset: Int64?
    /// The server has the whole upload: nothing is left to send.
    var complete: Bool
    var reasons: [Reason]
    var checks: [Check]
    /// The offset request's status, and the fields of its answer that tell about the upload.
    var answer: (status: Int, fields: [HTTPHeaderField])? {
        guard case .asked(.success(let probe)) = server else { return nil }
        return (probe.status, probe.fields)
    }
    private var server: Server

    /// `--probe` was asked for and the server gave no answer to go by (no connection, or a
    /// 5xx): the verdict is only as far as the blob tells, and `explain` says so and exits 3.
    package var serverUnreachable: Bool {
        checks.contains { $0.code == .server && $0.outcome == .unknown }
    }

    /// Explains `upload` with what the server said (`server`) and the file given (`file`).
    package init(_ upload: UploadResumeData, server: Server, file: LocalFile = .notGiven) {
        let findings = UploadResumeDataValidator().findings(for: upload)
        var reasons = findings.map(Self.reason(for:))
        var checks = Self.blobChecks(upload, findings: findings)
        // The one judgement `resume --file` follows: what it refuses, explain fails.
        var canCreateAgain = false
        do {
            canCreateAgain = try UploadContinuation(upload).createsAgain
        } catch {
            if case .refused = error {
                // Already a reason: the validator's finding of severity error.
            } else {
                reasons.append(Reason(code: "cannot-continue", message: "resume refuses the blob: \(error)", remedy: nil, effect: .fail,
                                      short: "resume refuses the blob"))
            }
        }

        // The file on this machine: its size bounds what the server may claim to have.
        var fileSize: Int64?
        switch file {
        case .notGiven:
            checks.append(Check(code: .file, outcome: .skipped, message: "give --file FILE to check the file to upload"))
        case .unusable(let path, let why):
            checks.append(Check(code: .file, outcome: .fail, message: "\(path): \(why)"))
            reasons.append(Reason(code: "file-unusable", message: "\(path): \(why)", remedy: nil, effect: .fail, short: "the file cannot be read"))
        case .file(let path, let size, let verdict):
            fileSize = size
            switch verdict {
            case .matches:
                checks.append(Check(code: .file, outcome: .pass, message: "\(path) has \(size) bytes, the blob's very body"))
            case .unknowable:
                checks.append(Check(code: .file, outcome: .pass, message: "\(path) has \(size) bytes (the blob cannot tell whether it is the device's file)"))
            case .differs(let why):
                checks.append(Check(code: .file, outcome: .fail, message: "\(path): \(why)"))
                reasons.append(Reason(code: "file-differs", message: "\(path): \(why)", remedy: nil, effect: .fail, short: "the file is not the upload's"))
            }
        }
        if fileSize == nil {
            // A data body is the file; a stream's recorded length is its size.
            switch upload.body {
            case .data(let bytes?): fileSize = Int64(bytes.count)
            case .stream(let length?): fileSize = length
            default: break
            }
        }

        var offset: Int64?
        var complete = false
        switch server {
        case .notAsked:
            checks.append(Check(code: .server, outcome: .skipped, message: "the blob holds no offset, only the server knows it: --probe asks it"))
        case .withheld(let why):
            checks.append(Check(code: .server, outcome: .skipped, message: "not asked: \(why)"))
        case .asked(.failure(let error)):
            checks.append(Check(code: .server, outcome: .unknown, message: "cannot ask the server: \(error)"))
            reasons.append(Reason(code: "probe-failed", message: "the server could not be asked: \(error)", remedy: nil, effect: .continue))
        case .asked(.success(let probe)):
            let read = Self.read(probe, fileSize: fileSize, canCreateAgain: canCreateAgain)
            checks.append(read.check)
            reasons += read.reasons
            offset = read.offset
            complete = read.complete
        }

        self.reasons = reasons
        self.checks = checks
        self.server = server
        self.verdict = Verdict.of(reasons)
        self.complete = verdict == .continue && complete
        self.offset = verdict.offset(continuing: offset)
    }

    /// The one-line verdict: `continue at byte N of the file`, `restart from zero: …`, `fail: …`.
    var summary: String {
        switch verdict {
        case .continue where complete:
            return "complete: the server has the whole upload" + (offset.map { " (\($0) bytes)" } ?? "") + "; nothing is left to send"
        case .continue:
            if let offset { return "continue at byte \(offset) of the file" }
            return "continue at the server's offset" + (serverUnreachable ? ResumeExplanation.blobAlone : " (the blob holds none: --probe asks the server)")
        case .restart, .fail:
            return ResumeExplanation.summary(verdict, reasons)
        }
    }

    // MARK: The blob

    /// One check for each key URLSession's reader looks at, failed by any error the validator
    /// found in it.
    private static func blobChecks(_ upload: UploadResumeData, findings: [ResumeDataFinding]) -> [Check] {
        func outcome(_ keys: [String]) -> Check.Outcome {
            findings.contains { $0.severity == .error && $0.key.map { keys.contains($0) } == true } ? .fail : .pass
        }
        let request: String
        switch Result(catching: { try upload.originalRequest() }) {
        case .success(let archived?): request = "\(archived.method) \(archived.urlString ?? "(no URL)")"
        case .success(nil): request = "none (nsurlsessiond's copy has none)"
        case .failure: request = "unreadable"
        }
        return [
            Check(code: .draftVersion, outcome: outcome([UploadResumeKey.draftVersion]),
                  message: upload.draftVersion.map(UploadInspectReport.draftVersionText) ?? "missing"),
            Check(code: .resumeURL, outcome: outcome([UploadResumeKey.resumeURL]), message: upload.resumeURL?.absoluteString ?? "missing"),
            Check(code: .originalRequest, outcome: outcome([UploadResumeKey.originalRequest]), message: request),
            Check(code: .body, outcome: outcome([UploadResumeKey.bodyType, UploadResumeKey.uploadData, UploadResumeKey.uploadFile, UploadResumeKey.streamLength]),
                  message: UploadInspectReport.text(for: upload.body)),
        ]
    }

    /// What a finding means for continuing: an error is what URLSession refuses, so the upload
    /// fails; the rest only informs.
    private static func reason(for finding: ResumeDataFinding) -> Reason {
        let remedy: Remedy?
        switch finding.code {
        case .uploadResumeURL where finding.severity == .error: remedy = .editURL
        case .uploadBody where finding.key == UploadResumeKey.uploadFile: remedy = .editUploadFile
        default: remedy = finding.remedy
        }
        let message = finding.key.map { "\($0): \(finding.message)" } ?? finding.message
        let effect: Verdict = finding.severity == .error ? .fail : .continue
        return Reason(code: finding.code.description, message: message, remedy: remedy, effect: effect, short: shortWords[finding.code])
    }

    /// The verdict line's words for the findings that fail an upload blob.
    private static let shortWords: [ResumeDataFinding.Code: String] = [
        .uploadDraftVersion: "an interop version URLSession refuses",
        .uploadResumeURL: "a resume URL URLSession refuses",
        .uploadBody: "no body to send",
    ]

    // MARK: The server

    /// What the answer to the offset request means: the server check, the reasons it adds, the
    /// offset to continue at, whether the upload is complete.
    private static func read(
        _ probe: UploadProbe, fileSize: Int64?, canCreateAgain: Bool
    ) -> (check: Check, reasons: [Reason], offset: Int64?, complete: Bool) {
        let shown = probe.fields.map { "\($0.name): \(VisibleText.escaping($0.value))" }
        let answer = "HEAD \(probe.url.string) → \(probe.status)" + (shown.isEmpty ? "" : "; " + shown.joined(separator: ", "))
        switch probe.answer {
        case .incomplete(let offset):
            let reason: Reason
            switch fileSize.flatMap(probe.refusal(fileSize:)) {
            case .offsetBeyondFile(let offset, let size)?:
                reason = Reason(code: "offset-beyond-file",
                    message: "the server says it has \(offset) bytes of a \(size)-byte file: resume refuses to go on",
                    remedy: nil, effect: .fail, short: "the server claims more bytes than the file has")
            case .beyondServerLimit(let why)?:
                reason = Reason(code: "beyond-server-limit", message: why, remedy: nil, effect: .fail, short: "the file is outside the server's Upload-Limit")
            case let refusal?:
                reason = Reason(code: "cannot-continue", message: refusal.description, remedy: nil, effect: .fail, short: "the server's offset cannot be continued from")
            case nil:
                let rest = fileSize.map { ", \($0 - offset) to go" } ?? ""
                reason = Reason(code: "server-offset", message: "the server has the first \(offset) bytes and waits for the rest\(rest)",
                                remedy: .resumeUpload, effect: .continue)
            }
            return (Check(code: .server, outcome: reason.effect == .fail ? .fail : .pass, message: answer), [reason], offset, false)
        case .complete(let offset):
            if case .completeAtOtherLength(let offset, let size)? = fileSize.flatMap(probe.refusal(fileSize:)) {
                let reason = Reason(code: "complete-at-other-length",
                    message: "the server says the upload is complete at \(offset) bytes, but the file has \(size)",
                    remedy: nil, effect: .fail, short: "the server's upload is complete at another length")
                return (Check(code: .server, outcome: .fail, message: answer), [reason], nil, false)
            }
            let reason = Reason(code: "upload-complete", message: "the server has the whole upload: resume has nothing left to send", remedy: nil, effect: .continue)
            return (Check(code: .server, outcome: .pass, message: answer), [reason], offset, true)
        case .gone(let status):
            let reason: Reason
            if canCreateAgain {
                reason = Reason(code: "upload-gone",
                    message: "the server answered \(status) to the offset request: it no longer has the upload; resume creates it again with the original request and sends the whole file",
                    remedy: .resumeUpload, effect: .restart, short: "the server no longer has the upload (HTTP \(status))")
            } else {
                reason = Reason(code: "upload-gone",
                    message: "the server answered \(status) to the offset request: it no longer has the upload, and the blob has no original request to create it again",
                    remedy: nil, effect: .fail, short: "the server no longer has the upload (HTTP \(status)) and the blob cannot create it again")
            }
            return (Check(code: .server, outcome: .fail, message: answer), [reason], nil, false)
        case .unavailable(let status):
            let reason = Reason(code: "server-unavailable", message: "the server answered \(status): it cannot tell now; ask again later",
                                remedy: nil, effect: .continue)
            return (Check(code: .server, outcome: .unknown, message: answer), [reason], nil, false)
        case .refused(let status):
            let reason = Reason(code: "offset-refused",
                message: "the server answered \(status) to the offset request: resume stops there (credentials, or a resume URL this server does not serve)",
                remedy: .editURL, effect: .fail, short: "the server refuses the offset request (HTTP \(status))")
            return (Check(code: .server, outcome: .fail, message: answer), [reason], nil, false)
        case .malformed(let why):
            let reason = Reason(code: "malformed-answer", message: "the server's offset answer breaks the draft: \(why)",
                                remedy: nil, effect: .fail, short: "the server's answer breaks the draft")
            return (Check(code: .server, outcome: .fail, message: answer), [reason], nil, false)
        }
    }
}
