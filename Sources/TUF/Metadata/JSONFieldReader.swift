/// Reads the members of a JSON object, each error a ``TUFError/malformed(document:reason:)``
/// naming the document and the member's path (`signed.meta.snapshot.json.length`): the one
/// reader of JSON fields in the package, for TUF's metadata and for what applications keep in
/// it (FeedClient's `custom.shipyard` facts, a root's data epoch).
package struct JSONFieldReader {
    /// The object read.
    package let object: JSONObject
    /// The document (or, for facts, the target) the errors name.
    package let document: String
    /// The object's path in the document (empty at its top).
    package let path: String

    /// A reader of `object`, at `path` in `document`.
    package init(_ object: JSONObject, document: String, path: String) {
        self.object = object
        self.document = document
        self.path = path
    }

    /// A reader of `value`, which must be an object.
    package init(_ value: JSONValue, document: String, path: String) throws {
        guard case .object(let object) = value else {
            throw TUFError.malformed(document: document, reason: "\(path): expected an object, found \(value.typeName)")
        }
        self.init(object, document: document, path: path)
    }

    /// The error for member `key`: `PATH.KEY: REASON`.
    package func fail(_ key: String, _ reason: String) -> TUFError {
        .malformed(document: document, reason: "\(member(key)): \(reason)")
    }

    /// The path of a member: `signed.version`, `signed.meta.snapshot.json.length`, ...
    package func member(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// The member `key`, or nil when there is none.
    package func optional(_ key: String) -> JSONValue? { object[key] }

    /// The member `key`, which must be there.
    package func value(_ key: String) throws -> JSONValue {
        guard let value = object[key] else { throw fail(key, "missing") }
        return value
    }

    /// A string.
    package func string(_ key: String) throws -> String {
        let value = try value(key)
        guard case .string(let string) = value else { throw fail(key, "expected a string, found \(value.typeName)") }
        return string
    }

    /// A boolean.
    package func bool(_ key: String) throws -> Bool {
        let value = try value(key)
        guard case .bool(let flag) = value else { throw fail(key, "expected a boolean, found \(value.typeName)") }
        return flag
    }

    /// An integer in `range`; a number beyond 64 bits or outside the range is refused by name.
    package func integer(_ key: String, in range: ClosedRange<Int64>) throws -> Int64 {
        let value = try value(key)
        let bounds = "\(range.lowerBound)...\(range.upperBound)"
        switch value {
        case .integer(let number) where range.contains(number): return number
        case .integer(let number): throw fail(key, "\(number) is out of range \(bounds)")
        case .number(let text): throw fail(key, "\(text) is out of range \(bounds)")
        default: throw fail(key, "expected an integer, found \(value.typeName)")
        }
    }

    /// A member that is an object, read by a reader of its own.
    package func object(_ key: String) throws -> JSONFieldReader {
        try JSONFieldReader(try value(key), document: document, path: member(key))
    }

    /// An array.
    package func array(_ key: String) throws -> [JSONValue] {
        let value = try value(key)
        guard case .array(let elements) = value else { throw fail(key, "expected an array, found \(value.typeName)") }
        return elements
    }

    /// A list of distinct strings.
    package func uniqueStrings(_ key: String) throws -> [String] {
        var strings: [String] = []
        for element in try array(key) {
            guard case .string(let string) = element else { throw fail(key, "expected strings") }
            guard !strings.contains(string) else { throw fail(key, "\"\(string)\" appears twice") }
            strings.append(string)
        }
        return strings
    }
}
