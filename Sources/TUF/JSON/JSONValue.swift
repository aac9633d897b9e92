#if canImport(FoundationEssentials) && os(Linux)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A JSON value exactly as it was received: object members keep their order, numbers keep their text.
///
/// TUF signs the canonical form of what the repository wrote, including fields this client does not know,
/// so metadata is kept as a `JSONValue` and the roles are read from it, never re-encoded from a model.
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    /// An integer that fits in 64 bits.
    case integer(Int64)
    /// Any other number, as its JSON text (a fraction, an exponent, or an integer beyond 64 bits).
    case number(String)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The object, if this value is one.
    public var objectValue: JSONObject? {
        if case .object(let object) = self { return object }
        return nil
    }

    /// The string, if this value is one.
    public var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    /// A short name of the value's JSON type, for error messages.
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .integer: return "an integer"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
