internal import RawStructuredFieldValues
import ResumeDataCodec

/// What one interop version of the resumable-upload draft (draft-ietf-httpbis-resumable-upload)
/// asks of a client, and how the server's answers read in it: the one place that tells the
/// versions apart (`Upload-Incomplete` in 3, `Upload-Complete` from 5, `200` for an offset from
/// 5, `application/partial-upload` from 6, `Upload-Length` from 7). Pure: no I/O.
package struct ResumableUploadDraft: Sendable, Hashable {
    /// The interop version spoken, as `Upload-Draft-Interop-Version` sends it.
    let version: UploadDraftVersion

    package init(_ version: UploadDraftVersion) {
        self.version = version
    }

    static let versionField = "Upload-Draft-Interop-Version"
    static let offsetField = "Upload-Offset"
    static let completeField = "Upload-Complete"
    static let incompleteField = "Upload-Incomplete"
    static let lengthField = "Upload-Length"
    /// `104 Upload Resumption Supported`: the server made a resource for the upload.
    static let resumptionSupported = 104

    // MARK: Requests

    /// The fields of the request that creates the upload and sends the whole body: the version,
    /// and that this request completes it; from interop 7 the length, when known.
    func creationFields(length: Int64?) -> [HTTPHeaderField] {
        var fields = [field(Self.versionField, version.description), completion(true)]
        if version.number >= 7, let length, length >= 0 { fields.append(field(Self.lengthField, String(length))) }
        return fields
    }

    /// The fields of the `HEAD` that asks how much the server has: only the version (a server
    /// refuses a `HEAD` with `Upload-Offset` or `Upload-Complete`).
    func offsetRetrievalFields() -> [HTTPHeaderField] {
        [field(Self.versionField, version.description)]
    }

    /// The fields of the `PATCH` that appends from `offset`: from interop 6 its body has the type
    /// `application/partial-upload` (Apple's server answers 400 without it).
    func appendFields(offset: Int64, complete: Bool) -> [HTTPHeaderField] {
        var fields = [field(Self.versionField, version.description), field(Self.offsetField, String(max(0, offset))), completion(complete)]
        if version.number >= 6 { fields.append(field("Content-Type", "application/partial-upload")) }
        return fields
    }

    /// `Upload-Complete: ?1` (`Upload-Incomplete: ?0` in interop 3, where the sense is inverted).
    private func completion(_ complete: Bool) -> HTTPHeaderField {
        version.number == 3 ? field(Self.incompleteField, complete ? "?0" : "?1") : field(Self.completeField, complete ? "?1" : "?0")
    }

    private func field(_ name: String, _ value: String) -> HTTPHeaderField {
        // Names are spelled here and values are digits or ?0/?1: the check cannot fail.
        (try? HTTPHeaderField(name: name, value: value)) ?? HTTPHeaderField.placeholder
    }

    // MARK: Answers

    /// What an informational (1xx) response during the creation request says.
    enum Informational: Sendable, Hashable {
        /// A 104 in this version with a `Location`: the upload can be resumed there (the text
        /// as sent; resolving it against the request is the redirect rule's).
        case resumable(location: String)
        /// A 104 without a `Location`, or in another interop version than the one spoken.
        case unusable(reason: String)
        /// Another 1xx (100 Continue, 103 Early Hints, a progress 104 after the first): ignored.
        case other
    }

    func informational(status: Int, fields: [HTTPHeaderField]) -> Informational {
        guard status == Self.resumptionSupported else { return .other }
        let announced = fields.value(of: Self.versionField)
        guard announced == version.description else {
            return .unusable(reason: "the server's 104 speaks interop version \(announced.map(VisibleText.escaping) ?? "(none)"), not \(version)")
        }
        guard let location = fields.value(of: "Location"), !location.isEmpty else {
            return .unusable(reason: "the server's 104 has no Location: nowhere to resume the upload")
        }
        return .resumable(location: location)
    }

    /// What the answer to the offset-retrieval `HEAD` says.
    package enum OffsetAnswer: Sendable, Hashable {
        /// The server has the first `offset` bytes and waits for the rest.
        case incomplete(offset: Int64)
        /// The server has the whole upload (its offset, when it said).
        case complete(offset: Int64?)
        /// The upload is gone (404, 410): only a new creation request can send the file again.
        case gone(status: Int)
        /// Worth asking again later (5xx, 429).
        case unavailable(status: Int)
        /// Any other status: the server refuses.
        case refused(status: Int)
        /// A success without the fields this version requires, or with values that are not
        /// structured-field integers or booleans.
        case malformed(reason: String)
    }

    func offsetAnswer(status: Int, fields: [HTTPHeaderField]) -> OffsetAnswer {
        switch status {
        case 204: break
        case 200 where version.number >= 5: break
        case 404, 410: return .gone(status: status)
        case 429, 500...599: return .unavailable(status: status)
        default: return .refused(status: status)
        }
        let offset: Int64
        switch Self.integer(fields.combinedValue(of: Self.offsetField)) {
        case .success(let value?): offset = value
        case .success(nil): return .malformed(reason: "no \(Self.offsetField)")
        case .failure(let reason): return .malformed(reason: "\(Self.offsetField): \(reason)")
        }
        let complete: Bool
        if version.number == 3 {
            // Draft -01: the server says Upload-Incomplete: ?1 while it waits; without it, done.
            switch Self.boolean(fields.combinedValue(of: Self.incompleteField)) {
            case .success(let value): complete = !(value ?? false)
            case .failure(let reason): return .malformed(reason: "\(Self.incompleteField): \(reason)")
            }
        } else {
            switch Self.boolean(fields.combinedValue(of: Self.completeField)) {
            case .success(let value?): complete = value
            case .success(nil): return .malformed(reason: "no \(Self.completeField)")
            case .failure(let reason): return .malformed(reason: "\(Self.completeField): \(reason)")
            }
        }
        return complete ? .complete(offset: offset) : .incomplete(offset: offset)
    }

    /// What the answer to an append (`PATCH`), or to the creation request, says.
    enum AppendAnswer: Sendable, Hashable {
        /// A 2xx: the upload is complete.
        case done
        /// 409: the offset sent is not the server's (its own when it said): ask again.
        case conflict(offset: Int64?)
        /// 404, 410: the upload is gone.
        case gone(status: Int)
        /// 5xx, 429: the bytes may or may not have arrived: ask for the offset again.
        case unavailable(status: Int)
        /// Any other status.
        case refused(status: Int)
    }

    func appendAnswer(status: Int, fields: [HTTPHeaderField]) -> AppendAnswer {
        switch status {
        case 200...299: .done
        case 409: .conflict(offset: try? Self.integer(fields.combinedValue(of: Self.offsetField)).get())
        case 404, 410: .gone(status: status)
        case 429, 500...599: .unavailable(status: status)
        default: .refused(status: status)
        }
    }

    /// Why a 2xx answer to a request that sent the file (of `size` bytes) through byte `end` is
    /// not believed: its `Upload-Offset`, the server's offset after the request, is not what was
    /// sent. At the file's end it must be the file's length (a server that claims more, or less,
    /// than the file has is not holding this file); before it, it may not pass what was sent
    /// (less is asked again). Nil for an answer without the field, or one that fits.
    func finalOffsetRefusal(fields: [HTTPHeaderField], end: Int64, size: Int64) -> UploadError? {
        let offset: Int64
        switch Self.integer(fields.combinedValue(of: Self.offsetField)) {
        case .success(nil): return nil
        case .success(let value?): offset = value
        case .failure(let reason): return .malformedAnswer("\(Self.offsetField): \(reason)")
        }
        if end == size { return offset == size ? nil : .completeAtOtherLength(offset: offset, size: size) }
        return offset > end ? .offsetBeyondSent(offset: offset, sent: end) : nil
    }

    // MARK: Structured fields

    /// Why a field's value is not what the draft says it is.
    struct FieldProblem: Error, Hashable, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// An sf-integer that is not negative; nil when the field is absent.
    static func integer(_ text: String?) -> Result<Int64?, FieldProblem> {
        guard let text else { return .success(nil) }
        var parser = StructuredFieldValueParser(Array(text.utf8))
        guard let item = try? parser.parseItemFieldValue() else { return .failure(FieldProblem("\"\(VisibleText.escaping(text))\" is not a structured-field item")) }
        guard case .integer(let value) = item.rfc9651BareItem else { return .failure(FieldProblem("\"\(VisibleText.escaping(text))\" is not an integer")) }
        guard value >= 0 else { return .failure(FieldProblem("\(value) is negative")) }
        return .success(value)
    }

    /// An sf-boolean (`?0`, `?1`); nil when the field is absent.
    static func boolean(_ text: String?) -> Result<Bool?, FieldProblem> {
        guard let text else { return .success(nil) }
        var parser = StructuredFieldValueParser(Array(text.utf8))
        guard let item = try? parser.parseItemFieldValue(), case .bool(let value) = item.rfc9651BareItem else {
            return .failure(FieldProblem("\"\(VisibleText.escaping(text))\" is not ?0 or ?1"))
        }
        return .success(value)
    }
}

extension HTTPHeaderField {
    /// Stands in for a field whose check failed where it cannot (a name and value this package
    /// spells itself), so no caller needs a force unwrap.
    fileprivate static let placeholder: HTTPHeaderField = {
        guard let field = try? HTTPHeaderField(name: "X-Unused", value: "") else { preconditionFailure("a constant field failed its check") }
        return field
    }()
}

extension ResumableUploadDraft.OffsetAnswer {
    /// Why an upload of a file of `size` bytes cannot go on from this answer, whatever else is
    /// true: an offset beyond the file's end, a completed upload of another length, or a rest
    /// that the server's `limit` refuses (``UploadLimit/refusal(size:offset:)``; not asked of a
    /// complete upload, which has nothing more to send). Nil when it can. The engine stops on
    /// it, and `explain --probe` says it.
    func refusal(fileSize size: Int64, limit: UploadLimit?) -> UploadError? {
        switch self {
        case .incomplete(let offset):
            if offset > size { return .offsetBeyondFile(offset: offset, size: size) }
            return limit?.refusal(size: size, offset: offset).map(UploadError.beyondServerLimit)
        case .complete(let offset?) where offset != size:
            return .completeAtOtherLength(offset: offset, size: size)
        case .complete, .gone, .unavailable, .refused, .malformed:
            return nil
        }
    }
}
