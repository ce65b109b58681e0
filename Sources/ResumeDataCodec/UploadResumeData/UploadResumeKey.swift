/// The keys of an upload resume blob's dictionary, as CFNetwork writes them
/// (`-[__NSCFResumableUploadState createResumeDataForTaskInfo:error:]`, seen in decompiled
/// iOS and tvOS 18 builds; no published blob confirms them).
public enum UploadResumeKey {
    /// The resumable-upload draft's interop version, a string (`"3"`, `"5"`, `"6"`).
    public static let draftVersion = "draftVersion"
    /// Where the upload continues: the `Location` of the server's 104 response, an `NSURL`.
    public static let resumeURL = "resumeURL"
    /// The request that created the upload, an `NSURLRequest` archived inline; absent in
    /// nsurlsessiond's own copy (`resumable_upload_data`).
    public static let originalRequest = "originalRequest"
    /// 0 the body is data, 1 a file, 2 a stream.
    public static let bodyType = "bodyType"
    /// The whole request body, for `bodyType` 0.
    public static let uploadData = "uploadData"
    /// The file being uploaded, a `file:` `NSURL`, for `bodyType` 1.
    public static let uploadFile = "uploadFile"
    /// The stream's length, for `bodyType` 2, when it was known.
    public static let streamLength = "streamLength"

    /// Every key CFNetwork writes, in its order.
    public static let known = [draftVersion, resumeURL, originalRequest, bodyType, uploadData, uploadFile, streamLength]

    /// Whether a dictionary with these keys is upload resume data: it has `draftVersion`, or
    /// `resumeURL` with `bodyType`. No download blob has either name (download keys all start
    /// `NSURLSession`, or are the Network framework's own).
    static func identifies<Keys: Sequence<String>>(_ keys: Keys) -> Bool {
        var resumeURL = false
        var bodyType = false
        for key in keys {
            switch key {
            case draftVersion: return true
            case Self.resumeURL: resumeURL = true
            case Self.bodyType: bodyType = true
            default: continue
            }
        }
        return resumeURL && bodyType
    }
}
