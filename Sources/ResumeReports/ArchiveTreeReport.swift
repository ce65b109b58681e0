import Foundation
import ResumeDataCodec

/// What `resumetool archive` shows of a keyed archive: the resolved object tree as indented text
/// (the style of `plist print`) or as JSON.
public struct ArchiveTreeReport: Sendable {
    let name: String
    let tree: KeyedArchiveTree
    /// Resolves the archive in `bytes` (Network-framework data too); throws what
    /// ``KeyedArchiveTree`` throws.
    /// Decodes the keyed archive in `bytes`, read from the file `name`.
    /// - Throws: ``KeyedArchiveError`` when `bytes` is no keyed archive this codec reads.
    public init(name: String, bytes: Data) throws {
        self.name = name
        tree = try KeyedArchiveTree(data: bytes)
    }

    // MARK: Text

    /// The object tree as `resumetool archive` prints it.
    public var text: String {
        let archive = tree.archive
        var out = "\(VisibleText.escaping(name)): \(VisibleText.escaping(archive.archiver)) archive, version \(archive.version), "
            + "\(archive.objects.count) objects, top key \(PropertyListTree.quoted(archive.topKey))"
            + (tree.wasObscured ? " (Network-framework resume data: first 8 bytes XOR-ed with \"TedLasso\", undone)" : "") + "\n"
        append(tree.root, label: "$top." + PropertyListTree.quotedIfNeeded(archive.topKey), indent: 0, to: &out)
        return out
    }

    private func append(_ node: KeyedArchiveTree.Node, label: String, indent: Int, to out: inout String) {
        out.append(String(repeating: "  ", count: indent) + label + ": ")
        switch node {
        case .null:
            out.append("nil\n")
        case .value(let value, let uid):
            out.append((uid.map { "#\($0) " } ?? "") + PropertyListTree.summary(of: value) + "\n")
            appendChildren(of: value, indent: indent + 1, to: &out)
        case .seen(let uid, let className, let cycle):
            out.append("#\(uid) \(VisibleText.escaping(className)) " + (cycle ? "(cycle: it contains this reference)" : "(shared: shown above)") + "\n")
        case .array(let nodes):
            out.append("array (\(nodes.count) \(nodes.count == 1 ? "item" : "items"))\n")
            for (index, child) in nodes.enumerated() { append(child, label: "[\(index)]", indent: indent + 1, to: &out) }
        case .object(let object):
            var line = "#\(object.uid) \(VisibleText.escaping(object.className))"
            if object.classChain.count > 1, object.classChain != [object.className, "NSObject"] {
                line += " (" + object.classChain.map(VisibleText.escaping).joined(separator: " : ") + ")"
            }
            if let entries = object.entries { line += " \(entries.count) \(entries.count == 1 ? "entry" : "entries")" }
            if let items = object.items { line += " \(items.count) \(items.count == 1 ? "item" : "items")" }
            out.append(line + "\n")
            for entry in object.entries ?? [] {
                append(entry.value, label: keyLabel(entry.key), indent: indent + 1, to: &out)
            }
            for (index, item) in (object.items ?? []).enumerated() {
                append(item, label: "[\(index)]", indent: indent + 1, to: &out)
            }
            for field in object.fields {
                append(field.node, label: PropertyListTree.quotedIfNeeded(field.key), indent: indent + 1, to: &out)
            }
        }
    }

    /// A dictionary key: the string itself (quoted), else what the key object is.
    private func keyLabel(_ key: KeyedArchiveTree.Node) -> String {
        switch key {
        case .value(.string(let text), _): PropertyListTree.quoted(text)
        case .value(let value, let uid): "[key " + (uid.map { "#\($0) " } ?? "") + PropertyListTree.summary(of: value) + "]"
        case .object(let object): "[key #\(object.uid) \(VisibleText.escaping(object.className))]"
        case .seen(let uid, let className, _): "[key #\(uid) \(VisibleText.escaping(className))]"
        case .null: "[key nil]"
        case .array: "[key array]"
        }
    }

    private func appendChildren(of value: PropertyListValue, indent: Int, to out: inout String) {
        switch value {
        case .array(let items), .set(let items):
            for (index, item) in items.enumerated() { append(.value(item, uid: nil), label: "[\(index)]", indent: indent, to: &out) }
        case .dictionary(let dictionary):
            for (key, item) in dictionary { append(.value(item, uid: nil), label: PropertyListTree.quotedIfNeeded(key), indent: indent, to: &out) }
        default:
            break
        }
    }

    // MARK: JSON

    /// The object tree as `resumetool archive --json` prints it.
    public var jsonText: String { json.rendered() }

    package var json: JSONValue {
        let archive = tree.archive
        return .object([
            ("xorUndone", .bool(tree.wasObscured)),
            ("archiver", .string(archive.archiver)),
            ("version", .number(archive.version.description)),
            ("topKey", .string(archive.topKey)),
            ("objectCount", .integer(archive.objects.count)),
            ("root", Self.json(tree.root)),
        ])
    }

    package static func json(_ node: KeyedArchiveTree.Node) -> JSONValue {
        switch node {
        case .null:
            return .null
        case .value(let value, let uid):
            var members: [(String, JSONValue)] = uid.map { [("uid", .integer($0))] } ?? []
            members += [("type", .string(value.typeName)), ("value", plainJSON(value))]
            return .object(members)
        case .seen(let uid, let className, let cycle):
            return .object([("uid", .integer(uid)), ("class", .string(className)), ("shown", .string(cycle ? "cycle" : "above"))])
        case .array(let nodes):
            return .array(nodes.map(json))
        case .object(let object):
            var members: [(String, JSONValue)] = [
                ("uid", .integer(object.uid)),
                ("class", .string(object.className)),
                ("classes", .array(object.classChain.map(JSONValue.string))),
            ]
            if let entries = object.entries {
                members.append(("entries", .array(entries.map { .object([("key", json($0.key)), ("value", json($0.value))]) })))
            }
            if let items = object.items { members.append(("items", .array(items.map(json)))) }
            members.append(("fields", .object(object.fields.map { ($0.key, json($0.node)) })))
            return .object(members)
        }
    }

    /// A plain value in full: data as base64, containers element by element as `{type, value}`.
    static func plainJSON(_ value: PropertyListValue) -> JSONValue {
        switch value {
        case .string(let text): .string(text)
        case .integer(let number): .number(number.description)
        case .real(let real): .real(real.value)
        case .boolean(let flag): .bool(flag)
        case .date(let date): DateText.json(date)
        case .data(let bytes): .string(bytes.base64EncodedString())
        case .uid(let reference): .integer(reference)
        case .null: .null
        case .array(let items), .set(let items):
            .array(items.map { .object([("type", .string($0.typeName)), ("value", plainJSON($0))]) })
        case .dictionary(let dictionary):
            .object(dictionary.map { ($0.key, .object([("type", .string($0.value.typeName)), ("value", plainJSON($0.value))])) })
        }
    }
}
