import Foundation

/// The systems a repair can target (spec §5).
public enum RepairTarget: String, Sendable, Hashable, CaseIterable {
    /// iOS 10.0/10.1: request archives in the legacy layout (top key `root`), XML outer container.
    case ios10
    /// iOS 11.0–11.2: no `NSURLSessionResumeByteRange`, XML outer container.
    case ios11
    /// iOS 12+ / macOS 10.14+: request archives in the secure layout, keyed-archive container.
    case modern
}

extension ResumeData {
    /// A repaired copy for a target system, and one line per change made (empty when nothing
    /// needed changing).
    /// - Throws: ``ResumeDataError`` when a request archive cannot be converted.
    public func repaired(for target: RepairTarget) throws -> (resume: ResumeData, changes: [String]) {
        var result = self
        var changes: [String] = []
        switch target {
        case .ios10:
            try result.convertRequests(to: .legacy, changes: &changes)
            result.changeContainer(to: .xml, changes: &changes)
        case .ios11:
            if result.entries.removeValue(forKey: ResumeDataKey.byteRange) != nil {
                changes.append("removed \(ResumeDataKey.byteRange)")
            }
            result.changeContainer(to: .xml, changes: &changes)
        case .modern:
            try result.convertRequests(to: .secure, changes: &changes)
            result.changeContainer(to: .keyedArchive, changes: &changes)
        }
        return (result, changes)
    }

    /// Mends what validation finds without changing the target system: the iOS 10 request
    /// layout (then written as XML, as spec §5.1 says) and the iOS 11 byte range.
    public func repairedInPlace() throws -> (resume: ResumeData, changes: [String]) {
        let codes = Set(ResumeDataValidator().findings(for: self).map(\.code))
        var result = self
        var changes: [String] = []
        if codes.contains(.ios10RequestArchive) {
            try result.convertRequests(to: .legacy, changes: &changes)
            result.changeContainer(to: .xml, changes: &changes)
        }
        if codes.contains(.ios11ByteRange), result.entries.removeValue(forKey: ResumeDataKey.byteRange) != nil {
            changes.append("removed \(ResumeDataKey.byteRange)")
        }
        return (result, changes)
    }

    private mutating func convertRequests(to layout: URLRequestArchive.Layout, changes: inout [String]) throws {
        for kind in RequestKind.allCases {
            guard case .data(let archive)? = entries[kind.key] else { continue }
            let before: URLRequestArchive
            let converted: Data
            do {
                before = try URLRequestArchive(archiveData: archive)
                converted = try URLRequestArchive.convertLayout(of: archive, to: layout)
            } catch {
                throw ResumeDataError(.invalidRequest, "\(kind.key): \(error)")
            }
            guard converted != archive else { continue }
            entries[kind.key] = .data(converted)
            changes.append("\(kind.key): request archive from the \(before.layout) layout to the \(layout) layout")
        }
    }

    private mutating func changeContainer(to target: ResumeDataContainer, changes: inout [String]) {
        guard container != target else { return }
        changes.append("container: \(container) → \(target)")
        container = target
    }

    /// A copy whose partial file is named by a new temp file name (a bare name in the app's tmp folder).
    public func relocated(tempFileName: String) throws -> ResumeData {
        guard PartialFileResolution.isBareFileName(tempFileName) else {
            throw ResumeDataError(.invalidArgument, "a temp file name must be a bare file name, not \"\(tempFileName)\"")
        }
        var copy = self
        copy.tempFileName = tempFileName
        return copy
    }

    /// A copy whose partial file is named by a new absolute local path.
    ///
    /// Systems since iOS 9 look for `TempFileName` first; when the blob has one, it still wins
    /// over the new path (see ``relocated(tempFileName:)``).
    public func relocated(localPath: String) throws -> ResumeData {
        guard localPath.hasPrefix("/") else {
            throw ResumeDataError(.invalidArgument, "a local path must be absolute, not \"\(localPath)\"")
        }
        var copy = self
        copy.localPath = localPath
        return copy
    }
}
