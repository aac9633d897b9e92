/// What syncs, as declared in a user schema's `shipyard_sync` table: the synced tables, each
/// with its key column, its rule (the `(T, NULL, RULE)` row: the default of its columns, and what
/// governs row inserts and deletes) and its synced columns with their rules.
///
/// Only the model: reading it from a database and validating the declarations is the device
/// library's job (and the server's, from its `--schema`).
public struct SyncSchema: Hashable, Sendable {
    /// The synced tables, in the order they were declared or read.
    public var tables: [Table]

    /// A schema of `tables`.
    public init(tables: [Table]) { self.tables = tables }

    /// The table called `name` (compared ASCII case-insensitively, as SQLite compares names), else nil.
    public func table(named name: String) -> Table? {
        tables.first { SyncSchema.sameName($0.name, name) }
    }

    /// A synced table.
    public struct Table: Hashable, Sendable {
        /// The table's name.
        public var name: String
        /// The name of its key column (a single-column PRIMARY KEY unique across devices).
        public var keyColumn: String
        /// The table's rule: what governs row inserts and deletes, and the default of its columns.
        public var rule: SyncRule
        /// The synced columns other than the key, in the table's order.
        public var columns: [Column]

        /// A table called `name`, keyed by `keyColumn`, with `rule` and `columns`.
        public init(name: String, keyColumn: String, rule: SyncRule, columns: [Column]) {
            self.name = name
            self.keyColumn = keyColumn
            self.rule = rule
            self.columns = columns
        }

        /// The synced column called `name`, else nil (the key column is not among them).
        public func column(named name: String) -> Column? {
            columns.first { SyncSchema.sameName($0.name, name) }
        }
    }

    /// A synced column.
    public struct Column: Hashable, Sendable {
        /// The column's name.
        public var name: String
        /// The rule in force for it: its own declaration's, else its table's.
        public var rule: SyncRule

        /// A column called `name` decided by `rule`.
        public init(name: String, rule: SyncRule) {
            self.name = name
            self.rule = rule
        }
    }

    /// One line per table, `name(key) rule: column rule, …`, in a stable order (tables and
    /// columns sorted by name): what a device compares to tell that the synced columns changed.
    public var fingerprint: String {
        tables.sorted { $0.name.lowercased() < $1.name.lowercased() }.map { table in
            let columns = table.columns.sorted { $0.name.lowercased() < $1.name.lowercased() }
                .map { "\($0.name) \($0.rule.rawValue)" }.joined(separator: ", ")
            return "\(table.name)(\(table.keyColumn)) \(table.rule.rawValue): \(columns)"
        }.joined(separator: "\n")
    }

    /// Whether two SQL names are the same name (ASCII case-insensitive, as SQLite compares).
    public static func sameName(_ a: String, _ b: String) -> Bool {
        let x = a.utf8
        let y = b.utf8
        guard x.count == y.count else { return false }
        return zip(x, y).allSatisfy { asciiLower($0) == asciiLower($1) }
    }

    private static func asciiLower(_ byte: UInt8) -> UInt8 {
        byte >= 65 && byte <= 90 ? byte + 32 : byte
    }
}
