import Foundation
import Testing
@testable import ResumeDataCodec

/// Archived `NSError` and stand-alone `NSURL` archives, as nsurlsessiond keeps them per task.
@Suite struct ArchivedErrorTests {
    private static func error(_ fields: [ArchivedObject.Field], className: String = "NSError") -> ArchivedObject {
        ArchivedObject(className: className, classChain: [className, "NSObject"], fields: fields)
    }

    private static func archive(_ root: ArchivedValue, topKey: String = "root") throws -> Data {
        try KeyedArchive(encoding: root, topKey: topKey).data(format: .binary)
    }

    /// `NSURLErrorDomain -1001` with a URL, a number and a data value in its user info, and a
    /// CFNetwork error underneath.
    private static let timedOut: ArchivedValue = .object(error([
        .init(key: "NSCode", value: .inline(.integer(-1001))),
        .init(key: "NSDomain", value: .reference(.string("NSURLErrorDomain"))),
        .init(key: "NSUserInfo", value: .reference(.dictionary([
            .init(key: "NSLocalizedDescription", value: .string("The request timed out.")),
            .init(key: "NSErrorFailingURLKey", value: .url(ArchivedURL(relativeString: "https://example.com/a.mp3"))),
            .init(key: "_kCFStreamErrorCodeKey", value: .integer(-2102)),
            .init(key: "NSURLSessionDownloadTaskResumeData", value: .data(Data([1, 2, 3]))),
            .init(key: "NSUnderlyingError", value: .object(error([
                .init(key: "NSCode", value: .inline(.integer(-1001))),
                .init(key: "NSDomain", value: .reference(.string("kCFErrorDomainCFNetwork"))),
                .init(key: "NSUserInfo", value: .reference(.null)),
            ]))),
        ]))),
    ]))

    @Test func anErrorWithItsUnderlyingError() throws {
        let decoded = try ArchivedError(archiveData: Self.archive(Self.timedOut))
        #expect(decoded.domain == "NSURLErrorDomain")
        #expect(decoded.code == -1001)
        #expect(decoded.localizedDescription == "The request timed out.")
        #expect(decoded.userInfo.map(\.key) == [
            "NSLocalizedDescription", "NSErrorFailingURLKey", "_kCFStreamErrorCodeKey", "NSURLSessionDownloadTaskResumeData", "NSUnderlyingError",
        ])
        #expect(decoded.userInfoStrings.map { "\($0.key)=\($0.value)" } == [
            "NSLocalizedDescription=The request timed out.", "NSErrorFailingURLKey=https://example.com/a.mp3", "_kCFStreamErrorCodeKey=-2102",
        ])
        let underlying = try #require(decoded.underlying)
        #expect(underlying == ArchivedError(domain: "kCFErrorDomainCFNetwork", code: -1001))
        #expect(underlying.underlying == nil)
        #expect(decoded.description == "NSURLErrorDomain -1001: The request timed out. (underlying: kCFErrorDomainCFNetwork -1001)")
    }

    @Test func aSubclassAndAnAbsentUserInfo() throws {
        let decoded = try ArchivedError(archiveData: Self.archive(.object(ArchivedObject(
            className: "MyError", classChain: ["MyError", "NSError", "NSObject"],
            fields: [.init(key: "NSCode", value: .inline(.integer(7))), .init(key: "NSDomain", value: .reference(.string("D")))]))))
        #expect(decoded == ArchivedError(domain: "D", code: 7))
        #expect(decoded.localizedDescription == nil)
    }

    @Test(arguments: [
        ([ArchivedObject.Field(key: "NSCode", value: .inline(.integer(1)))], KeyedArchiveError.Code.missingKey, "$top.root: no NSDomain"),
        ([.init(key: "NSDomain", value: .reference(.string("D")))], .missingKey, "$top.root: no NSCode"),
        ([.init(key: "NSDomain", value: .reference(.integer(3))), .init(key: "NSCode", value: .inline(.integer(1)))],
         .unexpectedType, "$top.root.NSDomain: NSDomain is 3, not a string"),
        ([.init(key: "NSDomain", value: .reference(.string("D"))), .init(key: "NSCode", value: .inline(.string("x")))],
         .unexpectedType, "$top.root.NSCode: NSCode is \"x\", not an integer"),
        ([.init(key: "NSDomain", value: .reference(.string("D"))), .init(key: "NSCode", value: .inline(.integer(PropertyListInteger(UInt64.max))))],
         .unexpectedType, "$top.root.NSCode: NSCode 18446744073709551615 does not fit in 64 bits"),
        ([.init(key: "NSDomain", value: .reference(.string("D"))), .init(key: "NSCode", value: .inline(.integer(1))),
          .init(key: "NSUserInfo", value: .reference(.array([])))],
         .unexpectedType, "$top.root.NSUserInfo: NSUserInfo is (), not a dictionary"),
        ([.init(key: "NSDomain", value: .reference(.string("D"))), .init(key: "NSCode", value: .inline(.integer(1))),
          .init(key: "NSUserInfo", value: .reference(.dictionary([.init(key: "NSUnderlyingError", value: .string("no"))])))],
         .unexpectedType, "$top.root.NSUserInfo.NSUnderlyingError: NSUnderlyingError is \"no\", not an NSError"),
        ([.init(key: "NSDomain", value: .reference(.string("D"))), .init(key: "NSCode", value: .inline(.integer(1))),
          .init(key: "NSUserInfo", value: .reference(.dictionary([.init(key: "NSUnderlyingError", value: .object(error([
              .init(key: "NSDomain", value: .reference(.string("E")))])))])))],
         .missingKey, "$top.root.NSUserInfo.NSUnderlyingError: no NSCode"),
    ])
    func aMalformedErrorNamesTheKey(_ fields: [ArchivedObject.Field], _ code: KeyedArchiveError.Code, _ message: String) throws {
        let error = #expect(throws: KeyedArchiveError.self) { try ArchivedError(archiveData: Self.archive(.object(Self.error(fields)))) }
        #expect(error?.code == code)
        #expect(error?.description == message)
    }

    @Test func aRootThatIsNotAnErrorIsRefused() throws {
        let string = #expect(throws: KeyedArchiveError.self) { try ArchivedError(archiveData: Self.archive(.string("text"))) }
        #expect(string?.code == .unexpectedClass)
        #expect(string?.description == "$top.root: the root is \"text\", not an NSError")
        let other = #expect(throws: KeyedArchiveError.self) {
            try ArchivedError(archiveData: Self.archive(.object(Self.error([], className: "NSThing"))))
        }
        #expect(other?.description == "$top.root: the object is an NSThing, not an NSError")
    }

    @Test func anErrorThatContainsItselfIsACycle() throws {
        // $objects[1] is the error; its user info's NSUnderlyingError is UID 1 again.
        let plist: PropertyListValue = .dictionary([
            "$archiver": .string("NSKeyedArchiver"), "$version": .integer(100_000), "$top": .dictionary(["root": .uid(1)]),
            "$objects": .array([
                .string("$null"),
                .dictionary(["NSCode": .integer(1), "NSDomain": .uid(2), "NSUserInfo": .uid(3), "$class": .uid(6)]),
                .string("Loop"),
                .dictionary(["NS.keys": .array([.uid(4)]), "NS.objects": .array([.uid(1)]), "$class": .uid(5)]),
                .string("NSUnderlyingError"),
                .dictionary(["$classname": .string("NSDictionary"), "$classes": .array([.string("NSDictionary"), .string("NSObject")])]),
                .dictionary(["$classname": .string("NSError"), "$classes": .array([.string("NSError"), .string("NSObject")])]),
            ]),
        ])
        let data = try PropertyListWriter().write(plist, as: .binary)
        let error = #expect(throws: KeyedArchiveError.self) { try ArchivedError(archiveData: data) }
        #expect(error?.code == .cycle)
        #expect(error?.description == "$objects[3].NS.objects[0]: UID 1 refers back to $objects[1], which contains it (cycle)")
    }

    @Test func aStandAloneURLArchive() throws {
        let url = try ArchivedURL(archiveData: Self.archive(.url(ArchivedURL(relativeString: "file:///.nofollow/private/var/x.tmp"))))
        #expect(url == ArchivedURL(relativeString: "file:///.nofollow/private/var/x.tmp"))
        let based = try ArchivedURL(archiveData: Self.archive(.url(ArchivedURL(relativeString: "b.tmp", baseString: "file:///tmp/"))))
        #expect(based.absoluteString == "file:///tmp/b.tmp")
        let notURL = #expect(throws: KeyedArchiveError.self) { try ArchivedURL(archiveData: Self.archive(.integer(5))) }
        #expect(notURL?.code == .unexpectedClass)
        #expect(notURL?.description == "$top.root: the root is 5, not an NSURL")
        let error = #expect(throws: KeyedArchiveError.self) { try ArchivedURL(archiveData: Self.archive(Self.timedOut)) }
        #expect(error?.description == "$top.root: the root is an NSError, not an NSURL")
        let garbage = #expect(throws: KeyedArchiveError.self) { try ArchivedURL(archiveData: Data("nope".utf8)) }
        #expect(garbage?.code == .propertyList)
    }
}
