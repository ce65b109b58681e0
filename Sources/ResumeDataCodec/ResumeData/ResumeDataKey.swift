/// The keys of the resume dictionary (spec §2).
public enum ResumeDataKey {
    /// `NSURLSessionDownloadURL`: the absolute URL being downloaded.
    public static let downloadURL = "NSURLSessionDownloadURL"
    /// `NSURLSessionResumeBytesReceived`: bytes already in the partial file.
    public static let bytesReceived = "NSURLSessionResumeBytesReceived"
    /// `NSURLSessionResumeInfoTempFileName`: bare name of the partial file in the app's tmp folder.
    public static let tempFileName = "NSURLSessionResumeInfoTempFileName"
    /// `NSURLSessionResumeInfoLocalPath`: absolute path of the partial file (info version 1).
    public static let localPath = "NSURLSessionResumeInfoLocalPath"
    /// `NSURLSessionResumeCurrentRequest`: keyed archive of the request to continue with.
    public static let currentRequest = "NSURLSessionResumeCurrentRequest"
    /// `NSURLSessionResumeOriginalRequest`: keyed archive of the task's first request.
    public static let originalRequest = "NSURLSessionResumeOriginalRequest"
    /// `NSURLSessionResumeEntityTag`: the server's raw `ETag` value, quotes included.
    public static let entityTag = "NSURLSessionResumeEntityTag"
    /// `NSURLSessionResumeServerDownloadDate`: the server's raw `Last-Modified` value.
    public static let serverDownloadDate = "NSURLSessionResumeServerDownloadDate"
    /// `NSURLSessionResumeByteRange`: added by iOS 11.0–11.2, harmful (spec §5.2).
    public static let byteRange = "NSURLSessionResumeByteRange"
    /// `NSURLSessionResumeInfoVersion`: the format version.
    public static let infoVersion = "NSURLSessionResumeInfoVersion"
    /// `NSURLSessionResumeResponse`: newer systems' archived `NSHTTPURLResponse`.
    public static let response = "NSURLSessionResumeResponse"

    /// The keys that make a dictionary a resume blob: one of them is enough (a damaged blob may
    /// have lost the rest), none in a dictionary that has keys means some other property list. The validators and the response
    /// alone do not count: other dictionaries hold `ETag`-like strings too.
    public static let identifying: Set<String> = [
        downloadURL, bytesReceived, tempFileName, localPath, currentRequest, originalRequest, infoVersion,
    ]

    /// Whether a dictionary with these keys is a resume blob (``identifying``).
    public static func identifiesResumeData(_ keys: some Sequence<String>) -> Bool {
        keys.contains { identifying.contains($0) }
    }

    /// The order in which Apple's modern writer inserts its keys; keyed archives we write follow it.
    static let appleInsertionOrder = [
        infoVersion, tempFileName, bytesReceived, localPath, downloadURL,
        currentRequest, originalRequest, response, serverDownloadDate, entityTag,
    ]

    /// Every key with a typed field in ``ResumeData``.
    static let known: Set<String> = Set(appleInsertionOrder + [byteRange])
}
