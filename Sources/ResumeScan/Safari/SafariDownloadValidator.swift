import ResumeDataCodec

/// What `validate NAME.download` says of a Safari bundle, as `inspect NAME.download`
/// reads it (``SafariDownloadBundle``), in the findings a blob's validation gives: the same
/// codes and severities where a blob's rule is the same (a URL that is not http or https, a
/// partial file missing or shorter than the bytes received), so that a bundle and a blob are
/// judged alike.
package enum SafariDownloadValidator {
    package static func findings(for bundle: SafariDownloadBundle) -> [ResumeDataFinding] {
        let info = bundle.info
        let isLegacy = info.layout == .legacy
        var findings: [ResumeDataFinding] = info.problems.map { ResumeDataFinding(.warning, .wrongType, $0) }
        let urlKey = "DownloadEntryURL"
        if let url = info.url {
            do {
                _ = try HTTPURL(validating: url)
            } catch .unsupportedScheme(let scheme) {
                findings.append(.init(.error, .unsupportedScheme, "the URL scheme is \"\(scheme)\"; only http and https downloads resume", key: urlKey))
            } catch {
                findings.append(.init(.error, .invalidURL, HTTPURL.message(for: url, error), key: urlKey))
            }
        } else {
            findings.append(.init(.error, .missingURL, "Info.plist names no download URL: there is nothing to resume from", key: urlKey))
        }
        let receivedKey = isLegacy ? "NSURLDownloadBytesReceived" : "DownloadEntryProgressBytesSoFar"
        if let file = bundle.partialFile {
            let name = VisibleText.escaping(file.name)
            if let received = info.bytesReceived {
                if file.status.size < received {
                    findings.append(.init(.error, .tempFileSize, "the partial file \(name) has \(file.status.size) bytes, fewer than the \(received) received",
                                          key: receivedKey))
                } else if file.status.size > received {
                    findings.append(.init(.warning, .tempFileSize,
                                          "the partial file \(name) has \(file.status.size) bytes, more than the \(received) received; resume keeps them when its last 64 KiB match the server's (it compares them before appending), else starts over",
                                          key: receivedKey))
                }
            } else {
                findings.append(.init(.warning, .missingBytesReceived,
                                      "Info.plist says no bytes received: the partial file's \(file.status.size) bytes are all there is to go by", key: receivedKey))
            }
            if let allocated = file.status.allocatedSize,
               HashLimit.standard.skip(size: file.status.size, allocatedSize: allocated)?.reason == .sparse {
                findings.append(.init(.note, .sparsePartialFile,
                                      "the partial file \(name) is sparse: \(file.status.size) bytes apparent, \(allocated) allocated; its holes read as zeros, and it was not hashed (\(HashSkip.remedy))"))
            }
        } else {
            findings.append(.init(.error, .tempFileMissing, "the bundle holds no partial file: there is nothing to resume"))
        }
        if let received = info.bytesReceived, let total = info.totalBytes, received > total {
            findings.append(.init(.warning, .invalidSize, "\(received) bytes received, more than the \(total) Safari expected in all",
                                  key: "DownloadEntryProgressTotalToLoad"))
        }
        if info.entityTag == nil, info.lastModified == nil {
            // Safari keeps no validator in the modern layout: not the bundle's fault, but worth knowing.
            let message = isLegacy
                ? "no entity tag and no Last-Modified: no one can prove the server's file unchanged since the partial file was written"
                : "the modern layout keeps no validator: no one can prove the server's file unchanged since the partial file was written"
            findings.append(.init(.note, .missingValidator, message, key: isLegacy ? "NSURLDownloadEntityTag" : nil))
        }
        return findings
    }
}
