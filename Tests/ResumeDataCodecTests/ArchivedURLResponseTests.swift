import Foundation
import Testing
@testable import ResumeDataCodec

/// The three real archived responses of Fixtures/real, field by field (expected values in
/// Fixtures/real/README.md), and the hostile cases.
@Suite struct ArchivedURLResponseTests {
    typealias Support = KeyedArchiveTestSupport

    static func pairs(_ headers: [(name: String, value: String)]) -> [String] { headers.map { "\($0.name): \($0.value)" } }

    @Test func the2008LegacyHTTPResponse() throws {
        let response = try ArchivedURLResponse(archiveData: Support.realFixture("response-2008-http-legacy.bplist"))
        #expect(response.layout == .legacy)
        #expect(response.topKey == "WebResourceResponse")
        #expect(response.className == "NSHTTPURLResponse")
        #expect(response.classChain == ["NSHTTPURLResponse", "NSURLResponse", "NSObject"])
        #expect(response.isHTTP)
        #expect([response.archiveVersion, response.unconfirmedHeaderValue, response.itemCount] == [8, 1, 7])
        #expect(response.items.count == 7)
        #expect(response.namedFields == [.init(key: "$10", value: .inline(8)), .init(key: "$11", value: .inline(0))])
        #expect(response.urlString == "http://localhost/test.php")
        #expect(response.date == Date(timeIntervalSinceReferenceDate: 225785775.951692))
        #expect(response.statusCode == 200)
        #expect(Self.pairs(response.headers) == [
            "X-Powered-By: PHP/5.2.4", "Cache-Control: max-age=0", "Keep-Alive: timeout=5, max=100",
            "Server: Apache/2.2.6 (Unix) mod_ssl/2.2.6 OpenSSL/0.9.7l DAV/2 PHP/5.2.4", "Content-Type: image/png",
            "Date: Wed, 27 Feb 2008 06:16:15 GMT", "Content-Length: 490", "Connection: Keep-Alive",
        ])
        #expect(response.expectedContentLength == 490)
        #expect(response.items[5] == .reference(.integer(490)))
        #expect(response.mimeType == nil)
        #expect(response.textEncodingName == nil)
        #expect(response.entityTag == nil)
        #expect(response.lastModified == nil)
    }

    @Test func the2020SecureHTTPResponse() throws {
        let response = try ArchivedURLResponse(archiveData: Support.realFixture("response-2020-http-secure.bplist"))
        #expect(response.layout == .secure)
        #expect(response.className == "NSHTTPURLResponse")
        #expect([response.archiveVersion, response.unconfirmedHeaderValue, response.itemCount] == [8, 1, 7])
        #expect(response.namedFields == [.init(key: "$3", value: .inline(9)), .init(key: "$4", value: .inline(false))])
        #expect(response.urlString == "https://crouton.net/crouton.png")
        #expect(response.date == Date(timeIntervalSinceReferenceDate: 612508329.848802))
        #expect(response.statusCode == 200)
        #expect(Self.pairs(response.headers) == [
            "Server: Apache/2.4.25 (Debian)", "Content-Type: image/png", "Etag: \"143e-4fa5647f1c100\"",
            "Last-Modified: Mon, 26 May 2014 23:53:08 GMT", "Date: Sat, 30 May 2020 05:11:56 GMT",
            "Accept-Ranges: bytes", "Content-Length: 5182", "Keep-Alive: timeout=5, max=100", "Connection: Keep-Alive",
        ])
        // The hidden entry stays in the item, fifth as in the archive.
        let headerItem = try #require(response.items[4].value?.dictionaryEntries)
        #expect(headerItem.count == 10)
        #expect(headerItem[4].key == "__hhaa__")
        #expect(response.entityTag == "\"143e-4fa5647f1c100\"")
        #expect(response.lastModified == "Mon, 26 May 2014 23:53:08 GMT")
        #expect(response.items[5] == .reference(.null))
        #expect(response.expectedContentLength == 5182)
        #expect(response.mimeType == "image/png")
    }

    @Test func the2023PlainFileResponse() throws {
        let response = try ArchivedURLResponse(archiveData: Support.realFixture("response-2023-file-secure.bplist"))
        #expect(response.layout == .secure)
        #expect(response.className == "NSURLResponse")
        #expect(response.classChain == ["NSURLResponse", "NSObject"])
        #expect(!response.isHTTP)
        #expect([response.archiveVersion, response.unconfirmedHeaderValue, response.itemCount] == [8, 0, 7])
        #expect(response.namedFields.isEmpty)
        #expect(response.urlString == "file:///extractor.png")
        #expect(response.date == Date(timeIntervalSinceReferenceDate: 704502312.232838))
        #expect(response.statusCode == nil)
        #expect(response.headers.isEmpty)
        #expect(response.mimeType == "image/png")
        #expect(response.textEncodingName == nil)
        #expect(response.expectedContentLength == 19061)
        #expect(response.items[6] == .reference(.real(PropertyListReal(Double.greatestFiniteMagnitude))))
    }

    @Test(arguments: ["response-2008-http-legacy.bplist", "response-2020-http-secure.bplist", "response-2023-file-secure.bplist"])
    func reEncodingKeepsEveryItem(name: String) throws {
        let response = try ArchivedURLResponse(archiveData: Support.realFixture(name))
        let again = try ArchivedURLResponse(archiveData: response.archiveData())
        #expect(again == response)
    }

    @Test(arguments: ["response-2008-http-legacy.bplist", "response-2020-http-secure.bplist", "response-2023-file-secure.bplist"])
    func everyPrefixIsACleanError(name: String) throws {
        let bytes = try Support.realFixture(name)
        for length in 0..<bytes.count {
            #expect(throws: KeyedArchiveError.self) { try ArchivedURLResponse(archiveData: bytes.prefix(length)) }
        }
    }

    @Test func builtResponseReadsBack() throws {
        let date = Date(timeIntervalSinceReferenceDate: 785_000_000)
        let built = ArchivedURLResponse(url: "https://example.com/a.bin", statusCode: 200,
                                        headers: [("ETag", "\"x\""), ("Content-Length", "10"), ("ETag", "\"y\"")],
                                        mimeType: "application/octet-stream", date: date)
        let read = try ArchivedURLResponse(archiveData: built.archiveData())
        #expect(read == built)
        #expect(read.topKey == "root")
        #expect(Self.pairs(read.headers) == ["ETag: \"x\"", "Content-Length: 10"])
        #expect(read.expectedContentLength == 10)
        #expect(read.date == date)
        #expect(read.mimeType == "application/octet-stream")
    }

    // MARK: Hostile responses

    static func object(_ className: String, chain: [String], _ fields: [(String, ArchivedObject.FieldValue)]) -> ArchivedObject {
        ArchivedObject(className: className, classChain: chain, fields: fields.map { .init(key: $0.0, value: $0.1) })
    }

    static let httpChain = ["NSHTTPURLResponse", "NSURLResponse", "NSObject"]

    @Test func aRequestIsNotAResponse() throws {
        let error = try #require(throws: KeyedArchiveError.self) {
            try ArchivedURLResponse(archiveData: Support.realFixture(Support.currentRequestName))
        }
        #expect(error.code == .unexpectedClass)
        #expect(error.description == "$objects[1]: the object is an NSURLRequest, not an NSURLResponse")
    }

    @Test func missingHeaderIntegerNamesTheObject() throws {
        let object = Self.object("NSHTTPURLResponse", chain: Self.httpChain, [("$0", .inline(8)), ("$1", .inline(1))])
        let error = try #require(throws: KeyedArchiveError.self) { try ArchivedURLResponse(object: object, keyPath: "x") }
        #expect(error.description == "x: no $2")
    }

    @Test func legacyCountBeyondTheItemsIsAnError() throws {
        let object = Self.object("NSHTTPURLResponse", chain: Self.httpChain,
                                 [("$0", .inline(8)), ("$1", .inline(1)), ("$2", .inline(2)), ("$3", .reference(.null))])
        let error = try #require(throws: KeyedArchiveError.self) { try ArchivedURLResponse(object: object, keyPath: "x") }
        #expect(error.description == "x: $2 announces 2 items but $4 (item 1) is missing")
    }

    @Test func aURLItemOfAnotherTypeIsAnError() throws {
        let object = Self.object("NSURLResponse", chain: ["NSURLResponse", "NSObject"],
                                 [("$0", .inline(8)), ("$1", .inline(0)), ("$2", .inline(1)),
                                  ("__nsurlrequest_proto_prop_obj_0", .reference(.integer(3)))])
        let error = try #require(throws: KeyedArchiveError.self) { try ArchivedURLResponse(object: object, keyPath: "x") }
        #expect(error.description == "x.__nsurlrequest_proto_prop_obj_0: item 0 is 3, not an NSURL or nil")
    }

    @Test func itemsOfUnexpectedTypesReadAsUnknown() throws {
        let items: [ArchivedObject.FieldValue] = [
            .reference(.null), .reference(.real(PropertyListReal(Double.nan))), .reference(.integer(0)),
            .reference(.string("200")), .reference(.string("not headers")), .reference(.integer(-1)), .reference(.integer(5)),
        ]
        var fields: [(String, ArchivedObject.FieldValue)] = [("$0", .inline(8)), ("$1", .inline(1)), ("$2", .inline(7))]
        for (index, item) in items.enumerated() { fields.append(("__nsurlrequest_proto_prop_obj_\(index)", item)) }
        let response = try ArchivedURLResponse(object: Self.object("NSHTTPURLResponse", chain: Self.httpChain, fields), keyPath: "x")
        #expect(response.urlString == nil)
        #expect(response.date == nil)
        #expect(response.statusCode == nil)
        #expect(response.headers.isEmpty)
        #expect(response.expectedContentLength == nil)
        #expect(response.mimeType == nil)
    }

    @Test(arguments: ["-5", "1e3", "", " ", "99999999999999999999999", "12a"])
    func aContentLengthThatIsNotANumberIsUnknown(header: String) throws {
        let response = ArchivedURLResponse(url: "https://e.com/", statusCode: 200, headers: [("Content-Length", header)], mimeType: nil, date: Date())
        #expect(response.expectedContentLength == nil)
    }
}
