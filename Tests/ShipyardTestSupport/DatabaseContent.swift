import Foundation

/// A database's whole content as text, read through the sqlite3 shell (the oracle), exact to
/// the bit: `user_version`, `application_id`, every schema object (type, name, table, SQL),
/// and every table's rows (rowid included for rowid tables) with each value's storage class
/// and exact form: REALs as `ieee754(M,E)`, text and blobs as hex, so 1, 1.0, '1' and x'31'
/// all differ, and so do 256.09 and 256.09000000000003, 0.0 and -0.0.
///
/// Two databases hold the same content exactly when their dumps are equal.
public enum DatabaseContent {
    /// The dump of the database at `path`.
    public static func dump(_ path: String) throws -> String {
        let header = try Oracle.sqlite3Script(
            path,
            """
            .mode list
            PRAGMA user_version; PRAGMA application_id;
            .mode quote
            SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY type, name;
            """)
        let tables = try Oracle.sqlite3Script(
            path,
            """
            .mode list
            .separator "\\t"
            SELECT l.name, l.wr, (SELECT group_concat(quote(x.name), ',') FROM pragma_table_xinfo(l.name) x WHERE x.hidden != 1)
              FROM pragma_table_list l WHERE l.schema = 'main' AND l.type IN ('table', 'shadow') AND l.name NOT IN ('sqlite_schema', 'sqlite_temp_schema') ORDER BY l.name;
            """)
        var script = ".mode list\n"
        for line in tables.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 3 else { continue }
            let (name, withoutRowid) = (fields[0], fields[1] == "1")
            var columns = fields[2].isEmpty ? [] : splitQuotedList(fields[2])
            if !withoutRowid { columns.insert("rowid", at: 0) }
            let values = columns.map { column -> String in
                let c =
                    column == "rowid" ? "_rowid_" : "\"" + column.replacingOccurrences(of: "\"", with: "\"\"") + "\""
                return
                    "typeof(\(c))||':'||CASE typeof(\(c)) WHEN 'real' THEN ieee754(\(c)) WHEN 'null' THEN '' ELSE hex(\(c)) END"
            }
            let quotedName = "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            script += "SELECT 'table ' || \(sqlLiteral(name));\n"
            script += "SELECT \(values.joined(separator: " || ' | ' || ")) FROM \(quotedName) ORDER BY 1;\n"
        }
        return header + (try Oracle.sqlite3Script(path, script))
    }

    /// `'a','b''c'` → [a, b'c].
    private static func splitQuotedList(_ text: String) -> [String] {
        var names: [String] = [], current = "", inside = false
        var iterator = Array(text).makeIterator()
        var pending: Character? = nil
        while let char = pending ?? iterator.next() {
            pending = nil
            if inside {
                if char == "'" {
                    if let next = iterator.next() {
                        if next == "'" { current.append("'") } else { inside = false; pending = next }
                    } else {
                        inside = false
                    }
                } else {
                    current.append(char)
                }
            } else if char == "'" {
                inside = true
            } else if char == "," {
                names.append(current); current = ""
            }
        }
        names.append(current)
        return names
    }

    private static func sqlLiteral(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }
}
