/// The device a backup was made of, as its `Manifest.plist` (`Lockdown`) and `Info.plist` name
/// it; a value missing from both is nil.
public struct BackupDevice: Sendable, Hashable {
    /// `DeviceName` / `Device Name`: the name its owner gave it.
    public var name: String?
    /// `ProductType` / `Product Type`, e.g. `iPhone17,1`.
    public var model: String?
    /// `ProductVersion` / `Product Version`: the iOS version, e.g. `18.2`.
    public var iOSVersion: String?
    /// `BuildVersion` / `Build Version`, e.g. `22C152`.
    public var build: String?
    /// `SerialNumber` / `Serial Number`.
    public var serial: String?
    /// `UniqueDeviceID` / `Unique Identifier`: the UDID.
    public var udid: String?

    /// A device with these values.
    public init(name: String? = nil, model: String? = nil, iOSVersion: String? = nil, build: String? = nil,
                serial: String? = nil, udid: String? = nil) {
        self.name = name
        self.model = model
        self.iOSVersion = iOSVersion
        self.build = build
        self.serial = serial
        self.udid = udid
    }
}
