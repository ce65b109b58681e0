@testable import ResumeDataCodec

@testable import ResumeTransfer

/// Header fields as a test spells them, in order. Every pair keeps `HTTPHeaderField`'s rule; one
/// that broke it would be missing, and the comparison it is in would fail.
func fields(_ pairs: KeyValuePairs<String, String>) -> [HTTPHeaderField] {
    pairs.compactMap { HTTPHeaderField.engine($0.key, $0.value) }
}
