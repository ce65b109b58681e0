import ResumeDataCodec

/// Whether a download continues from the bytes it has, judged from the server's answer to its
/// ranged request: the one rule the engine (``DownloadStateMachine``) follows and
/// `explain --probe` reports, so that what explain predicts is what `resume` does.
///
/// Which validator decides, as RFC 9110 (8.8.3.2, 13.1.5) and Apple's Technical Q&A QA1761 have
/// it: a strong entity tag that matches proves the same entity, whatever `Last-Modified` says
/// (S3 gives an identical re-upload its old MD5 tag and a new date); an entity tag that differs
/// proves another; a weak tag proves nothing either way (weak comparison is not allowed for
/// ranges), and `Last-Modified` decides only where no entity tag could. When neither can be
/// compared nothing contradicts the bytes on disk, and the engine proves them against the
/// server's by their last 64 KiB before appending (``RequestPlan``). No I/O.
package enum ResumeJudgement {
    /// A validator that decided.
    package enum Validator: String, Sendable, Equatable {
        case entityTag = "ETag"
        case lastModified = "Last-Modified"
    }

    /// What the server's validators say of the entity the bytes on disk came from.
    package enum Comparison: Sendable, Equatable {
        /// The same entity, proved by this validator.
        case same(Validator)
        /// Another entity, proved by this validator.
        case differs(Validator)
        /// Nothing could be compared: no proof either way.
        case unproven
    }

    /// What the download knew before the answer: the validators it has (the blob's), the file's
    /// length if known, where its ranged request started and how many proven bytes it keeps.
    package struct Known: Sendable, Equatable {
        package var entityTag: String?
        package var lastModified: String?
        package var totalLength: Int64?
        /// The first byte the range asked for (before `prefix` when the tail is proved again).
        package var requestStart: Int64
        /// The bytes on disk the download continues after.
        package var prefix: Int64

        package init(entityTag: String?, lastModified: String?, totalLength: Int64?, requestStart: Int64, prefix: Int64) {
            self.entityTag = entityTag
            self.lastModified = lastModified
            self.totalLength = totalLength
            self.requestStart = requestStart
            self.prefix = prefix
        }
    }

    /// The parts of the answer that decide.
    package struct Answer: Sendable, Equatable {
        package var status: Int
        package var entityTag: String?
        package var lastModified: String?
        package var contentRange: String?
        package var contentLength: String?

        package init(status: Int, entityTag: String?, lastModified: String?, contentRange: String?, contentLength: String?) {
            self.status = status
            self.entityTag = entityTag
            self.lastModified = lastModified
            self.contentRange = contentRange
            self.contentLength = contentLength
        }
    }

    /// Why the bytes on disk are not continued.
    package enum Restart: Sendable, Equatable {
        /// A validator proves another entity.
        case changed(Validator)
        /// The 206's `Content-Range` or `Content-Length` does not fit the request.
        case unfitRange
        /// The 206 states another total length than the one known.
        case otherLength(known: Int64, now: Int64)
        /// A 200: the whole file. `sameEntity` when the validators do not say it changed (the
        /// server ignored the range); otherwise it is another entity, or `If-Range` failed.
        case wholeFile(sameEntity: Bool)
        /// A 416 that does not prove the bytes on disk are the whole file.
        case pastEnd
    }

    /// The verdict.
    package enum Verdict: Sendable, Equatable {
        /// Append from byte `at` (the bytes before it are kept).
        case continueAt(Int64)
        /// The download is complete at this length (a 416 for a range that starts exactly at the
        /// end of bytes the same entity proves).
        case complete(Int64)
        /// Start over from zero, for this reason.
        case restart(Restart)
        /// Not an answer to a range (a redirect, an error status): the caller's rules go on.
        case notARangeAnswer
    }

    /// What the server's `entityTag` and `lastModified` say against ours.
    package static func compare(ours: (entityTag: String?, lastModified: String?), theirs: (entityTag: String?, lastModified: String?)) -> Comparison {
        if let mine = ours.entityTag, let their = theirs.entityTag, !mine.isEmpty, !their.isEmpty {
            // Weak comparison (the opaque tags, W/ aside) may prove a difference; only two
            // strong tags byte for byte prove the same entity.
            if Self.opaque(mine) != Self.opaque(their) { return .differs(.entityTag) }
            if EntityTag.isStrong(mine), EntityTag.isStrong(their) { return .same(.entityTag) }
        }
        if let mine = ours.lastModified, let their = theirs.lastModified {
            return mine == their ? .same(.lastModified) : .differs(.lastModified)
        }
        return .unproven
    }

    /// The verdict on `answer` to a ranged request made with `known`.
    package static func judge(_ known: Known, _ answer: Answer) -> Verdict {
        let comparison = Self.compare(
            ours: (known.entityTag, known.lastModified), theirs: (answer.entityTag, answer.lastModified))
        switch answer.status {
        case 206:
            guard let range = ContentRange(answer.contentRange ?? ""), let start = range.start,
                  let end = range.exclusiveEnd, let length = range.length,
                  start == known.requestStart, end >= known.prefix,
                  answer.contentLength.map({ Int64($0) == length }) ?? true
            else { return .restart(.unfitRange) }
            if known.prefix > 0 {
                if case .differs(let validator) = comparison { return .restart(.changed(validator)) }
                if let mine = known.totalLength, let total = range.total, mine != total {
                    return .restart(.otherLength(known: mine, now: total))
                }
            }
            return .continueAt(known.prefix)
        case 200:
            if case .differs(let validator) = comparison { return .restart(.changed(validator)) }
            let length = answer.contentLength.flatMap(Int64.init)
            let sameLength = known.totalLength == nil || length == nil || known.totalLength == length
            return .restart(.wholeFile(sameEntity: sameLength))
        case 416:
            let total = ContentRange(answer.contentRange ?? "")?.total
            if known.prefix > 0, known.requestStart == known.prefix, let total, total == known.prefix {
                if case .differs(let validator) = comparison { return .restart(.changed(validator)) }
                return .complete(total)
            }
            return .restart(.pastEnd)
        default:
            return .notARangeAnswer
        }
    }

    /// The opaque tag: without `W/`, which only marks the tag weak.
    private static func opaque(_ tag: String) -> Substring {
        tag.hasPrefix("W/") ? tag.dropFirst(2) : Substring(tag)
    }
}
