import Testing

@testable import ResumeDataCodec
@testable import ResumeTransfer

/// ``OutputFileRule`` value by value: what a download may do with what is at its destination.
@Suite struct OutputFileRuleTests {
    static let url = HTTPURL("https://example.com/a.bin")!

    /// A checkpoint of this tool beside the destination: `validated` with the server's ETag.
    static func checkpoint(received: Int64, validated: Bool = true) -> DownloadCheckpoint {
        var checkpoint = DownloadCheckpoint(url: url)
        checkpoint.bytesReceived = received
        if validated { checkpoint.entityTag = "\"v1\"" }
        return checkpoint
    }

    static func facts(
        _ found: OutputFileRule.Found, input: String? = nil, beside: DownloadCheckpoint? = nil, partial: Bool = false,
        purpose: OutputFileRule.Purpose = .continueBlob, force: Bool = false, checksum: OutputFileRule.Checksum = .notChecked
    ) -> OutputFileRule.Facts {
        OutputFileRule.Facts(
            destination: "out.bin", found: found, input: input, checkpointBeside: beside, partialBeside: partial,
            purpose: purpose, replacesExisting: force, checksum: checksum, expectedSHA256: "ab")
    }

    @Test func nothingThereIsFetchedWhateverElseIsTrue() {
        for purpose in [OutputFileRule.Purpose.fetchURL, .continueBlob] {
            for force in [false, true] {
                for partial in [false, true] {
                    let verdict = OutputFileRule.verdict(Self.facts(.nothing, partial: partial, purpose: purpose, force: force))
                    #expect(verdict == .fetch, "\(purpose) force \(force) partial \(partial)")
                }
            }
        }
    }

    /// A file this download did not make: a resume stops, a download of a URL leaves it and
    /// ends (its own contract: "make sure the file is there"), unless its partial file is beside
    /// it, which it would then be renamed over.
    @Test func aFileNothingVouchesForIsNeverReplaced() {
        #expect(OutputFileRule.verdict(Self.facts(.file(size: 9))) == .refuse(.destinationExists(path: "out.bin", size: 9)))
        #expect(OutputFileRule.verdict(Self.facts(.link)) == .refuse(.destinationExists(path: "out.bin", size: nil)))
        #expect(OutputFileRule.verdict(Self.facts(.file(size: 9), partial: true)) == .refuse(.destinationExists(path: "out.bin", size: 9)))
        #expect(OutputFileRule.verdict(Self.facts(.file(size: 9), purpose: .fetchURL)) == .leave(.unchecked))
        #expect(OutputFileRule.verdict(Self.facts(.link, purpose: .fetchURL)) == .leave(.unchecked))
        #expect(OutputFileRule.verdict(Self.facts(.file(size: 9), partial: true, purpose: .fetchURL))
            == .refuse(.destinationExists(path: "out.bin", size: 9)))
    }

    /// Vouched for: this tool's checkpoint for the same URL, with a validator, counting no more
    /// than the file holds, and no partial file left (the run ended between rename and removal).
    @Test func aCheckpointBesideVouchesOnlyWhenItFits() {
        for purpose in [OutputFileRule.Purpose.fetchURL, .continueBlob] {
            #expect(OutputFileRule.verdict(Self.facts(.file(size: 100), beside: Self.checkpoint(received: 100), purpose: purpose)) == .leave(.finishedEarlier))
            #expect(OutputFileRule.verdict(Self.facts(.file(size: 100), beside: Self.checkpoint(received: 40), purpose: purpose)) == .leave(.finishedEarlier))
        }
        // More bytes counted than the file holds, no validator, a partial file still there, a link.
        #expect(OutputFileRule.verdict(Self.facts(.file(size: 100), beside: Self.checkpoint(received: 101)))
            == .refuse(.destinationExists(path: "out.bin", size: 100)))
        #expect(OutputFileRule.verdict(Self.facts(.file(size: 100), beside: Self.checkpoint(received: 100, validated: false)))
            == .refuse(.destinationExists(path: "out.bin", size: 100)))
        #expect(OutputFileRule.verdict(Self.facts(.file(size: 100), beside: Self.checkpoint(received: 100), partial: true))
            == .refuse(.destinationExists(path: "out.bin", size: 100)))
        #expect(OutputFileRule.verdict(Self.facts(.link, beside: Self.checkpoint(received: 0)))
            == .refuse(.destinationExists(path: "out.bin", size: nil)))
    }

    @Test func anInputIsRefusedEvenWhenForced() {
        for found in [OutputFileRule.Found.file(size: 5), .link] {
            for force in [false, true] {
                for purpose in [OutputFileRule.Purpose.fetchURL, .continueBlob] {
                    let verdict = OutputFileRule.verdict(Self.facts(
                        found, input: "the partial file", beside: Self.checkpoint(received: 0), purpose: purpose, force: force, checksum: .matches))
                    #expect(verdict == .refuse(.destinationIsInput(path: "out.bin", input: "the partial file")))
                }
            }
        }
    }

    @Test func forceReplacesAnyFileButNoInput() {
        for found in [OutputFileRule.Found.file(size: 5), .link] {
            for purpose in [OutputFileRule.Purpose.fetchURL, .continueBlob] {
                for partial in [false, true] {
                    #expect(OutputFileRule.verdict(Self.facts(found, partial: partial, purpose: purpose, force: true)) == .fetch)
                }
            }
        }
    }

    /// What is there but a file or a link is refused first, forced, an input, or not.
    @Test func aFolderOrDeviceIsRefusedFirst() {
        for force in [false, true] {
            let verdict = OutputFileRule.verdict(Self.facts(.unreplaceable("a FIFO"), input: "the resume blob", force: force))
            #expect(verdict == .refuse(.untrustedFile("out.bin: it is a FIFO, not a file a download can replace")))
        }
    }

    @Test func theChecksumDecidesBeforeTheCheckpoint() {
        for purpose in [OutputFileRule.Purpose.fetchURL, .continueBlob] {
            #expect(OutputFileRule.verdict(Self.facts(.file(size: 5), partial: true, purpose: purpose, checksum: .matches)) == .leave(.matchesChecksum))
            #expect(OutputFileRule.verdict(Self.facts(.file(size: 5), beside: Self.checkpoint(received: 5), purpose: purpose, checksum: .differs(actual: "cd")))
                == .refuse(.checksumMismatch(expected: "ab", actual: "cd")))
            #expect(OutputFileRule.verdict(Self.facts(.file(size: 5), purpose: purpose, checksum: .unreadable(.disk("read out.bin: EIO"))))
                == .refuse(.disk("read out.bin: EIO")))
        }
    }

    @Test func onlyAKeepableFileWithAnExpectedDigestIsHashed() {
        #expect(OutputFileRule.needsChecksum(found: .file(size: 1), input: nil, replacesExisting: false, expectedSHA256: "ab"))
        #expect(!OutputFileRule.needsChecksum(found: .file(size: 1), input: nil, replacesExisting: false, expectedSHA256: nil))
        #expect(!OutputFileRule.needsChecksum(found: .file(size: 1), input: "the resume blob", replacesExisting: false, expectedSHA256: "ab"))
        #expect(!OutputFileRule.needsChecksum(found: .file(size: 1), input: nil, replacesExisting: true, expectedSHA256: "ab"))
        #expect(!OutputFileRule.needsChecksum(found: .link, input: nil, replacesExisting: false, expectedSHA256: "ab"))
        #expect(!OutputFileRule.needsChecksum(found: .nothing, input: nil, replacesExisting: false, expectedSHA256: "ab"))
    }

    @Test func theMessagesSayWhatIsThere() {
        #expect(TransferError.destinationExists(path: "notes.txt", size: 9).description
            == "notes.txt exists (a file of 9 bytes) and this download did not make it: left as it is, nothing fetched")
        #expect(TransferError.destinationExists(path: "n", size: 1).description
            == "n exists (a file of 1 byte) and this download did not make it: left as it is, nothing fetched")
        #expect(TransferError.destinationExists(path: "n", size: nil).description
            == "n exists (a symbolic link) and this download did not make it: left as it is, nothing fetched")
        #expect(TransferError.destinationIsInput(path: "p.tmp", input: "the partial file").description
            == "p.tmp is the partial file this run reads: an input is never replaced; save elsewhere")
    }
}
