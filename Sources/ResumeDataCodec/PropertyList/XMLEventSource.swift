internal import CXMLShim

/// libxml2's SAX2 push parser, seen as a stream of element events (see `CXMLShim.h`).
///
/// The C reader owns every buffer and the parser context; this class owns the C reader and frees
/// it in `deinit`, the one place it is freed. libxml2 sees the caller's bytes only during
/// ``feed(_:isLast:)``.
final class XMLEventSource {
    private let reader: OpaquePointer

    init() throws {
        guard let reader = cxml_reader_create() else {
            throw PropertyListError(.malformedXML, "out of memory while starting the XML parser")
        }
        self.reader = reader
    }

    deinit { cxml_reader_destroy(reader) }

    /// Makes the parser ignore the encoding the XML declaration names, for input already
    /// converted to UTF-8 (see ``XMLUTF32Input``). Before the first ``feed(_:isLast:)``.
    func ignoreDeclaredEncoding() { cxml_reader_ignore_declared_encoding(reader) }

    /// Parses the next bytes; returns `false` once the parser has stopped (see ``stopError()``).
    func feed(_ bytes: UnsafeBufferPointer<UInt8>, isLast: Bool) -> Bool {
        cxml_reader_feed(reader, bytes.baseAddress, bytes.count, isLast ? 1 : 0) == 0
    }

    /// The events produced since the last ``consume()`` and the text buffer they index.
    var pending: (events: UnsafeBufferPointer<cxml_event>, text: UnsafePointer<UInt8>?) {
        let count = cxml_reader_event_count(reader)
        return (UnsafeBufferPointer(start: cxml_reader_events(reader), count: count), cxml_reader_text(reader))
    }

    /// Forgets the events returned by ``pending``.
    func consume() { cxml_reader_consume(reader) }

    /// The name of the element outside the plist DTD that stopped the parser.
    var unknownElementName: String {
        cxml_reader_unknown_name(reader).map { String(cString: $0) } ?? "?"
    }

    /// Why the parser stopped, as the error users see.
    func stopError() -> PropertyListError {
        let stop = cxml_reader_stop(reader)
        let location = PropertyListError.Location.lineColumn(line: Int(max(stop.line, 1)), column: Int(max(stop.column, 1)))
        let message = stop.message.map { String(cString: $0) } ?? ""
        switch Int(stop.reason) {
        case CXML_STOP_ENTITY:
            return PropertyListError(
                .malformedXML,
                "entity &\(message); is not allowed: a property list may use only &amp; &lt; &gt; &apos; &quot; and character references",
                at: location)
        case CXML_STOP_INTERNAL_SUBSET:
            return PropertyListError(
                .malformedXML,
                "an internal DTD subset (<!DOCTYPE plist [...]>) is not allowed: Apple's property-list readers refuse it",
                at: location)
        case CXML_STOP_OUT_OF_MEMORY:
            return PropertyListError(.malformedXML, "out of memory while parsing XML", at: location)
        case CXML_STOP_XML_ERROR:
            return XMLParserDiagnostic(
                code: Int(stop.xml_code), message: message,
                str1: stop.str1.map { String(cString: $0) }, str2: stop.str2.map { String(cString: $0) },
                int1: Int(stop.int1)
            ).error(at: location)
        default:
            return PropertyListError(.malformedXML, "the XML parser stopped without saying why", at: location)
        }
    }
}
