/// Why a keyed archive could not be decoded or encoded, and which object was at fault.
///
/// The ``CodecError/description`` puts the key path first, the way a compiler names a source
/// position: `$objects[12].NS.keys[3]: UID 40 out of range (38 objects)`. Errors compare equal
/// when their ``CodecError/code`` is equal, so tests can match the kind of failure without
/// spelling out the message.
public typealias KeyedArchiveError = CodecError<KeyedArchiveErrorDomain>

/// The domain of ``KeyedArchiveError`` and its codes.
public enum KeyedArchiveErrorDomain {}

extension DiagnosticCode where Domain == KeyedArchiveErrorDomain {
    /// The bytes are not a property list; ``CodecError/underlying`` says why.
    public static var propertyList: Self { Self("property-list") }
    /// The property list is not an NSKeyedArchiver archive (`$archiver`, `$version` wrong or missing).
    public static var notAnArchive: Self { Self("not-an-archive") }
    /// `$top` is missing, has other than one key, or does not hold a UID.
    public static var invalidTop: Self { Self("invalid-top") }
    /// `$objects` is missing, not an array, or does not start with `"$null"`.
    public static var invalidObjects: Self { Self("invalid-objects") }
    /// A UID points past the end of `$objects`.
    public static var uidOutOfRange: Self { Self("uid-out-of-range") }
    /// An object contains itself through UIDs.
    public static var cycle: Self { Self("cycle") }
    /// An object dictionary has no `$class`.
    public static var missingClass: Self { Self("missing-class") }
    /// `$class` does not point at a class description (`$classname`, `$classes`).
    public static var invalidClass: Self { Self("invalid-class") }
    /// A class chain names a class twice, or a class refers to itself.
    public static var classChainLoop: Self { Self("class-chain-loop") }
    /// `NS.keys` and `NS.objects` have different lengths.
    public static var lengthMismatch: Self { Self("length-mismatch") }
    /// The root object is nil (UID 0).
    public static var nullRoot: Self { Self("null-root") }
    /// A value has the wrong type for where it is.
    public static var unexpectedType: Self { Self("unexpected-type") }
    /// A key that must be present is not.
    public static var missingKey: Self { Self("missing-key") }
    /// An object is not of the class the caller asked for.
    public static var unexpectedClass: Self { Self("unexpected-class") }
    /// More objects than ``KeyedArchiveOptions/maximumObjectCount``.
    public static var tooManyObjects: Self { Self("too-many-objects") }
    /// Objects nested deeper than ``KeyedArchiveOptions/maximumDepth``.
    public static var tooDeep: Self { Self("too-deep") }
    /// Shared objects expand to more than ``KeyedArchiveOptions/maximumValueCount`` values.
    public static var tooManyValues: Self { Self("too-many-values") }
    /// The root is asked for as a plain dictionary and has keys that are not strings: the
    /// archive is valid, but a property list keys its dictionaries by strings.
    public static var nonStringKeys: Self { Self("non-string-keys") }
    /// A value that cannot be written where it was asked to go.
    public static var unrepresentable: Self { Self("unrepresentable") }
    /// A rename would overwrite a key that is already present.
    public static var keyConflict: Self { Self("key-conflict") }
}

extension CodecError where Domain == KeyedArchiveErrorDomain {
    /// The property-list error underneath, for ``DiagnosticCode/propertyList``.
    public var underlying: PropertyListError? {
        get { cause as? PropertyListError }
        set { cause = newValue }
    }

    /// Wraps a property-list error, keeping its position text in the reason.
    init(_ underlying: PropertyListError) {
        self.init(.propertyList, underlying.description)
        self.cause = underlying
    }
}
