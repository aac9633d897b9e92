import SQLiteCore

/// One way a database differs from what its schema builds, phrased for the user.
public enum DatabaseDifference: Hashable, Sendable, CustomStringConvertible {
    /// A schema object (table, index, view, trigger) the schema builds is not there.
    case missing(type: String, name: String)
    /// A schema object is there that the schema does not build.
    case extra(type: String, name: String)
    /// A schema object has another definition (SQL).
    case definitionDiffers(type: String, name: String)
    /// A table holds other rows (or values of other types).
    case rowsDiffer(table: String)
    /// `user_version` or `application_id` differs.
    case pragmaDiffers(name: String, expected: Int64, actual: Int64)

    /// The difference as a sentence (`table food has different rows`).
    public var description: String {
        switch self {
        case .missing(let type, let name): return "\(type) \(name) is missing"
        case .extra(let type, let name): return "\(type) \(name) should not be there"
        case .definitionDiffers(let type, let name): return "\(type) \(name) has a different definition"
        case .rowsDiffer(let table): return "table \(table) has different rows"
        case .pragmaDiffers(let name, let expected, let actual):
            return "\(name) is \(actual), expected \(expected)"
        }
    }

}
