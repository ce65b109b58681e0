import Foundation

extension ResumeData {
    /// Writes the blob in a container (by default the one it was read from).
    ///
    /// - `xml`: Apple's XML layout with sorted keys, as iOS 7–11 wrote it.
    /// - `binary`: a binary property list of the dictionary, keys in their order.
    /// - `keyed-archive`: as iOS 12+ writes it: top key `NSKeyedArchiveRootObjectKey`, an
    ///   `NSMutableDictionary` root, keys in Apple's insertion order. The top key is always that
    ///   literal string, the one Apple's writer uses, whatever key the blob was read with (`root`,
    ///   the value of Foundation's constant of that name, say): what is written is meant for a
    ///   device, and the key carries nothing of the blob.
    /// - `keyed-archive-xml`: the same archive as an XML property list.
    /// - `nwurlsession`: the Network-framework format of spec §6 (in the layout it was read in, else flat);
    ///   `nwurlsession-webkit` wraps it as WebKit does. Byte count, info version and byte range have
    ///   no place there and are left out; a validator not in the response is an error.
    ///
    /// A Network-framework blob written in a classic container gets the response's `ETag` and
    /// `Last-Modified` under their keys (when it has none) and info version 4.
    /// - Throws: ``ResumeDataError`` (`unencodable`) when a value cannot be written.
    public func encoded(as container: ResumeDataContainer? = nil) throws -> Data {
        let target = container ?? self.container
        // A Network-framework blob keeps its validators only in the response; a classic
        // container has keys for them, which older devices need.
        var source = self
        if self.container.isNetworkFramework, !target.isNetworkFramework {
            source.entries = NetworkResumeInfo.classicEntries(of: self)
        }
        // A plain dictionary with a top key `$archiver` reads as a keyed archive, in Apple's reader
        // as in ours: written as one, it would come back as something else or not at all.
        if target == .xml || target == .binary, source.entries["$archiver"] != nil {
            throw ResumeDataError(
                .unencodable,
                "cannot write as \(target): the key $archiver would make every reader take the blob for a keyed archive")
        }
        do {
            switch target {
            case .xml:
                return try PropertyListWriter(keyOrder: .sorted).write(.dictionary(source.entries), as: .xml)
            case .binary:
                return try PropertyListWriter().write(.dictionary(source.entries), as: .binary)
            case .keyedArchive, .keyedArchiveXML:
                let archive = try KeyedArchive.encodeDictionary(
                    source.entriesInAppleOrder, topKey: KeyedArchive.rootObjectKey)
                return try PropertyListWriter().write(archive, as: target.propertyListFormat)
            case .networkFramework, .networkFrameworkWebKit:
                return try NetworkResumeInfo.encode(self, layout: networkLayout ?? .flat, webKit: target == .networkFrameworkWebKit)
            }
        } catch let error as ResumeDataError where error.code != .unencodable || !target.isNetworkFramework {
            throw error
        } catch let error as ResumeDataError {
            throw ResumeDataError(.unencodable, "cannot write as \(target): \(error.reason)")
        } catch {
            throw ResumeDataError(.unencodable, "cannot write as \(target): \(error)")
        }
    }

    /// The entries with the keys Apple's modern writer knows first, in its order, then the rest
    /// in theirs.
    var entriesInAppleOrder: PropertyListDictionary {
        var ordered = PropertyListDictionary()
        for key in ResumeDataKey.appleInsertionOrder {
            if let value = entries[key] { ordered[key] = value }
        }
        for (key, value) in entries where ordered[key] == nil { ordered[key] = value }
        return ordered
    }
}
