import ResumeSystemCalls

/// Where an upload keeps its checkpoint (``UploadCheckpoint``), decided without I/O: beside the
/// file where it can be (`FILE.uploadresume`, so the same command in any folder finds it), else
/// in a state folder of the user's, named by the file's identity so a rerun finds it there.
///
/// - `--state-dir DIR` given: there, always.
/// - A checkpoint already beside the file (an earlier run's): that one.
/// - The file's folder writable: beside the file.
/// - Otherwise `$XDG_STATE_HOME/resumetool/uploads/`, by default `~/.local/state/resumetool/uploads/`
///   (the XDG Base Directory specification's place for state that should persist across runs
///   but is not worth backing up), made 0700 when missing. A relative `XDG_STATE_HOME` is
///   ignored, as the specification says.
package enum UploadCheckpointPlace {
    package struct Facts: Equatable, Sendable {
        /// The file's last name, for the state folder's file names.
        package var fileName: String
        /// The file's `st_dev` and `st_ino`; nil when it cannot be asked (the upload then
        /// reports the file itself).
        package var identity: (device: UInt64, inode: UInt64)?
        package var folderWritable: Bool
        package var checkpointBeside: Bool
        package var stateDirectory: String?
        package var stateHome: String?
        package var home: String?

        package init(fileName: String, identity: (device: UInt64, inode: UInt64)?, folderWritable: Bool, checkpointBeside: Bool,
                     stateDirectory: String?, stateHome: String?, home: String?) {
            self.fileName = fileName
            self.identity = identity
            self.folderWritable = folderWritable
            self.checkpointBeside = checkpointBeside
            self.stateDirectory = stateDirectory
            self.stateHome = stateHome
            self.home = home
        }

        package static func == (lhs: Facts, rhs: Facts) -> Bool {
            lhs.fileName == rhs.fileName && lhs.identity?.device == rhs.identity?.device && lhs.identity?.inode == rhs.identity?.inode
                && lhs.folderWritable == rhs.folderWritable && lhs.checkpointBeside == rhs.checkpointBeside
                && lhs.stateDirectory == rhs.stateDirectory && lhs.stateHome == rhs.stateHome && lhs.home == rhs.home
        }
    }

    package enum Verdict: Equatable, Sendable {
        /// `FILE.uploadresume`.
        case beside
        /// `folder/name`; `made` lists the folders to make (0700) first, outermost first.
        case inFolder(folder: String, name: String, made: [String])
        /// Nowhere: why, and what to give.
        case nowhere(String)
    }

    package static func verdict(_ facts: Facts) -> Verdict {
        if let given = facts.stateDirectory {
            guard let name = Self.name(facts) else { return .nowhere("the file's identity cannot be read to name its checkpoint in \(given)") }
            return .inFolder(folder: given, name: name, made: [])
        }
        if facts.checkpointBeside || facts.folderWritable { return .beside }
        let base: String
        var made: [String] = []
        if let home = facts.stateHome, home.hasPrefix("/") {
            base = home
        } else if let home = facts.home, home.hasPrefix("/") {
            base = BytePath(home).appending(".local/state").text
            made = [BytePath(home).appending(".local").text, base]
        } else {
            return .nowhere("the file's folder is not writable, and neither XDG_STATE_HOME nor HOME names a folder to keep the upload's checkpoint in: give --state-dir DIR")
        }
        guard let name = Self.name(facts) else { return .nowhere("the file's folder is not writable, and the file's identity cannot be read to name its checkpoint elsewhere") }
        let app = BytePath(base).appending("resumetool").text
        let folder = BytePath(app).appending("uploads").text
        return .inFolder(folder: folder, name: name, made: made + [app, folder])
    }

    /// `DEVICE-INODE-NAME.uploadresume`: the identity finds it again; the name (letters, digits,
    /// `.`, `_`, `-` only, at most 64) tells people which file it is.
    static func name(_ facts: Facts) -> String? {
        guard let identity = facts.identity else { return nil }
        let shown = String(String.UnicodeScalarView(facts.fileName.unicodeScalars.filter { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || ".-_".unicodeScalars.contains(scalar))
        }).prefix(64))
        return "\(identity.device)-\(identity.inode)\(shown.isEmpty ? "" : "-" + shown).uploadresume"
    }
}
