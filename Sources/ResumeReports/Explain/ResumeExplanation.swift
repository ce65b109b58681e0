import Foundation
import ResumeDataCodec
import ResumeTransfer

/// Why a resume blob would continue, start over or fail (`resumetool explain`): each of Apple's
/// conditions for resuming as a check, what this tool knows of broken blobs as reasons, and one
/// verdict.
///
/// Apple's conditions: the request is a GET; the server sent an ETag or a Last-Modified; the
/// server supports byte ranges; the resource has not changed; the temp file still exists and is
/// as long as the blob says. What the blob alone tells is decided by `ResumeDataValidator`'s
/// findings (not decided again here); the server's side only by a ``ResumeProbe``.
package struct ResumeExplanation: Sendable, Equatable {
    /// What a device (or `resume`) would do with the blob.
    package enum Verdict: String, Sendable, Comparable {
        /// Continue at ``ResumeExplanation/offset``.
        case `continue`
        /// Start the download over from byte zero.
        case restart
        /// Not download at all (an error such as -3003, or a truncated file).
        case fail

        package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }

        /// The verdict `reasons` lead to: the worst of their effects, `continue` when none.
        static func of(_ reasons: [Reason]) -> Self { reasons.map(\.effect).max() ?? .continue }

        /// The byte this verdict starts at: `continuing` to continue, 0 for a restart, none for
        /// a failure.
        func offset(continuing: Int64?) -> Int64? {
            switch self {
            case .continue: continuing
            case .restart: 0
            case .fail: nil
            }
        }
        private var rank: Int {
            switch self {
            case .continue: 0
            case .restart: 1
            case .fail: 2
            }
        }
    }

    /// One thing that decides or colours the verdict, with what mends it.
    struct Reason: Sendable, Equatable {
        /// A finding's code, or one of the probe's (`url-expired`, `resource-changed`, …).
        var code: String
        var message: String
        /// What fixes it (the CLI's reports spell it as a command); `nil` when nothing can.
        var remedy: Remedy?
        /// The verdict this reason alone leads to (`continue` for what only informs).
        var effect: Verdict
        /// A few words for the verdict line; the message when `nil`.
        var short: String?

        init(code: String, message: String, remedy: Remedy?, effect: Verdict, short: String? = nil) {
            self.code = code
            self.message = message
            self.remedy = remedy
            self.effect = effect
            self.short = short
        }
    }

    /// One of Apple's conditions and what was found of it.
    struct Check: Sendable, Equatable {
        enum Outcome: String, Sendable {
            case pass, fail, unknown
            /// Not looked at: it needs `--probe`, `--partial` or `--tmp-dir`.
            case skipped
        }
        /// What a check looked at; its raw value is the name `explain` prints.
        enum Code: String, Sendable {
            case get, validator, ranges, unchanged
            case partialFile = "partial-file"
            case probeHead = "probe-head"
            case probeRange = "probe-range"
            // An upload blob's (``UploadExplanation``): URLSession's rules for its keys, then
            // the server's offset and the file on this machine.
            case draftVersion = "draft-version"
            case resumeURL = "resume-url"
            case originalRequest = "original-request"
            case body, server, file
        }
        var code: Code
        var outcome: Outcome
        var message: String
    }

    /// Where the partial file was looked for, and what was found.
    package enum PartialFile: Sendable, Equatable {
        /// Neither `--partial` nor `--tmp-dir` was given.
        case notLooked
        /// What looking gave.
        case looked(PartialFileResolution.Verdict)
    }

    package var verdict: Verdict
    /// `--probe` was asked for and the server could not be asked (no HEAD answer): the verdict
    /// is only as far as the blob tells, and `explain` says so and exits 3.
    package var serverUnreachable: Bool {
        checks.contains { $0.code == .probeHead && $0.outcome == .unknown }
    }
    /// The byte to continue at; 0 for a restart; `nil` for a failure, or when it is the size of
    /// a partial file that was not looked at.
    var offset: Int64?
    var reasons: [Reason]
    var checks: [Check]

    /// Explains `resume`; `blobSize` is its size in bytes. `probe` is `nil` when the server was
    /// not asked, a failure when the blob gave nothing to ask.
    package init(_ resume: ResumeData, blobSize: Int, partialFile: PartialFile, probe: Result<ResumeProbe, TransferError>?) {
        var reasons: [Reason] = []
        var checks: [Check] = []
        let findings = ResumeDataValidator(blobSize: blobSize).findings(for: resume)
        let request = resume.currentRequest ?? resume.originalRequest
        let url = (request?.urlString ?? resume.downloadURL).flatMap(HTTPURL.init)
        for finding in findings {
            reasons.append(Self.reason(for: finding, url: url))
        }

        // 1. A GET.
        if let request {
            checks.append(Check(code: .get, outcome: request.method == "GET" ? .pass : .fail, message: "the request is \(request.method)"))
        } else {
            checks.append(Check(code: .get, outcome: .pass, message: "no archived request: a device makes a GET of the download URL"))
        }

        // 2. A validator.
        let entityTag = resume.effectiveEntityTag, lastModified = resume.effectiveServerDownloadDate
        let validators = [entityTag.map { "ETag \($0)" }, lastModified.map { "Last-Modified \($0)" }].compactMap { $0 }
        checks.append(Check(code: .validator, outcome: validators.isEmpty ? .fail : .pass,
                            message: validators.isEmpty ? "neither an ETag nor a Last-Modified" : validators.joined(separator: ", ")))
        if let tag = entityTag, !EntityTag.isStrong(tag), lastModified == nil {
            reasons.append(Reason(
                code: "weak-etag-only",
                message: "the only validator is the weak ETag \(tag), which If-Range cannot carry (a device starts over): "
                    + Self.tailProof,
                remedy: .rebuild(url: url, validator: .lastModified), effect: .continue, short: "a weak ETag only"))
        } else if let tag = entityTag, EntityTag.isStrong(tag), !EntityTag.canGoInIfRange(tag), lastModified == nil {
            let why = tag.utf8.count > EntityTag.maximumSentLength
                ? "longer than the \(EntityTag.maximumSentLength) bytes resumetool sends" : "not an entity-tag (it needs its quotes)"
            reasons.append(Reason(
                code: "etag-not-sendable",
                message: "the only validator is the ETag \(VisibleText.escaping(String(tag.prefix(64))))\(tag.count > 64 ? "…" : ""), \(why), which If-Range cannot carry: "
                    + Self.tailProof,
                remedy: .rebuild(url: url, validator: .lastModified), effect: .continue, short: "an ETag If-Range cannot carry"))
        }

        // 3. Ranges, from the stored response unless the probe asks.
        let stored = resume.response?.headerValue("Accept-Ranges")
        var ranges = Check(code: .ranges, outcome: .unknown, message: "no stored response says; --probe asks the server")
        if let stored {
            let none = stored.trimmingCharacters(in: .whitespaces).lowercased() == "none"
            ranges = Check(code: .ranges, outcome: none ? .fail : .pass, message: "the stored response says Accept-Ranges: \(stored)")
        }
        var unchanged = Check(code: .unchanged, outcome: .skipped, message: "only the server can tell: --probe asks it")

        // 4. The partial file, and the offset.
        var offset = resume.container.isNetworkFramework ? nil : resume.bytesReceived
        switch partialFile {
        case .notLooked:
            checks.append(Check(code: .partialFile, outcome: .skipped, message: "give --partial FILE or --tmp-dir DIR to check it"))
            if resume.container.isNetworkFramework {
                reasons.append(Reason(code: "offset-from-partial-file",
                    message: "a Network-framework blob has no byte count: it continues at the partial file's size (give --partial or --tmp-dir to know it)",
                    remedy: nil, effect: .continue))
            }
        case .looked(let verdict):
            let found = ResumeDataValidator.partialFileFindings(verdict, bytesReceived: resume.container.isNetworkFramework ? nil : resume.bytesReceived)
            for finding in found { reasons.append(Self.reason(for: finding, url: url)) }
            switch verdict {
            case .file(let path, let size, _):
                let expected = resume.container.isNetworkFramework ? "" : resume.bytesReceived.map { ", the blob says \($0)" } ?? ""
                checks.append(Check(code: .partialFile, outcome: found.contains { $0.severity == .error } ? .fail : .pass,
                                    message: "\(path) has \(size) bytes\(expected)"))
                if resume.container.isNetworkFramework {
                    offset = size
                    reasons.append(Reason(code: "offset-from-partial-file",
                        message: "a Network-framework blob has no byte count: it continues at the partial file's size, \(size) bytes",
                        remedy: nil, effect: .continue))
                }
            case .refused(let path, _, let why):
                checks.append(Check(code: .partialFile, outcome: .fail, message: "\(path): \(why)"))
            case .missing(let expected):
                checks.append(Check(code: .partialFile, outcome: .fail, message: expected.map { "\($0.path) does not exist" } ?? "the blob names no partial file"))
            }
        }

        // The server, when asked.
        switch probe {
        case nil:
            break
        case .failure(let error)?:
            checks.append(Check(code: .probeHead, outcome: .unknown, message: "cannot ask the server: \(error)"))
        case .success(let probe)?:
            Self.read(probe, resume: resume, ranges: &ranges, unchanged: &unchanged, checks: &checks, reasons: &reasons)
        }
        // Apple's order: GET, validator, ranges, unchanged, temp file; then the probe's answers.
        checks.insert(contentsOf: [ranges, unchanged], at: 2)

        self.reasons = reasons
        self.checks = checks
        self.verdict = Verdict.of(reasons)
        self.offset = verdict.offset(continuing: offset)
    }

    /// The one-line verdict: `continue at byte N`, `restart from zero: …`, `fail: …`.
    var summary: String {
        switch verdict {
        case .continue:
            let continuing = offset.map { "continue at byte \($0)" } ?? "continue at the partial file's size"
            return continuing + (serverUnreachable ? Self.blobAlone : "")
        case .restart, .fail: return Self.summary(verdict, reasons)
        }
    }

    /// What the verdict line adds when `--probe` could not ask the server.
    static let blobAlone = ", as far as the blob tells: the server could not be asked"

    /// `restart from zero: …` or `fail: …`: the verdict with the words of each reason that leads
    /// to it, once each (download and upload explanations alike).
    static func summary(_ verdict: Verdict, _ reasons: [Reason]) -> String {
        var why: [String] = []
        for reason in reasons where reason.effect == verdict {
            let words = reason.short ?? reason.message
            if !why.contains(words) { why.append(words) }
        }
        let joined = why.joined(separator: "; ")
        switch verdict {
        case .continue: return "continue" + (joined.isEmpty ? "" : ": \(joined)")
        case .restart: return "restart from zero: \(joined)"
        case .fail: return "fail: \(joined)"
        }
    }

    // MARK: Findings

    /// What each finding of the validator means for resuming, and what mends it.
    private static func reason(for finding: ResumeDataFinding, url: HTTPURL?) -> Reason {
        let rebuild = Remedy.rebuild(url: url, validator: .entityTag)
        let (effect, remedy): (Verdict, Remedy?)
        switch finding.code {
        case .ios10RequestArchive: (effect, remedy) = (.fail, .repair(.ios10))
        case .ios11ByteRange: (effect, remedy) = (.fail, .repair(.ios11))
        case .missingValidator: (effect, remedy) = (.continue, rebuild)
        case .missingBytesReceived: (effect, remedy) = (.restart, rebuild)
        case .tempFileMissing, .invalidPath, .missingPartialFile: (effect, remedy) = (.fail, .relocateTempFile)
        case .tempFileSize where finding.severity == .error: (effect, remedy) = (.fail, rebuild)
        case .tempFileSize: (effect, remedy) = (.continue, nil)
        case .urlMismatch, .invalidURL, .unsupportedScheme, .missingURL:
            (effect, remedy) = (finding.severity == .error ? .fail : .continue, .editURL)
        case .rangeMismatch, .duplicateKey:
            (effect, remedy) = (.continue, .repair(nil))
        default:
            (effect, remedy) = (finding.severity == .error ? .fail : .continue, rebuild)
        }
        var message = finding.message
        if finding.code == .urlMismatch {
            message = "the blob was made for another URL: " + message
        }
        if finding.code == .missingValidator {
            message += "; " + tailProof
        }
        if let key = finding.key { message = "\(key): \(message)" }
        return Reason(code: finding.code.description, message: message, remedy: remedy, effect: effect, short: shortWords[finding.code])
    }

    /// What `resume` does where no validator proves the entity (``ResumeJudgement``).
    static let tailProof = "resume compares the last 64 KiB on disk with the server's bytes before appending, and starts over if they differ"

    /// The verdict line's words for the findings that come up most.
    private static let shortWords: [ResumeDataFinding.Code: String] = [
        .ios10RequestArchive: "request archives that iOS 10.0/10.1 cannot read (error -3003)",
        .ios11ByteRange: "an iOS 11 byte range that truncates the file",
        .tempFileMissing: "the partial file is missing",
        .missingValidator: "no ETag or Last-Modified",
        .missingBytesReceived: "no byte count",
        .tooSmall: "an iOS 12 blob too small to resume",
    ]

    // MARK: The probe

    private static func read(
        _ probe: ResumeProbe, resume: ResumeData,
        ranges: inout Check, unchanged: inout Check, checks: inout [Check], reasons: inout [Reason]
    ) {
        var expired = false
        func statusReason(_ answer: ResumeProbe.Answer, _ request: String) {
            switch answer.status {
            case 401, 403, 410:
                guard !expired else { return }
                expired = true
                reasons.append(Reason(code: "url-expired",
                    message: "the server answered \(answer.status) to the \(request): the URL has likely expired (signed URLs do)",
                    remedy: .editURL, effect: .fail, short: "the URL has likely expired (HTTP \(answer.status))"))
            case 404:
                guard !expired else { return }
                expired = true
                reasons.append(Reason(code: "not-found", message: "the server answered 404 to the \(request): the file is no longer at this URL",
                                      remedy: .editURL, effect: .fail, short: "the file is no longer at this URL (HTTP 404)"))
            default:
                break
            }
        }

        // HEAD: what the server serves now.
        let ours = (entityTag: resume.effectiveEntityTag, lastModified: resume.effectiveServerDownloadDate)
        var sameByValidators: Bool?
        switch probe.head {
        case .failure(let error):
            checks.append(Check(code: .probeHead, outcome: .unknown, message: "HEAD failed: \(error)"))
            reasons.append(Reason(code: "probe-failed", message: "the server could not be asked: \(error)", remedy: nil, effect: .continue))
        case .success(let answer):
            checks.append(Check(code: .probeHead, outcome: (200...299).contains(answer.status) ? .pass : .fail, message: "HEAD " + describe(answer)))
            statusReason(answer, "HEAD")
            if (200...299).contains(answer.status) {
                // The engine's comparison (``ResumeJudgement``): a strong ETag decides, else Last-Modified.
                switch ResumeJudgement.compare(ours: ours, theirs: (answer.entityTag, answer.lastModified)) {
                case .same: sameByValidators = true
                case .differs: sameByValidators = false
                case .unproven: break
                }
                if let accept = answer.acceptRanges {
                    let none = accept.lowercased() == "none"
                    ranges = Check(code: .ranges, outcome: none ? .fail : .pass, message: "the server says Accept-Ranges: \(accept)")
                }
            }
        }

        // The range with If-Range: the server's own verdict.
        switch probe.range {
        case nil:
            checks.append(Check(code: .probeRange, outcome: .unknown, message: "not sent: the HEAD could not reach the server"))
        case .failure(let error)?:
            checks.append(Check(code: .probeRange, outcome: .unknown, message: "the range request failed: \(error)"))
        case .success(let answer)?:
            let request = "GET bytes=\(probe.offset)-\(probe.offset)" + (probe.ifRange.map { " If-Range: \($0)" } ?? "")
            checks.append(Check(code: .probeRange, outcome: answer.status == 206 ? .pass : .fail, message: "\(request) " + describe(answer)))
            statusReason(answer, "range request")
            // The engine's own judgement of this answer, as `resume` would make it at the blob's offset.
            let known = ResumeJudgement.Known(
                entityTag: ours.entityTag, lastModified: ours.lastModified, totalLength: nil, requestStart: probe.offset, prefix: probe.offset)
            let judged = ResumeJudgement.Answer(
                status: answer.status, entityTag: answer.entityTag, lastModified: answer.lastModified,
                contentRange: answer.contentRange, contentLength: answer.contentLength)
            switch ResumeJudgement.judge(known, judged) {
            case .continueAt:
                ranges = Check(code: .ranges, outcome: .pass, message: "the server answered 206 to a range")
                switch ResumeJudgement.compare(ours: ours, theirs: (answer.entityTag, answer.lastModified)) {
                case .same(let validator):
                    unchanged = Check(code: .unchanged, outcome: .pass, message: "the server answered 206 with the blob's \(validator.rawValue): it serves the same entity")
                case .unproven, .differs:
                    unchanged = Check(code: .unchanged, outcome: .pass, message: "the server answered 206"
                        + (probe.ifRange != nil ? " to If-Range" : "") + "; no validator proves the entity, so the bytes on disk are compared with the server's before anything is appended")
                }
            case .complete(let total):
                ranges = Check(code: .ranges, outcome: .pass, message: "the server answered 416 at the blob's offset")
                unchanged = Check(code: .unchanged, outcome: .pass, message: "the server's file has \(total) bytes, as many as the blob: the download is complete")
            case .restart(.changed(let validator)):
                unchanged = Check(code: .unchanged, outcome: .fail, message: "the server's \(validator.rawValue) differs from the blob's: it serves another entity now")
                reasons.append(Reason(code: "resource-changed",
                    message: "the file on the server changed since the blob was made (its \(validator.rawValue) differs): the bytes on disk belong to another version",
                    remedy: nil, effect: .restart, short: "the file on the server changed"))
            case .restart(.wholeFile(let sameEntity)) where !sameEntity || (probe.ifRange != nil && answer.acceptRanges != nil && answer.acceptRanges?.lowercased() != "none"):
                unchanged = Check(code: .unchanged, outcome: .fail, message: "the server sent the whole file to If-Range: it serves another entity now")
                reasons.append(Reason(code: "resource-changed",
                    message: "the file on the server changed since the blob was made (\(sameEntity ? "validators refused by If-Range" : "its length differs")): the bytes on disk belong to another version",
                    remedy: nil, effect: .restart, short: "the file on the server changed"))
            case .restart(.wholeFile):
                ranges = Check(code: .ranges, outcome: .fail, message: "the server answered a range with the whole file (200)")
                if let sameByValidators {
                    unchanged = Check(code: .unchanged, outcome: sameByValidators ? .pass : .fail, message: "the HEAD validators \(sameByValidators ? "match" : "differ from") the blob's")
                }
                reasons.append(Reason(code: "no-ranges", message: "the server does not serve byte ranges: every resume starts over", remedy: nil, effect: .restart, short: "the server does not serve byte ranges"))
            case .restart(.pastEnd):
                unchanged = Check(code: .unchanged, outcome: .fail, message: "the server's file is no longer than the blob's offset \(probe.offset)")
                reasons.append(Reason(code: "offset-past-end",
                    message: "the server answered 416: its file is not longer than the \(probe.offset) bytes the blob has (it changed, or the download was complete)",
                    remedy: nil, effect: .restart, short: "the server's file is not longer than the blob's offset"))
            case .restart(.unfitRange), .restart(.otherLength):
                ranges = Check(code: .ranges, outcome: .fail, message: "the server's 206 does not fit the range asked for (Content-Range \(answer.contentRange.map(VisibleText.escaping) ?? "missing"))")
                reasons.append(Reason(code: "bad-content-range",
                    message: "the server answered the range with a Content-Range that does not fit it: the engine asks for the whole file",
                    remedy: nil, effect: .restart, short: "the server's 206 does not fit the range"))
            case .notARangeAnswer:
                break
            }
        }
        if case .skipped = unchanged.outcome, let sameByValidators {
            unchanged = Check(code: .unchanged, outcome: sameByValidators ? .pass : .fail, message: "the HEAD validators \(sameByValidators ? "match" : "differ from") the blob's")
        }
    }

    /// `200 from URL; ETag …, Last-Modified …, Content-Length …, Accept-Ranges …`
    private static func describe(_ answer: ResumeProbe.Answer) -> String {
        let fields: [(String, String?)] = [
            ("ETag", answer.entityTag), ("Last-Modified", answer.lastModified), ("Content-Length", answer.contentLength),
            ("Accept-Ranges", answer.acceptRanges), ("Content-Range", answer.contentRange),
        ]
        let shown = fields.compactMap { name, value in value.map { "\(name): \(VisibleText.escaping($0))" } }
        return "→ \(answer.status) from \(answer.url)" + (shown.isEmpty ? "" : "; " + shown.joined(separator: ", "))
    }
}
