/// A parsed property list, as far as stamping needs it: containers and strings, with the
/// other value types (`integer`, `real`, `true`, `data`, …) kept as their type name.
indirect enum PlistNode: Equatable {
    case dictionary([(key: String, value: PlistNode)], line: Int?)
    case array([PlistNode], line: Int?)
    case string(PlistString)
    case other(type: String, line: Int?)

    static func == (lhs: PlistNode, rhs: PlistNode) -> Bool {
        switch (lhs, rhs) {
        case let (.dictionary(a, l1), .dictionary(b, l2)):
            return l1 == l2 && a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case let (.array(a, l1), .array(b, l2)):
            return l1 == l2 && a == b
        case let (.string(a), .string(b)):
            return a == b
        case let (.other(a, l1), .other(b, l2)):
            return a == b && l1 == l2
        default:
            return false
        }
    }

    /// A short name of the node's type for messages: `dict`, `array`, `string`, `integer`, ….
    var typeName: String {
        switch self {
        case .dictionary: return "dict"
        case .array: return "array"
        case .string: return "string"
        case let .other(type, _): return type
        }
    }

    var line: Int? {
        switch self {
        case let .dictionary(_, line), let .array(_, line), let .other(_, line): return line
        case let .string(string): return string.line
        }
    }

    /// Every string value (dictionary keys excluded) with its key path, in document order.
    func strings(at path: PlistKeyPath = PlistKeyPath(components: [])) -> [(path: PlistKeyPath, string: PlistString)] {
        switch self {
        case let .dictionary(entries, _):
            return entries.flatMap { $0.value.strings(at: path.appending($0.key)) }
        case let .array(items, _):
            return items.enumerated().flatMap { $0.element.strings(at: path.appending(String($0.offset))) }
        case let .string(string):
            return [(path, string)]
        case .other:
            return []
        }
    }

    /// The outcome of looking a key path up.
    enum Lookup {
        case found(PlistString)
        /// The path leads to a value that is not a string.
        case notString(type: String, line: Int?)
        /// A component is missing: `parent` is the path that exists, `line` its container's.
        case missing(parent: PlistKeyPath, component: String, container: String, line: Int?)
    }

    /// Looks `path` up: components are dictionary keys, or indexes into arrays. With duplicate
    /// keys the last one wins, as in CoreFoundation and Python's plistlib.
    func lookup(_ path: PlistKeyPath) -> Lookup {
        var node = self
        var walked = PlistKeyPath(components: [])
        for component in path.components {
            switch node {
            case let .dictionary(entries, line):
                guard let entry = entries.last(where: { $0.key == component }) else {
                    return .missing(parent: walked, component: component, container: "dict", line: line)
                }
                node = entry.value
            case let .array(items, line):
                guard let index = Int(component), index >= 0, index < items.count,
                      component.allSatisfy(\.isASCII) else {
                    return .missing(parent: walked, component: component, container: "array", line: line)
                }
                node = items[index]
            default:
                return .missing(parent: walked, component: component, container: node.typeName, line: node.line)
            }
            walked = walked.appending(component)
        }
        if case let .string(string) = node { return .found(string) }
        return .notString(type: node.typeName, line: node.line)
    }
}

