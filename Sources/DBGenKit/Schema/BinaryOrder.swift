extension String {
    /// Byte-order comparison (SQLite's BINARY collation), the order names are listed in.
    func binaryPrecedes(_ other: String) -> Bool {
        Array(utf8).lexicographicallyPrecedes(Array(other.utf8))
    }
}
