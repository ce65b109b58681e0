import ResumeSystemCalls

/// A folder of this run's own for a transfer that needs a file where the user gave a stream:
/// `-o -` stages the download there, `upload -` the input. It is removed, with what is in it,
/// when the command ends, whatever the outcome.
extension PrivateTemporaryFolder {
    /// Makes the folder; `purpose` names the option in the error.
    static func make(for purpose: String) throws(Diagnostic) -> PrivateTemporaryFolder {
        switch make(prefix: "resumetool-") {
        case .success(let folder): return folder
        case .failure(let failure):
            throw Diagnostic(file: failure.base, message: "cannot make a folder for \(purpose): \(failure.failure)")
        }
    }
}
