import Foundation
import ResumeDataCodec

/// What a backup's `Manifest.plist` and `Info.plist` say (forensic-formats §2): whether it is
/// encrypted, its keybag and `ManifestKey`, and the device.
package struct BackupManifestPlist: Sendable {
    package var isEncrypted = false
    package var keybag: Data?
    /// `ManifestKey` (iOS 10.2 and later): a 4-byte little-endian class and the wrapped key of
    /// `Manifest.db`. Without it, `Manifest.db` is not encrypted.
    package var manifestKey: Data?
    package var device = BackupDevice()

    /// Reads both plists' bytes; `info` may be missing. Values of the wrong type count as absent;
    /// `Info.plist` fills in what `Manifest.plist`'s `Lockdown` lacks.
    /// - Throws: when `Manifest.plist` is no property-list dictionary.
    package init(manifest: Data, info: Data?) throws(BackupError) {
        let reader = PropertyListReader(options: PropertyListReadOptions(maximumDepth: 32, maximumObjectCount: 1_000_000,
                                                                          maximumInputSize: 64 << 20, duplicateKeys: .keepLast))
        let top: PropertyListDictionary
        do {
            guard let dictionary = try reader.read(manifest).value.dictionaryValue else {
                throw BackupError.unreadable("Manifest.plist is no dictionary")
            }
            top = dictionary
        } catch let error as BackupError {
            throw error
        } catch {
            throw BackupError.unreadable("Manifest.plist cannot be read: \(error)")
        }
        isEncrypted = top["IsEncrypted"]?.boolValue ?? false
        keybag = top["BackupKeyBag"]?.dataValue
        manifestKey = top["ManifestKey"]?.dataValue
        let lockdown = top["Lockdown"]?.dictionaryValue
        let infoTop = info.flatMap { try? reader.read($0).value.dictionaryValue }
        func text(_ lockdownKey: String, _ infoKey: String) -> String? {
            lockdown?[lockdownKey]?.stringValue ?? infoTop?[infoKey]?.stringValue
        }
        device = BackupDevice(name: text("DeviceName", "Device Name"), model: text("ProductType", "Product Type"),
                              iOSVersion: text("ProductVersion", "Product Version"), build: text("BuildVersion", "Build Version"),
                              serial: text("SerialNumber", "Serial Number"), udid: text("UniqueDeviceID", "Unique Identifier"))
    }
}
