@testable import ResumeScan
import Testing

/// Paths as keys and as containers of paths, byte for byte: ``PathKey``, ``PathMap``,
/// ``PathSet``, ``AppContainerLayout/isInside(_:folder:)`` and
/// ``AppContainerLayout/containerRoot(of:containers:)``.
@Suite struct PathKeyTests {
    static let composed = "caf\u{e9}"
    static let decomposed = "cafe\u{301}"

    @Test func canonicallyEquivalentSpellingsAreTwoKeys() {
        #expect(Self.composed == Self.decomposed)
        #expect(PathKey(Self.composed) != PathKey(Self.decomposed))
        #expect(PathKey(Self.composed) == PathKey("caf\u{e9}"))
        #expect(Set([PathKey(Self.composed), PathKey(Self.decomposed), PathKey(Self.composed)]).count == 2)

        var map: PathMap<Int> = [Self.composed: 1]
        map[Self.decomposed] = 2
        #expect(map.count == 2)
        #expect(map[Self.composed] == 1)
        #expect(map[Self.decomposed] == 2)
        map[Self.decomposed, default: 0] += 10
        #expect(map[Self.decomposed] == 12)
        #expect(map.updateValue(3, forKey: Self.composed) == 1)
        #expect(map.removeValue(forKey: Self.decomposed) == 12)
        #expect(map.keys.map { Array($0.utf8) } == [Array(Self.composed.utf8)])
        #expect(map[Self.decomposed] == nil)
        map.removeAll()
        #expect(map.isEmpty)

        var set: PathSet = [Self.composed]
        #expect(set.contains(Self.composed))
        #expect(!set.contains(Self.decomposed))
        set.insert(Self.decomposed)
        #expect(set.count == 2)
    }

    @Test(arguments: [
        ("/a/b", "/a", true), ("/a", "/a", true), ("/ab", "/a", false), ("/a/b", "/a/", true), ("/a", "/", true),
        ("a", "/", false), ("/x/caf\u{e9}/f", "/x/cafe\u{301}", false), ("/x/cafe\u{301}/f", "/x/cafe\u{301}", true),
        // A name that begins with a combining mark is inside the folder before its `/`.
        ("ev/\u{301}app/f", "ev", true), ("ev\u{301}", "ev", false),
    ])
    func isInside(_ path: String, _ folder: String, _ inside: Bool) {
        #expect(AppContainerLayout.isInside(path, folder: folder) == inside)
    }

    @Test func theContainerIsFoundByItsBytes() {
        let containers: PathSet = ["ev/\(Self.decomposed)", "ev/\u{301}app", "/"]
        #expect(AppContainerLayout.containerRoot(of: "ev/\(Self.decomposed)/Library/blob", containers: containers).map { Array($0.utf8) }
                == Array("ev/\(Self.decomposed)".utf8))
        #expect(AppContainerLayout.containerRoot(of: "ev/\u{301}app/tmp/x", containers: containers).map { Array($0.utf8) } == Array("ev/\u{301}app".utf8))
        #expect(AppContainerLayout.containerRoot(of: "ev/\(Self.composed)/Library/blob", containers: ["ev/\(Self.decomposed)"]) == nil)
        #expect(AppContainerLayout.containerRoot(of: "/a/b", containers: containers) == "/")
    }
}
