import Foundation
import ResumeDataCodec

/// How resumetool's reports spell a ``Remedy``: the one place where the libraries' values
/// become `resumetool` commands, with what the user must fill in in capitals.
enum RemedyText {
    /// A finding's message as validate, inspect and scan print it: what was found, then, where
    /// one command mends it, `run \`COMMAND\``.
    static func message(of finding: ResumeDataFinding) -> String {
        finding.message + (finding.remedy.map { ": " + advice($0) } ?? "")
    }

    /// `error[ios11-byte-range] NSURLSessionResumeByteRange: MESSAGE: run \`…\``.
    static func line(of finding: ResumeDataFinding) -> String {
        "\(finding.severity.rawValue)[\(finding.code)]" + (finding.key.map { " \($0)" } ?? "") + ": " + message(of: finding)
    }

    /// The advice after a finding, which names no blob (the report says which it is about).
    static func advice(_ remedy: Remedy) -> String {
        switch remedy {
        case .repair(.ios11?):
            // The iOS 11 repair is the one whose whole point is a key it takes out.
            "run `resumetool repair --target ios11` to remove it"
        case .repair(let target?):
            "run `resumetool repair --target \(target.rawValue)`"
        case .repair(nil):
            "run `resumetool repair`"
        default:
            "run `\(command(remedy, blob: "BLOB"))`"
        }
    }

    /// The command that applies `remedy` to the blob called `blob` (`explain`'s `fix`).
    static func command(_ remedy: Remedy, blob: String) -> String {
        let named = shellWord(blob)
        switch remedy {
        case .repair(let target):
            return "resumetool repair \(named)" + (target.map { " --target \($0.rawValue)" } ?? "")
        case .relocateTempFile:
            return "resumetool relocate \(named) --temp-file NAME (the partial file's name now)"
        case .editURL:
            return "resumetool edit \(named) --url NEW_URL"
        case .editUploadFile:
            return "resumetool edit \(named) --upload-file PATH"
        case .resumeUpload:
            return "resumetool resume \(named) --file FILE"
        case .rebuild(let url, let validator):
            let rebuild = "resumetool rebuild --partial PARTIAL --url \(url.map { shellWord($0.string) } ?? "URL")"
            switch validator {
            case .entityTag: return rebuild + " --etag 'ETAG'"
            case .lastModified: return rebuild + " --last-modified 'DATE' (the server's Last-Modified)"
            }
        }
    }

    /// A shell word: as it is when it is plain, else in single quotes.
    static func shellWord(_ word: String) -> String {
        let plain = word.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || "-_./:=@%+,".utf8.contains(byte)
        }
        if plain, !word.isEmpty { return word }
        return "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
