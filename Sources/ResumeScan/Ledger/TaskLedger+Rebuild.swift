import Foundation
import ResumeDataCodec

extension TaskLedger {
    /// Why a task cannot be picked for a rebuild.
    package enum LookUpFailure: Error, Sendable, Equatable, CustomStringConvertible {
        /// No task has the identifier (in the session, when one was given).
        case noSuchTask(identifier: Int64, session: String?)
        /// The identifier is in several sessions and no session was given.
        case ambiguous(identifier: Int64, sessions: [String])
        /// The task's row was skipped; the reason.
        case unreadable(TaskLedger.SkippedRow)

        package var description: String {
            switch self {
            case .noSuchTask(let identifier, let session?): "no task \(identifier) in session \(session)"
            case .noSuchTask(let identifier, nil): "no task \(identifier)"
            case .ambiguous(let identifier, let sessions):
                "task \(identifier) is in \(sessions.count) sessions (\(sessions.joined(separator: ", "))): give --session"
            case .unreadable(let row): "the task could not be read: \(row.description)"
            }
        }
    }

    /// The task with `identifier`, in `session` when given (identifiers are unique only within a session).
    package func task(identifier: Int64, session: String?) throws(LookUpFailure) -> LedgerTask {
        let matches = tasks.filter { $0.identifier == identifier && (session == nil || $0.sessionID == session) }
        if matches.count == 1, let task = matches.first { return task }
        if matches.count > 1 {
            throw .ambiguous(identifier: identifier, sessions: matches.map(\.sessionID))
        }
        if let row = skippedRows.first(where: { $0.identifier == identifier && (session == nil || $0.sessionID == session) }) {
            throw .unreadable(row)
        }
        throw .noSuchTask(identifier: identifier, session: session)
    }
}

extension LedgerTask {
    /// Why a task gives no blob.
    package struct RebuildFailure: Error, Sendable, Equatable, CustomStringConvertible {
        package var description: String
    }

    /// The rebuilder for this task: the URL of its archived request, its headers (without `Range`
    /// and `If-Range`, which the rebuilt request sets) followed by `extraHeaders`, and the
    /// archived response's `ETag` and `Last-Modified`. A task whose response has neither still
    /// gives a rebuilder; the blob then carries the validator's `missing-validator` finding.
    /// - Throws: ``RebuildFailure`` when the task has no http or https URL, or a header the
    ///   ledger holds breaks the one header rule (a device's file is read as hostile).
    package func rebuilder(container: ResumeDataContainer, useLocalPath: Bool = false,
                           extraHeaders: [HTTPHeaderField] = []) throws(RebuildFailure) -> ResumeDataRebuilder {
        guard let url else {
            throw RebuildFailure(description: "task \(identifier) of session \(sessionID) has no archived request or response with a URL")
        }
        if let problem = HTTPURL.problemMessage(for: url) {
            throw RebuildFailure(description: "task \(identifier) of session \(sessionID): \(problem)")
        }
        var headers: [HTTPHeaderField] = []
        for header in headersForResuming {
            do {
                headers.append(try HTTPHeaderField(name: header.name, value: header.value))
            } catch {
                throw RebuildFailure(description: "task \(identifier) of session \(sessionID): a request header: \(error)")
            }
        }
        return ResumeDataRebuilder(url: url, entityTag: entityTag, lastModified: lastModified,
                                   headers: headers + extraHeaders, container: container, useLocalPath: useLocalPath)
    }
}
