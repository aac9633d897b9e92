/// A change to one string of a property list.
struct PlistStringEdit: Equatable {
    var slot: Int
    var newValue: String
    /// In placeholder mode, the token and what replaced it: lets the XML editor change only
    /// the token's bytes when it can, keeping the rest of the string's raw text as it was.
    var placeholder: (token: String, replacement: String)?

    static func == (lhs: PlistStringEdit, rhs: PlistStringEdit) -> Bool {
        lhs.slot == rhs.slot && lhs.newValue == rhs.newValue
            && lhs.placeholder?.token == rhs.placeholder?.token
            && lhs.placeholder?.replacement == rhs.placeholder?.replacement
    }
}
