import Foundation

/// One field of a keyed archive's root object, raw: what `KeyedArchive.object(at:)` shows of it.
package struct KeyedArchiveField: Sendable, Hashable {
    /// The field's value as the property list holds it: a UID stays a UID.
    package var value: PropertyListValue
    /// When ``value`` is a UID in range, the raw object it names.
    package var target: PropertyListValue?

    init(value: PropertyListValue, target: PropertyListValue? = nil) {
        self.value = value
        self.target = target
    }
}

extension KeyedArchive {
    /// Fields of a binary archive's root object, read in place without building the archive:
    /// for each of `keys`, the field, or nil when the root has no such key. The whole archive
    /// returns nil when ``init(data:options:)`` must decide instead (and say why, if it refuses):
    /// whatever `URLRequestArchive`'s in-place reader leaves to the full one (an XML archive, a
    /// property list it does not check as strictly), more than `maximumObjectCount` objects in
    /// `$objects`, a root that is not a dictionary.
    ///
    /// So a result is exactly what `init(data: data, options: o)` with
    /// `o.maximumObjectCount == maximumObjectCount` and the default property-list options, then
    /// `object(at: rootUID)`, would show. It is for a caller that reads a few fields of many
    /// small archives (an encrypted backup's MBFile records, one per file).
    package static func rootFields(of data: Data, named keys: [StaticString], maximumObjectCount: Int) -> [KeyedArchiveField?]? {
        BinaryRequestArchiveReader.rootFields(from: data, named: keys, maximumObjectCount: maximumObjectCount)
    }
}
