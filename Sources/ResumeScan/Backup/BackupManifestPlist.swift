import Foundation
import ResumeDataCodec

/// What a backup's `Manifest.plist` and `Info.plist` say (forensic-formats §2): whether it is
/// encrypted, its keybag and `ManifestKey`, and the device.
///
/// Forensic tools and test corpora often keep only `Manifest.db`, `Info.plist` and the files.
/// Without `Manifest.plist`, whether the backup is encrypted is told from `Manifest.db` itself
/// (a plain one starts with SQLite's header; an encrypted one is AES ciphertext throughout) and
/// the device from `Info.plist`; ``warnings`` say what was missing.
struct BackupManifestPlist: Sendable {
    var isEncrypted = false
    var keybag: Data?
    /// `ManifestKey` (iOS 10.2 and later): a 4-byte little-endian class and the wrapped key of
    /// `Manifest.db`. Without it, `Manifest.db` is not encrypted.
    var manifestKey: Data?
    var device = BackupDevice()
    /// Whether the folder has a `Manifest.plist`: without one, an encrypted backup has no keybag.
    var hasManifestPlist = true
    /// What was missing and what was read instead, in sentences.
    var warnings: [String] = []

    /// Why an encrypted backup without `Manifest.plist` cannot be read at all.
    static let encryptedWithoutManifestPlist =
        "Manifest.db is encrypted (it is not empty and does not start with SQLite's header) and this folder has no Manifest.plist, "
        + "whose BackupKeyBag holds the keys that decrypt it: the backup cannot be decrypted, with or without its password"

    /// Reads both plists' bytes. Values of the wrong type count as absent; `Info.plist` fills in
    /// what `Manifest.plist`'s `Lockdown` lacks.
    /// - Parameters:
    ///   - manifest: `Manifest.plist`, nil when the folder has none.
    ///   - info: `Info.plist`, nil when the folder has none (or it cannot be read).
    ///   - databaseHeader: the first bytes of `Manifest.db`, which say whether the backup is
    ///     encrypted when there is no `Manifest.plist`; nil for `Manifest.mbdb`, never encrypted whole.
    /// - Throws: when `Manifest.plist` is no property-list dictionary.
    init(manifest: Data?, info: Data?, databaseHeader: Data? = nil) throws(BackupError) {
        let reader = PropertyListReader(options: PropertyListReadOptions(maximumDepth: 32, maximumObjectCount: 1_000_000,
                                                                          maximumInputSize: 64 << 20, duplicateKeys: .keepLast))
        var infoTop: PropertyListDictionary?
        var infoProblem: String?
        if let info {
            do {
                infoTop = try reader.read(info).value.dictionaryValue
                if infoTop == nil { infoProblem = "Info.plist is no dictionary" }
            } catch {
                infoProblem = "Info.plist cannot be read: \(error)"
            }
        }
        var lockdown: PropertyListDictionary?
        if let manifest {
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
            lockdown = top["Lockdown"]?.dictionaryValue
        } else {
            hasManifestPlist = false
            var warning = "no Manifest.plist: "
            if let databaseHeader {
                // An encrypted Manifest.db is whole AES blocks; an empty one (its rows all in
                // its -wal) is plain, and one that is neither fails as no SQLite database.
                isEncrypted = !databaseHeader.isEmpty && !LedgerProbe.isSQLite(databaseHeader)
                warning += "Manifest.db's first bytes say whether the backup is encrypted"
            } else {
                warning += "the backup is read as not encrypted"
            }
            if infoTop != nil {
                warning += ", Info.plist names the device"
            } else {
                warning += "; " + (infoProblem ?? "no Info.plist either") + ": the device is unknown"
            }
            warnings.append(warning)
        }
        func text(_ lockdownKey: String, _ infoKey: String) -> String? {
            lockdown?[lockdownKey]?.stringValue ?? infoTop?[infoKey]?.stringValue
        }
        device = BackupDevice(name: text("DeviceName", "Device Name"), model: text("ProductType", "Product Type"),
                              iOSVersion: text("ProductVersion", "Product Version"), build: text("BuildVersion", "Build Version"),
                              serial: text("SerialNumber", "Serial Number"), udid: text("UniqueDeviceID", "Unique Identifier"))
    }
}
