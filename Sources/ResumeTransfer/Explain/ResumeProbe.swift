import AsyncHTTPClient
import Foundation
import NIOHTTP1
import ResumeDataCodec

/// What a server says about a resume blob's download, asked the way a resume would ask
/// (`resumetool explain --probe`): a `HEAD` of the blob's URL, then a one-byte `Range` at the
/// blob's offset with `If-Range` and the blob's headers.
///
/// Both requests go through the ``Downloader``'s clients under the engine's ``TrustPolicy``
/// (credentials only to the blob's origin, redirects bounded and https → http refused), as
/// `resume` sends them.
package struct ResumeProbe: Sendable, Equatable {
    /// One answer, after redirects.
    package struct Answer: Sendable, Equatable {
        /// The URL that answered (the blob's, or where its redirects led).
        package var url: HTTPURL
        /// The status code.
        package var status: Int
        package var entityTag: String?
        package var lastModified: String?
        package var contentLength: String?
        package var acceptRanges: String?
        package var contentRange: String?
    }

    /// The offset the range request asked for.
    package var offset: Int64
    /// The validator sent in `If-Range` (a strong ETag, else Last-Modified), if any.
    package var ifRange: String?
    /// The `HEAD` answer, or why there is none.
    package var head: Result<Answer, TransferError>
    /// The range answer, or why there is none; `nil` when it was not sent because the `HEAD`
    /// could not reach the server (it would wait out the same connect timeout again).
    package var range: Result<Answer, TransferError>?
}

extension Downloader {
    /// Asks the server about `resume`'s download at `offset` (see ``ResumeProbe``).
    /// - Throws: ``TransferError/invalidResumeData(_:)`` when the blob names no usable URL or
    ///   is not a GET.
    package func probe(_ resume: ResumeData, offset: Int64) async throws(TransferError) -> ResumeProbe {
        let checkpoint = try ResumeCheckpoint.decode(resume).checkpoint
        let ifRange = checkpoint.ifRangeValidator
        // A blob's count is untrusted: the range's end, one past the byte, must not overflow.
        let offset = min(max(offset, 0), Int64.max - 1)
        let head = await self.send(checkpoint, method: .HEAD, range: nil, ifRange: nil)
        var range: Result<ResumeProbe.Answer, TransferError>?
        if case .success = head {
            range = await self.send(checkpoint, method: .GET, range: (offset, offset + 1), ifRange: ifRange)
        }
        return ResumeProbe(offset: offset, ifRange: ifRange, head: head, range: range)
    }

    /// The `HEAD` alone, sent as ``probe(_:offset:)`` sends it (the blob's headers, under the
    /// trust policy): `rebuild` takes the validators from it when none was given.
    package func head(_ resume: ResumeData) async throws(TransferError) -> Result<ResumeProbe.Answer, TransferError> {
        let checkpoint = try ResumeCheckpoint.decode(resume).checkpoint
        return await self.send(checkpoint, method: .HEAD, range: nil, ifRange: nil)
    }

    /// One request, its redirects followed as the engine follows them.
    private func send(
        _ start: DownloadCheckpoint, method: HTTPMethod, range: (start: Int64, end: Int64?)?, ifRange: String?
    ) async -> Result<ResumeProbe.Answer, TransferError> {
        var checkpoint = start
        let policy = TrustPolicy(allowsInsecureRedirects: self.configuration.allowsInsecureRedirects)
        var redirects = 0
        while true {
            let plan = RequestPlan(checkpoint: checkpoint, range: range, ifRange: ifRange)
            var request = HTTPClientRequest(url: plan.url.string)
            request.method = method
            for field in plan.headers { request.headers.add(name: field.name, value: field.value) }
            let response: HTTPClientResponse
            do {
                response = try await self.clients.client(for: plan.url)
                    .execute(request, timeout: self.configuration.responseTimeout.timeAmount)
            } catch {
                return .failure(TransferError(transport: error))
            }
            let status = Int(response.status.code)
            // Read a little of the body and let the rest go: a server that ignores the range
            // sends the whole file.
            do {
                for try await _ in response.body { break }
            } catch {}
            if TrustPolicy.isRedirect(status) {
                switch policy.redirect(from: checkpoint.currentURL, location: response.headers.first(name: "location")) {
                case .success(let target):
                    redirects += 1
                    guard redirects <= self.configuration.maximumRedirects else {
                        return .failure(.tooManyRedirects(self.configuration.maximumRedirects))
                    }
                    checkpoint.currentURL = target
                    continue
                case .failure(let error):
                    return .failure(error)
                }
            }
            let headers = response.headers
            return .success(ResumeProbe.Answer(
                url: checkpoint.currentURL, status: status,
                entityTag: headers.first(name: "etag"), lastModified: headers.first(name: "last-modified"),
                contentLength: headers.first(name: "content-length"), acceptRanges: headers.first(name: "accept-ranges"),
                contentRange: headers.first(name: "content-range")))
        }
    }
}
