/// Why a property list could not be read or written, and where.
///
/// Errors compare equal when their ``CodecError/code`` is equal, so tests can match the kind of
/// failure without spelling out the message. The ``CodecError/description`` reads like a compiler
/// diagnostic: `3:17: expected </string>, found </key>` for XML, `byte 0x1a4: object 12: …` for binary.
public typealias PropertyListError = CodecError<PropertyListErrorDomain>

/// The domain of ``PropertyListError`` and its codes.
public enum PropertyListErrorDomain {}

extension DiagnosticCode where Domain == PropertyListErrorDomain {
    /// The input ends before a structure it announced.
    public static var truncated: Self { Self("truncated") }
    /// The input is not a property list in any format this library reads.
    public static var unknownFormat: Self { Self("unknown-format") }
    /// XML that is not well formed, as libxml2 reports it.
    public static var malformedXML: Self { Self("malformed-xml") }
    /// An element or object where the property-list grammar does not allow it.
    public static var unexpectedElement: Self { Self("unexpected-element") }
    /// The text of a `<integer>`, `<real>`, `<date>` or `<data>` element cannot be parsed.
    public static var invalidValue: Self { Self("invalid-value") }
    /// A number does not fit the type that must hold it.
    public static var integerOverflow: Self { Self("integer-overflow") }
    /// A dictionary has the same key twice.
    public static var duplicateKey: Self { Self("duplicate-key") }
    /// A dictionary key is not a string.
    public static var invalidKey: Self { Self("invalid-key") }
    /// The binary trailer is inconsistent (sizes, counts, offsets).
    public static var invalidTrailer: Self { Self("invalid-trailer") }
    /// An object reference or offset points outside the object table or the input.
    public static var referenceOutOfRange: Self { Self("reference-out-of-range") }
    /// A container contains itself.
    public static var cycle: Self { Self("cycle") }
    /// Bytes that are not valid UTF-8, UTF-16 or ASCII for the string type that holds them.
    public static var invalidString: Self { Self("invalid-string") }
    /// An unknown binary object marker.
    public static var unknownObjectType: Self { Self("unknown-object-type") }
    /// Nesting deeper than ``PropertyListReadOptions/maximumDepth``.
    public static var tooDeep: Self { Self("too-deep") }
    /// More objects than ``PropertyListReadOptions/maximumObjectCount``.
    public static var tooManyObjects: Self { Self("too-many-objects") }
    /// Input longer than ``PropertyListReadOptions/maximumInputSize``.
    public static var tooLarge: Self { Self("too-large") }
    /// A value that the target format cannot represent.
    public static var unrepresentable: Self { Self("unrepresentable") }
}
