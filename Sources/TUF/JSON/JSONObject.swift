/// A JSON object: its members in the order they were received, each name once.
///
/// The order matters where TUF says "the first": a target's first hash names its consistent-snapshot file.
public struct JSONObject: Equatable, Sendable {
    /// The member names, in order.
    public private(set) var keys: [String] = []
    private var values: [String: JSONValue] = [:]

    /// An empty object.
    public init() {}

    /// An object of these members, in this order (a later duplicate replaces the earlier value in place).
    public init(_ members: [(String, JSONValue)]) {
        for (key, value) in members { self[key] = value }
    }

    /// The value of a member, or nil; setting nil removes the member, setting a new name appends it.
    public subscript(key: String) -> JSONValue? {
        get { values[key] }
        set {
            if let newValue {
                if values.updateValue(newValue, forKey: key) == nil { keys.append(key) }
            } else if values.removeValue(forKey: key) != nil {
                keys.removeAll { $0 == key }
            }
        }
    }

    /// The members in order.
    public var members: [(key: String, value: JSONValue)] {
        keys.compactMap { key in values[key].map { (key, $0) } }
    }

    /// The number of members.
    public var count: Int { keys.count }

    /// Whether the object has a member of this name.
    public func contains(_ key: String) -> Bool { values[key] != nil }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.values == rhs.values
    }
}
