/// One header field: a name and its value.
public struct HTTPField: Hashable, Sendable {
    /// The field's name, as sent.
    public var name: String
    /// Its value.
    public var value: String

    /// The field `name: value`.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}
