import Foundation
import Testing
@testable import ResumeDataCodec
@testable import ResumeScan

/// ``EvidenceTriage`` value by value: the one decision a folder's files, a backup's stored files
/// and an archive's members all go through (issue 34).
@Suite struct EvidenceTriageTests {
    static let sqlite = Array("SQLite format 3".utf8) + [0] + [0x10, 0x00, 0x02, 0x02]
    static let bplist = Array("bplist00".utf8) + [0xD1, 0x01, 0x02]
    static let xml = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"x\">\n<plist version=\"1.0\"><dict/></plist>\n".utf8)
    static let partialName = "CFNetworkDownload_Occ2S2.tmp"

    static func verdict(_ prefix: [UInt8], _ name: String = "tasks.sqlite", parent: String = "com.apple.nsurlsessiond",
                        size: Int64? = nil, wal: EvidenceTriage.WAL = .unknown) -> EvidenceTriage.Verdict {
        EvidenceTriage.verdict(prefix: prefix, name: name, parentName: parent, size: size, wal: wal)
    }

    /// SQLite's header may be the ledger, whatever is beside it; an empty file only when a WAL
    /// is, or may be; a partial file never.
    @Test func ledgers() {
        for wal in [EvidenceTriage.WAL.beside, .none, .unknown] {
            #expect(Self.verdict(Self.sqlite, wal: wal) == .ledger)
            #expect(Self.verdict(Self.sqlite, "Manifest-copy.db", parent: "Documents", size: 4096, wal: wal) == .ledger)
            #expect(Self.verdict(Self.sqlite, Self.partialName, parent: "tmp", wal: wal) == .partialFile(mayHoldBlobs: false))
            #expect(Self.verdict([], Self.partialName, parent: "tmp", wal: wal) == .partialFile(mayHoldBlobs: false))
        }
        #expect(Self.verdict([], wal: .beside) == .ledger)
        #expect(Self.verdict([], wal: .unknown) == .ledger)
        #expect(Self.verdict([], wal: .none) == .skip)
        #expect(Self.verdict([], size: 0, wal: .beside) == .ledger)
        #expect(Self.verdict([], size: 0, wal: .none) == .skip)
        // SQLite's header cut short is no header.
        #expect(Self.verdict(Array(Self.sqlite.prefix(15))) == .skip)
        #expect(EvidenceTriage.mayBeLedger(prefix: Self.sqlite, isEmpty: false, isPartialFile: false, wal: .none))
        #expect(!EvidenceTriage.mayBeLedger(prefix: [UInt8](), isEmpty: true, isPartialFile: false, wal: .none))
        #expect(!EvidenceTriage.mayBeLedger(prefix: [UInt8](), isEmpty: true, isPartialFile: true, wal: .beside))
    }

    @Test func candidatesAndPartialFiles() {
        #expect(Self.verdict(Self.bplist, "com.example.app.plist", parent: "Preferences") == .candidate)
        #expect(Self.verdict(Self.xml, "x.plist", parent: "Preferences") == .candidate)
        #expect(Self.verdict(Array(ResumeData.obscuredMagic) + [1, 2, 3], "f00d", parent: "nw") == .candidate)
        #expect(Self.verdict(Array("<html><body/></html>".utf8), "index.html", parent: "www") == .skip)
        #expect(Self.verdict(Array("shopping list\n".utf8), "notes.txt", parent: "Documents") == .skip)
        #expect(Self.verdict(Self.bplist, Self.partialName, parent: "tmp") == .partialFile(mayHoldBlobs: true))
        #expect(Self.verdict(Array("partial bytes".utf8), Self.partialName, parent: "tmp") == .partialFile(mayHoldBlobs: false))
        // A WebKit download folder's data file is a partial file; its Info.plist is a property list.
        #expect(Self.verdict(Array("movie".utf8), "movie.mov", parent: "movie.mov.download") == .partialFile(mayHoldBlobs: false))
        #expect(Self.verdict(Self.bplist, "Info.plist", parent: "movie.mov.download") == .candidate)
        // Look-alikes of a partial file's name are ordinary files.
        #expect(Self.verdict(Self.sqlite, "CFNetworkDownload_.tmp", parent: "tmp") == .ledger)
        #expect(Self.verdict(Array("x".utf8), "CFNetworkDownload_Occ2S2.tmp.bak", parent: "tmp") == .skip)
        #expect(EvidenceTriage.Verdict.candidate.mayHoldBlobs)
        #expect(!EvidenceTriage.Verdict.ledger.mayHoldBlobs)
        #expect(!EvidenceTriage.Verdict.skip.isPartialFile)
    }

    /// An encrypted backup's file is triaged on its first AES block: with more of the file to
    /// come, a start that may still turn out a property list is decrypted further.
    @Test func aFirstBlockOfALargerFile() {
        let spaces = [UInt8](repeating: 0x20, count: 16)
        let angle = [UInt8(ascii: "<")] + [UInt8](repeating: 0x20, count: 15)
        let noise = [UInt8](repeating: 0xAB, count: 16)
        #expect(Self.verdict(spaces, "x.plist", parent: "Preferences", size: 5000) == .candidate)
        #expect(Self.verdict(angle, "x.plist", parent: "Preferences", size: 5000) == .candidate)
        #expect(Self.verdict(Array(Self.bplist.prefix(16)), "x.plist", parent: "Preferences", size: 5000) == .candidate)
        #expect(Self.verdict(noise, "x.plist", parent: "Preferences", size: 5000) == .skip)
        #expect(Self.verdict(Self.sqlite.prefix(16).map { $0 }, "tasks.sqlite", size: 5000) == .ledger)
        // The whole file in the block: decided as any whole prefix is.
        #expect(Self.verdict(spaces, "x.plist", parent: "Preferences", size: 16) == .skip)
        #expect(Self.verdict(Array(spaces.prefix(3)), "x.plist", parent: "Preferences", size: 3) == .skip)
        #expect(Self.verdict(noise, Self.partialName, parent: "tmp", size: 5000) == .partialFile(mayHoldBlobs: false))
        #expect(Self.verdict(spaces, Self.partialName, parent: "tmp", size: 5000) == .partialFile(mayHoldBlobs: true))
    }
}
