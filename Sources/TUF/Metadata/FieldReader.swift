/// Reads the members of a metadata object, each error naming the document and the member's path.
struct FieldReader {
    let object: JSONObject
    let document: String
    let path: String

    init(_ object: JSONObject, document: String, path: String) {
        self.object = object
        self.document = document
        self.path = path
    }

    init(_ value: JSONValue, document: String, path: String) throws {
        guard case .object(let object) = value else {
            throw TUFError.malformed(document: document, reason: "\(path): expected an object, found \(value.typeName)")
        }
        self.init(object, document: document, path: path)
    }

    func fail(_ key: String, _ reason: String) -> TUFError {
        .malformed(document: document, reason: "\(member(key)): \(reason)")
    }

    /// The path of a member: `signed.version`, `signed.meta.snapshot.json.length`, ...
    func member(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    func value(_ key: String) throws -> JSONValue {
        guard let value = object[key] else { throw fail(key, "missing") }
        return value
    }

    func string(_ key: String) throws -> String {
        let value = try value(key)
        guard case .string(let string) = value else { throw fail(key, "expected a string, found \(value.typeName)") }
        return string
    }

    func bool(_ key: String) throws -> Bool {
        let value = try value(key)
        guard case .bool(let flag) = value else { throw fail(key, "expected a boolean, found \(value.typeName)") }
        return flag
    }

    /// An integer in `range`; a number beyond 64 bits or outside the range is refused by name.
    func integer(_ key: String, in range: ClosedRange<Int64>) throws -> Int64 {
        let value = try value(key)
        let bounds = "\(range.lowerBound)...\(range.upperBound)"
        switch value {
        case .integer(let number) where range.contains(number): return number
        case .integer(let number): throw fail(key, "\(number) is out of range \(bounds)")
        case .number(let text): throw fail(key, "\(text) is out of range \(bounds)")
        default: throw fail(key, "expected an integer, found \(value.typeName)")
        }
    }

    func object(_ key: String) throws -> FieldReader {
        try FieldReader(try value(key), document: document, path: member(key))
    }

    func array(_ key: String) throws -> [JSONValue] {
        let value = try value(key)
        guard case .array(let elements) = value else { throw fail(key, "expected an array, found \(value.typeName)") }
        return elements
    }

    /// A list of distinct strings.
    func uniqueStrings(_ key: String) throws -> [String] {
        var strings: [String] = []
        for element in try array(key) {
            guard case .string(let string) = element else { throw fail(key, "expected strings") }
            guard !strings.contains(string) else { throw fail(key, "\"\(string)\" appears twice") }
            strings.append(string)
        }
        return strings
    }
}
