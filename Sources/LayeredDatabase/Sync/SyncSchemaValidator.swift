import SQLiteCore
import SyncProtocol

/// Turns the rows of `shipyard_sync` into a ``SyncSchema``, refusing what docs/Sync.md refuses:
/// a table or column that does not exist in the user database, an unknown rule, a table
/// without a key unique across devices (no key, a composite key, a bare `INTEGER PRIMARY KEY`
/// not declared `unique-key`, `AUTOINCREMENT`), a `counter` without INTEGER affinity, a rule on
/// the key other than `unique-key`, a `shipyard_*` table, two rules for one column.
struct SyncSchemaValidator {
    let rows: [DeclarationRows.Row]
    let connection: Connection

    /// One declaration: `(table, column or nil, rule)`, with its row.
    private struct Declaration {
        var table: String
        var column: String?
        var rule: SyncRule
        var rowID: Int64?
    }

    private static let ruleList = "last-edit-wins, counter, keep-server, reject (and unique-key on an INTEGER key)"

    func validate() throws -> SyncSchema {
        let declarations = try rows.map(parse)
        var tableRows: [Declaration] = []
        var columnRows: [String: [Declaration]] = [:]
        for declaration in declarations {
            let table = declaration.table.lowercased()
            if let column = declaration.column {
                if let earlier = columnRows[table]?.first(where: { $0.column?.lowercased() == column.lowercased() }) {
                    throw problem(
                        declaration,
                        "two rules for one column ('\(earlier.rule.rawValue)' and '\(declaration.rule.rawValue)')",
                        "keep one row for the column")
                }
                columnRows[table, default: []].append(declaration)
            } else {
                if tableRows.contains(where: { $0.table.lowercased() == table }) {
                    throw problem(declaration, "the table is declared twice", "keep one (T, NULL, RULE) row per table")
                }
                if declaration.rule == .uniqueKey {
                    throw problem(
                        declaration, "unique-key is a rule for the key column, not for a table",
                        "give the table one of \(Self.ruleList), and add (T, KEY, 'unique-key') for an INTEGER key")
                }
                tableRows.append(declaration)
            }
        }
        for (table, declarations) in columnRows where !tableRows.contains(where: { $0.table.lowercased() == table }) {
            let first = declarations[0]
            throw problem(
                first, "a column has a rule but the table does not sync",
                "add the row ('\(first.table)', NULL, RULE) that makes the table sync")
        }
        var tables: [SyncSchema.Table] = []
        for declaration in tableRows {
            tables.append(try table(declaration, columns: columnRows[declaration.table.lowercased()] ?? []))
        }
        return SyncSchema(tables: tables)
    }

    /// One row as a declaration, its values checked.
    private func parse(_ row: DeclarationRows.Row) throws -> Declaration {
        let (tableValue, columnValue, ruleValue) = (row.values[0], row.values[1], row.values[2])
        func refuse(_ table: String?, _ column: String?, _ reason: String, _ fix: String) -> SyncDeclarationProblem {
            SyncDeclarationProblem(table: table, column: column, reason: reason, fix: fix, declarationRowID: row.rowID)
        }
        guard let table = tableValue.textValue, !table.isEmpty else {
            let shown = tableValue == .text("") ? "empty" : tableValue.kindName
            throw refuse(nil, nil, "table_name is \(shown)", "name a table of the user database")
        }
        let column: String?
        switch columnValue {
        case .null: column = nil
        case .text(let name) where !name.isEmpty: column = name
        default:
            throw refuse(
                table, nil, "column_name is \(columnValue.kindName)",
                "name a column, or NULL for the table's own rule")
        }
        guard let text = ruleValue.textValue, let rule = SyncRule(rawValue: text) else {
            let shown = ruleValue.textValue.map { "'\($0)'" } ?? ruleValue.kindName
            throw refuse(table, column, "unknown rule \(shown)", "use one of \(Self.ruleList)")
        }
        let lowered = table.lowercased()
        if lowered.hasPrefix("shipyard_") || lowered.hasPrefix("sqlite_") {
            throw refuse(
                table, column, "the table is Shipyard's or SQLite's own, never synced",
                "declare only the app's tables")
        }
        return Declaration(table: table, column: column, rule: rule, rowID: row.rowID)
    }

    private func problem(_ declaration: Declaration, _ reason: String, _ fix: String) -> SyncDeclarationProblem {
        SyncDeclarationProblem(
            table: declaration.table, column: declaration.column, reason: reason, fix: fix,
            declarationRowID: declaration.rowID)
    }

    /// The synced table `declaration` declares, with its column rules.
    private func table(_ declaration: Declaration, columns declared: [Declaration]) throws -> SyncSchema.Table {
        guard let shape = try TableShape.read(declaration.table, on: connection) else {
            throw problem(
                declaration, "no such table in the user database",
                "create it before declaring it (the shipped database never syncs)")
        }
        var declaration = declaration
        declaration.table = shape.name
        if shape.isVirtual {
            throw problem(declaration, "a virtual table cannot sync", "sync the ordinary table it is built from")
        }
        let key = try keyColumn(of: shape, declaration, declared)
        var rules: [String: SyncRule] = [:]
        for column in declared {
            var column = column
            column.table = shape.name
            guard let found = shape.column(named: column.column ?? "") else {
                throw problem(column, "no such column in \(shape.name)", "name a column of the table")
            }
            column.column = found.name
            if found.name.lowercased() == key.name.lowercased() { continue } // checked with the key
            if found.isGenerated {
                throw problem(
                    column, "a generated column does not sync (each device computes it)", "remove its row")
            }
            if column.rule == .uniqueKey {
                throw problem(
                    column, "unique-key is only for the key column (\(key.name))", "use one of \(Self.ruleList)")
            }
            try requireCounterAffinity(found, rule: column.rule, column)
            rules[found.name.lowercased()] = column.rule
        }
        var columns: [SyncSchema.Column] = []
        for column in shape.columns where !column.isGenerated && column.name.lowercased() != key.name.lowercased() {
            let rule = rules[column.name.lowercased()] ?? declaration.rule
            if rules[column.name.lowercased()] == nil {
                var inherited = declaration
                inherited.column = column.name
                try requireCounterAffinity(column, rule: rule, inherited)
            }
            columns.append(SyncSchema.Column(name: column.name, rule: rule))
        }
        return SyncSchema.Table(name: shape.name, keyColumn: key.name, rule: declaration.rule, columns: columns)
    }

    /// A counter adds integers: its column must have INTEGER affinity.
    private func requireCounterAffinity(_ column: TableShape.Column, rule: SyncRule, _ at: Declaration) throws {
        guard rule == .counter, column.affinity != .integer else { return }
        throw problem(
            at, "a counter column needs INTEGER affinity (its type is '\(column.declaredType)')",
            "declare it INTEGER, or give it another rule")
    }

    /// The table's key, checked to be one column unique across devices.
    private func keyColumn(
        of shape: TableShape, _ declaration: Declaration, _ declared: [Declaration]
    ) throws -> TableShape.Column {
        let key = shape.primaryKey
        guard !key.isEmpty else {
            throw problem(
                declaration, "the table has no PRIMARY KEY",
                "give it a single-column key unique across devices: TEXT (a UUID) or BLOB")
        }
        guard key.count == 1 else {
            throw problem(
                declaration,
                "its PRIMARY KEY has \(key.count) columns (\(key.map(\.name).joined(separator: ", ")))",
                "sync needs a single-column key unique across devices: TEXT (a UUID) or BLOB, "
                    + "with a UNIQUE constraint on the columns instead")
        }
        let column = key[0]
        var keyRule: SyncRule?
        for row in declared where row.column?.lowercased() == column.name.lowercased() {
            guard row.rule == .uniqueKey else {
                var at = row
                at.table = shape.name
                throw problem(
                    at, "the key column can only be declared 'unique-key' (it is the row's identity, not a value)",
                    "remove the row, or make it 'unique-key' for an INTEGER key unique across devices")
            }
            keyRule = row.rule
        }
        if shape.usesAutoincrement {
            throw problem(
                declaration, "its key \(column.name) is AUTOINCREMENT, handed out per device",
                "use a TEXT key (a UUID), or an INTEGER key without AUTOINCREMENT declared unique-key "
                    + "whose values are unique across devices (random 63-bit ids)")
        }
        if shape.keyIsRowIDAlias, keyRule == nil {
            throw problem(
                declaration, "its key \(column.name) is a bare INTEGER PRIMARY KEY (a rowid handed out per device)",
                "use a TEXT key (a UUID), or declare ('\(shape.name)', '\(column.name)', 'unique-key') "
                    + "when its values are unique across devices (random 63-bit ids)")
        }
        switch column.affinity {
        case .text, .blob: break
        case .integer where keyRule == .uniqueKey: break
        case .integer:
            throw problem(
                declaration, "its key \(column.name) is an INTEGER, which devices would hand out alike",
                "use a TEXT key (a UUID), or declare ('\(shape.name)', '\(column.name)', 'unique-key') "
                    + "when its values are unique across devices")
        case .real, .numeric:
            throw problem(
                declaration, "its key \(column.name) has \(column.affinity.rawValue) affinity",
                "use a TEXT key (a UUID) or BLOB")
        }
        if !shape.keyIsRowIDAlias, !shape.isWithoutRowID, !column.notNull {
            throw problem(
                declaration, "its key \(column.name) may be NULL (SQLite allows NULL in the key of a rowid table)",
                "declare it \(column.name) \(column.declaredType) PRIMARY KEY NOT NULL")
        }
        return column
    }
}
