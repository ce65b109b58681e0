import Foundation

/// Reads the objects of a ``KeyedArchive`` one UID at a time, for a reader that walks a graph
/// the tree decoder does not take as a whole: nsurlsessiond's older task list, a dictionary
/// whose keys are numbers and whose values are task objects holding requests and responses.
///
/// Each call decodes one object with the archive's own limits (cycle, depth and expansion
/// checks), so a broken object is an error for that object alone.
package struct KeyedArchiveObjectReader: Sendable {
    /// The archive read.
    package let archive: KeyedArchive

    /// Reads the frame of an archive (either property-list format).
    /// - Throws: ``KeyedArchiveError`` as ``KeyedArchive/init(data:options:)`` does.
    package init(data: Data, options: KeyedArchiveOptions = .default) throws {
        archive = try KeyedArchive(data: data, options: options)
    }

    /// The root object's UID.
    package var rootUID: UInt64 { archive.rootUID }

    /// The number of objects in `$objects`.
    package var objectCount: Int { archive.objects.count }

    /// The object at `uid` as stored: a scalar, or an object dictionary whose fields are not
    /// resolved.
    /// - Throws: ``KeyedArchiveError`` for a UID out of range.
    package func raw(_ uid: UInt64) throws -> PropertyListValue {
        try archive.object(at: uid, keyPath: "$objects")
    }

    /// The class name of the object dictionary at `uid`.
    /// - Throws: ``KeyedArchiveError`` when it is no object dictionary or its class is malformed.
    package func className(at uid: UInt64) throws -> String {
        try archive.objectClass(at: uid).name
    }

    /// The object at `uid` decoded as a tree (UID 0 is ``ArchivedValue/null``).
    /// - Throws: ``KeyedArchiveError`` naming the object at fault.
    package func value(at uid: UInt64) throws -> ArchivedValue {
        if uid == 0 { return .null }
        return try archive.decodeValue(at: uid)
    }

    /// The `NSURLRequest` at `uid`.
    /// - Throws: ``KeyedArchiveError`` when it is no request or is malformed.
    package func request(at uid: UInt64) throws -> URLRequestArchive {
        var decoder = KeyedArchiveDecoder(archive: archive)
        return try URLRequestArchive(object: decoder.decodeRawObject(uid: uid), keyPath: "$objects[\(uid)]")
    }

    /// The `NSURLResponse` at `uid`.
    /// - Throws: ``KeyedArchiveError`` when it is no response or is malformed.
    package func response(at uid: UInt64) throws -> ArchivedURLResponse {
        var decoder = KeyedArchiveDecoder(archive: archive)
        return try ArchivedURLResponse(object: decoder.decodeRawObject(uid: uid), keyPath: "$objects[\(uid)]")
    }

    /// The `NSError` at `uid`.
    /// - Throws: ``KeyedArchiveError`` when it is no error or is malformed.
    package func error(at uid: UInt64) throws -> ArchivedError {
        let path = "$objects[\(uid)]"
        guard case .object(let object) = try value(at: uid) else {
            throw KeyedArchiveError(.unexpectedClass, "not an NSError", keyPath: path)
        }
        return try ArchivedError(object: object, keyPath: path)
    }
}
