import DBGenKit
import Foundation
import LayeredDatabase
import SyncProtocol

/// Reads what syncs from a user schema script (`--schema`): builds the script with dbgen's
/// builder into a temporary SQLite database, then reads its `shipyard_sync` declarations and
/// checks them as docs/Sync.md's "Declaring what syncs" says, naming the file and what is wrong.
///
/// The server's own reader until the device library's declarations reader (LayeredDatabase's
/// `Sync/`) is merged; the rules are the same.
public enum UserSchemaReader {
    /// The synced tables declared by the script at `path`.
    public static func read(scriptAt path: String) throws -> SyncSchema {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("shipyard-sync-schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("user.sqlite").path
        var options = BuildOptions(schema: path, output: output)
        options.cacheDirectory = nil
        options.force = true
        do {
            _ = try DatabaseBuilder.build(options)
        } catch {
            throw SyncServerError(status: 0, "\(error)")
        }
        let connection = try Connection(path: output, readOnly: true)
        defer { connection.close() }
        do {
            return try read(connection)
        } catch let problem as Problem {
            throw SyncServerError(status: 0, "\(path): error: shipyard_sync: \(problem.message)")
        }
    }

    struct Problem: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }

    /// The declarations in an open database.
    static func read(_ connection: Connection) throws -> SyncSchema {
        guard
            try connection.scalar("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'shipyard_sync'")
                != .integer(0)
        else { throw Problem("the script declares no table shipyard_sync: nothing syncs") }
        var tableRules: [(String, SyncRule)] = []
        var columnRules: [String: [String: SyncRule]] = [:]
        for row in try connection.query("SELECT table_name, column_name, rule FROM shipyard_sync ORDER BY rowid") {
            guard case .text(let table) = row[0] else { throw Problem("a row with no table_name") }
            guard case .text(let ruleText) = row[2], let rule = SyncRule(rawValue: ruleText) else {
                throw Problem(
                    "table '\(table)': unknown rule \(row[2].shellText.isEmpty ? "NULL" : "'\(row[2].shellText)'")")
            }
            let key = table.lowercased()
            switch row[1] {
            case .null:
                guard !tableRules.contains(where: { $0.0.lowercased() == key }) else {
                    throw Problem("table '\(table)' is declared twice")
                }
                tableRules.append((table, rule))
            case .text(let column):
                guard columnRules[key, default: [:]][column.lowercased()] == nil else {
                    throw Problem("column '\(table).\(column)' has two rules")
                }
                columnRules[key, default: [:]][column.lowercased()] = rule
            default: throw Problem("table '\(table)': column_name must be text or NULL")
            }
        }
        for declared in columnRules.keys where !tableRules.contains(where: { $0.0.lowercased() == declared }) {
            throw Problem("columns of table '\(declared)' have rules, but the table has no (table, NULL, rule) row")
        }
        guard !tableRules.isEmpty else { throw Problem("no table is declared: nothing syncs") }
        return SyncSchema(
            tables: try tableRules.map { name, rule in
                try table(name, rule: rule, columnRules: columnRules[name.lowercased()] ?? [:], connection)
            })
    }

    private static func table(_ name: String, rule: SyncRule, columnRules: [String: SyncRule], _ connection: Connection)
        throws -> SyncSchema.Table
    {
        guard !name.lowercased().hasPrefix("shipyard_") else {
            throw Problem("table '\(name)': shipyard_ tables never sync")
        }
        guard rule != .uniqueKey else { throw Problem("table '\(name)': unique-key is a rule of the key column") }
        let master = try connection.query(
            "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name = ? COLLATE NOCASE", [.text(name)])
        guard let definition = master.first, case .text(let canonical) = definition[0] else {
            throw Problem("table '\(name)' does not exist in the user database")
        }
        let sql = definition[1].shellText.uppercased()
        // name, type, pk, hidden (table_xinfo: 2 and 3 are generated columns).
        let info = try connection.query("SELECT name, type, pk, hidden FROM pragma_table_xinfo(?)", [.text(canonical)])
        let keys = info.filter { $0[2] != .integer(0) }
        guard keys.count == 1, case .text(let keyColumn) = keys[0][0] else {
            throw Problem(
                "table '\(name)': \(keys.isEmpty ? "no primary key" : "a composite primary key"): a synced table needs a single-column key unique across devices"
            )
        }
        let keyType = keys[0][1].shellText.uppercased()
        let keyRule = columnRules[keyColumn.lowercased()]
        if sql.contains("AUTOINCREMENT") {
            throw Problem(
                "table '\(name)': an AUTOINCREMENT key is handed out per device; use a UUID or a unique-key INTEGER")
        }
        if let keyRule, keyRule != .uniqueKey {
            throw Problem("table '\(name)': the key column '\(keyColumn)' takes no rule but unique-key")
        }
        let isRowidAlias = keyType == "INTEGER" && !sql.contains("WITHOUT ROWID")
        if keyRule == .uniqueKey, !keyType.contains("INT") {
            throw Problem("table '\(name)': unique-key declares an INTEGER key; '\(keyColumn)' is \(keyType)")
        }
        if isRowidAlias, keyRule != .uniqueKey {
            throw Problem(
                "table '\(name)': the key '\(keyColumn)' is a bare INTEGER PRIMARY KEY (a rowid handed out per device); declare it unique-key or use a UUID"
            )
        }
        var columns: [SyncSchema.Column] = []
        var known: Set<String> = [keyColumn.lowercased()]
        for column in info where column[2] == .integer(0) {
            guard case .text(let columnName) = column[0] else { continue }
            let generated = column[3] == .integer(2) || column[3] == .integer(3)
            known.insert(columnName.lowercased())
            let own = columnRules[columnName.lowercased()]
            if generated {
                if own != nil { throw Problem("column '\(name).\(columnName)' is generated: it never syncs") }
                continue
            }
            if own == .uniqueKey {
                throw Problem("column '\(name).\(columnName)': unique-key is for the key column only")
            }
            let columnRule = own ?? rule
            if columnRule == .counter, !column[1].shellText.uppercased().contains("INT") {
                throw Problem("column '\(name).\(columnName)' is a counter but has no INTEGER affinity")
            }
            columns.append(SyncSchema.Column(name: columnName, rule: columnRule))
        }
        for declared in columnRules.keys where !known.contains(declared) {
            throw Problem("column '\(name).\(declared)' does not exist")
        }
        return SyncSchema.Table(name: canonical, keyColumn: keyColumn, rule: rule, columns: columns)
    }
}
