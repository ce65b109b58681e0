/// The two layouts of Network-framework resume data (spec §6).
package enum NetworkResumeLayout: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// iOS 17.4–18.x: `fileURL` and `tempFileName` in a nested
    /// `NWURLSessionResponseConsumerResumeInfo` under `responseConsumerResumeInfo`.
    case nested
    /// iOS 26: the class inherits from `NWURLSessionResumeInfo`, and `fileURL`, `tempFileName`
    /// and `_keepDownloadTaskFile` sit on the root object.
    case flat

    /// `nested (iOS 17.4–18)` or `flat (iOS 26)`.
    package var description: String {
        switch self {
        case .nested: "nested (iOS 17.4–18)"
        case .flat: "flat (iOS 26)"
        }
    }
}
