import Foundation

/// Changes to a blob's download URL and request headers, applied by ``ResumeData/edited(_:)``:
/// what a signed CDN URL that expired needs.
///
/// ```swift
/// var edit = ResumeDataEdit()
/// edit.url = try HTTPURL(validating: "https://cdn.example.com/big.dmg?sig=new")
/// edit.settingHeaders = [try HTTPHeaderField(parsing: "X-Token: 42")]
/// let result = try ResumeData(data: blob).edited(edit)
/// let newBlob = try result.encoded()       // in the container the blob came in
/// print(result.droppedHeaders)             // ["Authorization"] when the origin changed
/// ```
///
/// - The URL changes in `NSURLSessionDownloadURL` and in both archived requests (the
///   Network-framework format's inline requests too).
/// - Headers are set or removed in both requests, names compared without regard to case (a
///   request archived without the HTTP items gets them, as nil up to the header fields).
/// - When the new URL's origin (scheme, host, port) differs from a request's, that request loses
///   its `Authorization`, `Cookie` and `Proxy-Authorization` (``HTTPHeaderField/credentialNames``)
///   unless ``settingHeaders`` gives them again, and CFNetwork's hidden copy of its headers
///   (`__hhaa__`), which may hold them too.
/// - Every other key, and every request the edit does not change, stays as it was, byte for
///   byte; the container, the request archives' layout and top key stay too, so an iOS 10 blob
///   stays readable by iOS 10 and a Network-framework blob stays one.
public struct ResumeDataEdit: Sendable, Hashable {
    /// The new download URL; `nil` keeps the blob's.
    public var url: HTTPURL?
    /// Headers to set in both requests, replacing one of the same name (in its place) or added
    /// at the end.
    public var settingHeaders: [HTTPHeaderField]
    /// Names of headers to remove from both requests.
    public var removingHeaders: [String]

    /// Creates an edit; an empty one changes nothing.
    public init(url: HTTPURL? = nil, settingHeaders: [HTTPHeaderField] = [], removingHeaders: [String] = []) {
        self.url = url
        self.settingHeaders = settingHeaders
        self.removingHeaders = removingHeaders
    }

    /// Whether the edit changes nothing.
    public var isEmpty: Bool { url == nil && settingHeaders.isEmpty && removingHeaders.isEmpty }

    /// An edited blob and what the edit removed beyond what was asked.
    public struct Result: Sendable, Hashable {
        /// The edited blob, in the container of the original.
        public var resume: ResumeData
        /// Credential headers removed because the URL moved to another origin, each name once
        /// as the blob spelled it, in the order found.
        public var droppedHeaders: [String]
        /// Whether CFNetwork's hidden copy of a request's headers (`__hhaa__`) was removed with them.
        public var droppedHiddenHeaderCopy: Bool
        /// The requests the edit changed.
        public var changedRequests: [ResumeData.RequestKind]

        /// The edited blob's bytes, in the container it was read from.
        /// - Throws: ``ResumeDataError`` (`unencodable`), see ``ResumeData/encoded(as:)``.
        public func encoded() throws -> Data { try resume.encoded() }
    }
}

extension ResumeData {
    /// A copy with a new URL and headers (see ``ResumeDataEdit``).
    /// - Throws: ``ResumeDataError``: `invalid-argument` for a header name that is not an HTTP
    ///   token or one both set and removed; `invalid-request` for a request archive that cannot
    ///   be decoded (it could not be edited without losing it); `unencodable` when an edited
    ///   request cannot be archived again.
    public func edited(_ edit: ResumeDataEdit) throws -> ResumeDataEdit.Result {
        try edit.checkHeaders()
        var result = ResumeDataEdit.Result(resume: self, droppedHeaders: [], droppedHiddenHeaderCopy: false, changedRequests: [])
        var requestHoldsURL = false
        for kind in RequestKind.allCases {
            guard let before = try request(kind) else { continue }
            if edit.url != nil { requestHoldsURL = true }
            let after = edit.applied(to: before, droppingInto: &result.droppedHeaders, droppedHiddenHeaderCopy: &result.droppedHiddenHeaderCopy)
            // A request the edit leaves as it was keeps its bytes: archiving again may spell them otherwise.
            guard after != before else { continue }
            try result.resume.setRequest(after, kind)
            result.changedRequests.append(kind)
        }
        if let url = edit.url, entries[ResumeDataKey.downloadURL] != nil || !requestHoldsURL {
            result.resume.downloadURL = url.string
        }
        return result
    }
}

extension ResumeDataEdit {
    /// Refuses a header to remove whose name is not an HTTP token, and one both set and removed.
    /// - Throws: ``ResumeDataError`` `invalid-argument`.
    func checkHeaders() throws {
        for name in removingHeaders {
            do {
                try HTTPHeaderField.checkName(name)
            } catch {
                throw ResumeDataError(.invalidArgument, "cannot remove the header: \(error)")
            }
            if let set = settingHeaders.first(where: { $0.name.equalsIgnoringASCIICase(name) }) {
                throw ResumeDataError(.invalidArgument, "the header \(set.name) is both set and removed")
            }
        }
    }

    /// One request with the edit's URL and headers: the one rule for every archived request a
    /// blob carries, a download's or an upload's. When the URL moves the request to another
    /// origin, its credentials (and CFNetwork's hidden copy of its headers) go unless
    /// ``settingHeaders`` gives them again: they were given for the old origin only.
    /// - Parameters:
    ///   - droppedHeaders: gets each credential name dropped, once, as the request spelled it.
    ///   - droppedHiddenHeaderCopy: set when the hidden copy was removed.
    func applied(to before: URLRequestArchive, droppingInto droppedHeaders: inout [String], droppedHiddenHeaderCopy: inout Bool) -> URLRequestArchive {
        var after = before
        if let url {
            // A URL the rule refuses (or none) has no origin to keep credentials for.
            let sameOrigin = before.urlString.flatMap(HTTPURL.init).map { $0.hasSameOrigin(as: url) } ?? false
            if before.urlString != url.string { after.urlString = url.string }
            if !sameOrigin {
                let keep = settingHeaders.filter { HTTPHeaderField.isCredential($0.name) }
                for header in after.headers where HTTPHeaderField.isCredential(header.name)
                    && !keep.contains(where: { $0.name.equalsIgnoringASCIICase(header.name) }) {
                    if !droppedHeaders.contains(where: { $0.equalsIgnoringASCIICase(header.name) }) {
                        droppedHeaders.append(header.name)
                    }
                }
                // One given again keeps its place: the loop below sets its new value there.
                let withoutCredentials = after.headers.filter { header in
                    !HTTPHeaderField.isCredential(header.name) || keep.contains { $0.name.equalsIgnoringASCIICase(header.name) }
                }
                if withoutCredentials.count != after.headers.count { after.headers = withoutCredentials }
                if after.removeHiddenHeaderArchive() { droppedHiddenHeaderCopy = true }
            }
        }
        var headers = after.headers.filter { header in
            !removingHeaders.contains { $0.equalsIgnoringASCIICase(header.name) }
        }
        for field in settingHeaders {
            if let index = headers.firstIndex(where: { $0.name.equalsIgnoringASCIICase(field.name) }) {
                headers[index] = (field.name, field.value)
                // Any other spelling of the name would be sent beside the new value.
                var later = index + 1
                while later < headers.count {
                    if headers[later].name.equalsIgnoringASCIICase(field.name) { headers.remove(at: later) } else { later += 1 }
                }
            } else {
                headers.append((field.name, field.value))
            }
        }
        if !Self.sameHeaders(headers, after.headers) { after.headers = headers }
        return after
    }

    private static func sameHeaders(_ lhs: [(name: String, value: String)], _ rhs: [(name: String, value: String)]) -> Bool {
        lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }
}

extension URLRequestArchive {
    /// Removes CFNetwork's hidden `__hhaa__` header entry; `true` when there was one.
    mutating func removeHiddenHeaderArchive() -> Bool {
        guard items.indices.contains(Item.headers),
              case .dictionary(let entries)? = items[Item.headers].value,
              entries.contains(where: { $0.key == Self.hiddenHeaderKey })
        else { return false }
        let kept = entries.filter { $0.key != Self.hiddenHeaderKey }
        items[Item.headers] = .reference(kept.isEmpty ? .null : .dictionary(kept))
        return true
    }
}
