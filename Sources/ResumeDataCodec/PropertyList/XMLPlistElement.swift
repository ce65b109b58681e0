/// The elements of Apple's plist DTD, numbered as the C shim numbers them (`CXML_ELEMENT_*`).
enum XMLPlistElement: UInt8 {
    case unknown = 0, plist, dict, key, array, string, data, date, integer, real, `true`, `false`

    var name: String {
        switch self {
        case .unknown: "?"
        case .plist: "plist"
        case .dict: "dict"
        case .key: "key"
        case .array: "array"
        case .string: "string"
        case .data: "data"
        case .date: "date"
        case .integer: "integer"
        case .real: "real"
        case .true: "true"
        case .false: "false"
        }
    }
}
