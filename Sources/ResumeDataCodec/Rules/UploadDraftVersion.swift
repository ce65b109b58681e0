/// The interop version of the resumable-upload draft (draft-ietf-httpbis-resumable-upload) that
/// an upload blob's `draftVersion` names: the one rule for which versions exist, which Apple's
/// systems write, and which this package speaks.
public struct UploadDraftVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The interop version.
    public let number: Int

    /// The interop versions the draft has defined that matter here: 3 (draft -01) up to 8
    /// (drafts -09 and later).
    public static let known: ClosedRange<Int> = 3...8

    /// A version as `draftVersion` spells it: the number's decimal digits and nothing else
    /// (CFNetwork compares the string with its set's, so `06` is not `6`); nil for any other text
    /// and for versions outside ``known``.
    public init?(_ text: String) {
        guard (1...2).contains(text.utf8.count), let number = Int(text), String(number) == text, Self.known.contains(number)
        else { return nil }
        self.number = number
    }

    /// Which Apple systems write this version, as far as decompiled CFNetwork and the draft's
    /// implementations list show: 3 by iOS 17 / macOS 14, 5 by iOS 18.0 / macOS 15.0, 6 from
    /// iOS 18.1 / macOS 15.1; nil for versions no Apple system is known to write.
    public var appleSystems: String? {
        switch number {
        case 3: "iOS 17, macOS 14"
        case 5: "iOS 18.0, macOS 15.0"
        case 6: "iOS 18.1 and later, macOS 15.1 and later"
        default: nil
        }
    }

    /// Whether the 18.2-era CFNetwork reader accepts a blob of this version: its supported set
    /// is {3, 6} in tvOS 18.2.1 (seen in code); the sets of other releases are not known.
    public var acceptedByCurrentSystems: Bool { number == 3 || number == 6 }

    /// `a < b` when a is the older interop version.
    public static func < (left: Self, right: Self) -> Bool { left.number < right.number }

    /// The number, as `draftVersion` spells it.
    public var description: String { String(number) }
}
