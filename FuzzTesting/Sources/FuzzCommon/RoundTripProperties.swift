import Foundation
import ResumeDataCodec

// The round-trip properties every harness checks. The same checks are written out again in
// Tests/ResumeDataCodecTests/FuzzFailCasesTests.swift, which replays FailCases/ under `swift test`
// (the main package cannot depend on this nested one).

/// XML: a value read from XML, written as XML and read back, reaches a fixed point after one trip.
/// The first trip may change the value on purpose (XML keeps no -0.0, no 32-bit reals, no
/// sub-second dates, and sets become arrays), so trips two and three are compared.
public func checkXMLRoundTrip(_ value: PropertyListValue, harness: String) {
    let writer = PropertyListWriter()
    let reader = PropertyListReader()
    let first: Data
    do {
        first = try writer.write(value, as: .xml)
    } catch {
        // Strings from binary input may hold characters XML 1.0 cannot; from XML input they cannot.
        return
    }
    do {
        let once = try reader.read(first).value
        let second = try writer.write(once, as: .xml)
        let twice = try reader.read(second).value
        guard once == twice else {
            propertyFailed(harness, "XML trip 2 \(once) != trip 3 \(twice)")
        }
    } catch {
        propertyFailed(harness, "our own XML does not read back: \(error)")
    }
}

/// Binary: a value read from a binary property list, written and read back, is equal. Dates
/// compare with `Date.==`, under which a NaN date is unequal to itself; then the re-encoded bytes
/// must be identical instead.
public func checkBinaryRoundTrip(_ value: PropertyListValue, harness: String) {
    let writer = PropertyListWriter()
    do {
        let bytes = try writer.write(value, as: .binary)
        let (again, format) = try PropertyListReader().read(bytes)
        guard format == .binary else { propertyFailed(harness, "binary writer output read as \(format)") }
        if again != value, try writer.write(again, as: .binary) != bytes {
            propertyFailed(harness, "binary round trip changed \(value) into \(again)")
        }
    } catch {
        propertyFailed(harness, "binary round trip failed: \(error)")
    }
}
