import Foundation
import Testing
@testable import ResumeDataCodec
@Test func zzScratch() {
    for text in ["   ", "<?xml version=\"1.0\"?>", "<plist>\n<dict>\n<key>a</key>\n<string>abc", "<true/>garbage", "<true/><false/>", "<a", "<plist><dict></plist>",
                 "<!DOCTYPE plist [<!ENTITY e \"x\">]><string>&e;</string>", "<string>&e;</string>", "<string>&#0;</string>", "<string>\u{1}</string>", "<plist version=\"1.0\"><string>a</string></plist>x",
                 "<!DOCTYPE plist SYSTEM \"file:///etc/passwd\"><string>&x;</string>", "<?xml version=\"1.0\" encoding=\"bogus\"?><true/>", "< true/>", "<true/ >", "<string>a</string b>"] {
        print(text.debugDescription, "=>", XMLTestSupport.readError(text).map { "\($0.code): \($0)" } ?? "ok")
    }
    print(XMLTestSupport.readError(bytes: Array("<string>a".utf8) + [0xFF, 0xFE] + Array("</string>".utf8)).map { "\($0.code): \($0)" } ?? "ok")
}
