import Foundation
internal import CXMLShim

/// Reads XML property lists through libxml2's SAX2 push parser.
///
/// libxml2 checks that the XML is well formed and resolves CDATA, character references and the
/// five predefined entities; ``XMLPropertyListBuilder`` checks the plist grammar. The input is
/// fed in slices, and the events of each slice are turned into values before the next, so the
/// parser's buffers stay small whatever the input size.
///
/// Safety: the parser runs with `XML_PARSE_NONET` and without `XML_PARSE_NOENT` or
/// `XML_PARSE_DTDLOAD`; a DOCTYPE with an internal subset (`<!DOCTYPE plist [...]>`) is refused at
/// its `[`, as Apple's readers refuse it, so no declaration is parsed; entities are never stored,
/// so none is expanded (billion laughs) or loaded (an external entity naming a local file), and a
/// reference to one is an error.
/// ``PropertyListReadOptions/maximumDepth`` bounds nesting (the builder keeps containers on its
/// own stack); libxml2 2.9's push parser sets no limit of its own, newer versions refuse elements
/// nested more than 256 deep, which is reported as `PropertyListError.Code.tooDeep` too.
struct XMLPropertyListReader {
    var options: PropertyListReadOptions

    init(options: PropertyListReadOptions) { self.options = options }

    /// How many bytes libxml2 gets at a time.
    private static let sliceSize = 256 << 10

    func read(_ data: Data) throws -> PropertyListValue {
        try readReportingWarnings(data).value
    }

    /// Reads, also returning what was accepted only because ``PropertyListReadOptions`` allow it
    /// (duplicate keys kept with their last value), each with its line, column and key path.
    func readReportingWarnings(_ data: Data) throws -> (value: PropertyListValue, warnings: [PropertyListError]) {
        guard data.count <= options.maximumInputSize else {
            throw PropertyListError(.tooLarge, "input is \(data.count) bytes, more than the limit of \(options.maximumInputSize)")
        }
        guard !data.isEmpty else {
            throw PropertyListError(.truncated, "the document is empty: expected <plist> or a value", at: .lineColumn(line: 1, column: 1))
        }
        let source = try XMLEventSource()
        var data = data
        if let byteOrder = XMLUTF32Input.byteOrder(of: data) {
            data = try XMLUTF32Input.utf8(from: data, byteOrder: byteOrder)
            source.ignoreDeclaredEncoding()
        }
        var builder = XMLPropertyListBuilder(options: options)
        try data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var offset = 0
            while true {
                let end = min(offset + Self.sliceSize, bytes.count)
                let isLast = end == bytes.count
                let running = source.feed(UnsafeBufferPointer(rebasing: bytes[offset..<end]), isLast: isLast)
                try Self.drain(source, into: &builder)
                if !running { throw source.stopError() }
                if isLast { break }
                offset = end
            }
        }
        return (try builder.finish(), builder.warnings)
    }

    /// Hands the events parsed so far to the builder, then lets the C reader forget them.
    private static func drain(_ source: XMLEventSource, into builder: inout XMLPropertyListBuilder) throws {
        let (events, text) = source.pending
        var textOffset = 0
        for event in events {
            let length = Int(event.text_length)
            let slice = UnsafeBufferPointer(start: text.map { $0 + textOffset }, count: length)
            textOffset += length
            try builder.handle(
                kind: event.kind, element: event.element, line: event.line, column: event.column,
                text: slice, unknownName: { source.unknownElementName })
        }
        source.consume()
    }
}
