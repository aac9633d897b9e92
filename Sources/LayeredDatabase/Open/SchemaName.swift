/// Validation of the names under which a database is attached.
public enum SchemaName {
    /// Checks a name under which a database may be attached: a plain identifier
    /// (`[A-Za-z_][A-Za-z0-9_]*`, at most 64 characters) other than `main` and `temp`
    /// (in any letter case), which name the user database and the TEMP schema.
    ///
    /// - Throws: ``LayeredDatabaseError/invalidSchemaName(_:reason:)``.
    public static func validate(_ name: String) throws {
        func refuse(_ reason: String) -> LayeredDatabaseError {
            .invalidSchemaName(name, reason: reason)
        }
        let lowered = name.lowercased()
        if lowered == "main" || lowered == "temp" {
            throw refuse("'main' and 'temp' are reserved (the user database and the TEMP schema)")
        }
        guard let first = name.unicodeScalars.first else { throw refuse("the name is empty") }
        guard name.unicodeScalars.count <= 64 else { throw refuse("longer than 64 characters") }
        func isLetter(_ c: Unicode.Scalar) -> Bool {
            ("a"..."z").contains(c) || ("A"..."Z").contains(c) || c == "_"
        }
        guard isLetter(first), name.unicodeScalars.allSatisfy({ isLetter($0) || ("0"..."9").contains($0) }) else {
            throw refuse("use letters, digits and '_' only, not starting with a digit")
        }
        if lowered.hasPrefix("sqlite_") { throw refuse("names starting with 'sqlite_' are reserved by SQLite") }
    }
}
