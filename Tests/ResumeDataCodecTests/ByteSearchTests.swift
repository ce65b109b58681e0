import Foundation
import Testing
@testable import ResumeDataCodec

/// ``ByteSearch``, value by value: at the start, the end, across a partial match, absent, longer
/// than the bytes, empty either side, and in `Data` slices (whose indices do not start at 0).
@Suite struct ByteSearchTests {
    @Test(arguments: [
        ("NSKeyedArchiver", "NSKeyedArchiver", true),
        ("xxNSKeyedArchiver", "NSKeyedArchiver", true),
        ("NSKeyedArchiverxx", "Archiver", true),
        ("NSKeyedArchiveNSKeyedArchiver", "NSKeyedArchiver", true),
        ("NSKeyedArchive", "NSKeyedArchiver", false),
        ("resumeur", "resumeURL", false),
        ("", "a", false),
        ("abc", "", true),
        ("", "", true),
    ])
    func findsWhatIsThere(_ haystack: String, _ needle: String, _ expected: Bool) {
        #expect(ByteSearch.contains(Array(needle.utf8), in: Array(haystack.utf8)) == expected)
        #expect(ByteSearch.contains(Array(needle.utf8), in: Data(haystack.utf8)) == expected)
    }

    @Test func searchesOnlyTheSlice() {
        let data = Data("draftVersion|resumeURL".utf8)
        let tail = data.dropFirst(13)
        #expect(ByteSearch.contains(Array("resumeURL".utf8), in: tail))
        #expect(!ByteSearch.contains(Array("draftVersion".utf8), in: tail))
        #expect(!ByteSearch.contains(Array("resumeURL".utf8), in: data.prefix(20)))
    }
}
