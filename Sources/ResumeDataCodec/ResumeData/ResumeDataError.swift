/// Why a resume blob could not be read or written.
///
/// Errors compare equal when their ``CodecError/code`` is equal. ``CodecError/description`` reads
/// like a diagnostic: `byte 0x1a4: object 12: …`, `3:17: …`, or
/// `NSURLSessionResumeCurrentRequest: $objects[3]: …`. The ``CodecError/reason`` includes the key
/// path when one is known.
public typealias ResumeDataError = CodecError<ResumeDataErrorDomain>

/// The domain of ``ResumeDataError`` and its codes.
public enum ResumeDataErrorDomain {}

extension DiagnosticCode where Domain == ResumeDataErrorDomain {
    /// The outer property list could not be parsed.
    public static var unreadable: Self { Self("unreadable") }
    /// The blob is the XOR-obscured format of recent Apple systems (spec §6). No longer
    /// thrown: that format is read now; kept so code matching it still compiles.
    public static var obscuredFormat: Self { Self("obscured-format") }
    /// The property list (or the archive's root) is not a dictionary.
    public static var notADictionary: Self { Self("not-a-dictionary") }
    /// The dictionary has none of a resume blob's keys (``ResumeDataKey/identifying``): some
    /// other property list, an app's `Info.plist` say.
    public static var notResumeData: Self { Self("not-resume-data") }
    /// The keyed archive around the dictionary is malformed.
    public static var invalidArchive: Self { Self("invalid-archive") }
    /// A request archive inside the blob is malformed.
    public static var invalidRequest: Self { Self("invalid-request") }
    /// The archived response inside the blob is malformed.
    public static var invalidResponse: Self { Self("invalid-response") }
    /// A value that the chosen container cannot hold.
    public static var unencodable: Self { Self("unencodable") }
    /// A partial file to rebuild from is missing or unreadable.
    public static var partialFile: Self { Self("partial-file") }
    /// Arguments that cannot make a valid blob (e.g. a URL that is not absolute).
    public static var invalidArgument: Self { Self("invalid-argument") }
    /// The blob lacks what an edit would change: an upload blob without its original request
    /// (nsurlsessiond's copy) given headers, or one whose body is not a file given a file.
    public static var notEditable: Self { Self("not-editable") }
}

extension CodecError where Domain == ResumeDataErrorDomain {
    /// Wraps a parse failure of the outer blob, keeping its position.
    init(unreadable error: PropertyListError) {
        let reason = error.keyPath.map { "\($0): \(error.reason)" } ?? error.reason
        self.init(.unreadable, reason, at: error.location)
    }
}
