import Foundation
import ResumeDataCodec

/// A command's input: a named file, or standard input when the name is `-`.
struct InputFile {
    /// The name as given, used in diagnostics (`<stdin>` for `-`).
    let displayName: String
    let path: String?

    init(_ argument: String) {
        if argument == "-" {
            displayName = "<stdin>"
            path = nil
        } else {
            displayName = argument
            path = argument
        }
    }

    /// Reads everything, refusing inputs above `limit` bytes without reading them whole.
    func read(limit: Int = 256 << 20) throws(Diagnostic) -> Data {
        guard let path else {
            let data = FileHandle.standardInput.readDataToEndOfFile()
            guard data.count <= limit else { throw Diagnostic(file: displayName, message: "input is larger than \(limit) bytes") }
            return data
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw Diagnostic(file: displayName, message: "no such file")
        }
        guard !isDirectory.boolValue else { throw Diagnostic(file: displayName, message: "is a directory") }
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            if let size = attributes[.size] as? Int, size > limit {
                throw Diagnostic(file: displayName, message: "file is \(size) bytes, larger than the limit of \(limit)")
            }
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch let diagnostic as Diagnostic {
            throw diagnostic
        } catch {
            throw Diagnostic(file: displayName, message: "cannot read: \(error.localizedDescription)")
        }
    }
}

extension InputFile {
    /// Reads and parses a property list in either format; a parse failure becomes a diagnostic
    /// with the position of the fault.
    func readPropertyList() throws(Diagnostic) -> PropertyListValue {
        let data = try read()
        do {
            return try PropertyListReader().read(data).value
        } catch let error as PropertyListError {
            throw Diagnostic(file: displayName, error)
        } catch {
            throw Diagnostic(file: displayName, message: "\(error)")
        }
    }
}
