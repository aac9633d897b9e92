/// A string value of a parsed property list and where it sits.
struct PlistString: Equatable {
    /// The decoded value.
    var value: String
    /// The editor's handle for this string (an index into its list of strings).
    var slot: Int
    /// The 1-based line of the `<string>` element (XML only).
    var line: Int?
}
