import CSQLite

/// A run-time limit of a connection (`sqlite3_limit`, `SQLITE_LIMIT_…`), named as the sqlite3
/// shell's `.limit` names it.
package struct RuntimeLimit: Hashable, Sendable {
    /// The shell's name for the limit (`length`, `variable_number`, …).
    package let name: String
    /// The `SQLITE_LIMIT_…` code.
    package let code: Int32

    /// Every limit the sqlite3 3.40 shell's `.limit` knows, in its order.
    package static let all: [RuntimeLimit] = [
        RuntimeLimit(name: "length", code: SQLITE_LIMIT_LENGTH),
        RuntimeLimit(name: "sql_length", code: SQLITE_LIMIT_SQL_LENGTH),
        RuntimeLimit(name: "column", code: SQLITE_LIMIT_COLUMN),
        RuntimeLimit(name: "expr_depth", code: SQLITE_LIMIT_EXPR_DEPTH),
        RuntimeLimit(name: "compound_select", code: SQLITE_LIMIT_COMPOUND_SELECT),
        RuntimeLimit(name: "vdbe_op", code: SQLITE_LIMIT_VDBE_OP),
        RuntimeLimit(name: "function_arg", code: SQLITE_LIMIT_FUNCTION_ARG),
        RuntimeLimit(name: "attached", code: SQLITE_LIMIT_ATTACHED),
        RuntimeLimit(name: "like_pattern_length", code: SQLITE_LIMIT_LIKE_PATTERN_LENGTH),
        RuntimeLimit(name: "variable_number", code: SQLITE_LIMIT_VARIABLE_NUMBER),
        RuntimeLimit(name: "trigger_depth", code: SQLITE_LIMIT_TRIGGER_DEPTH),
        RuntimeLimit(name: "worker_threads", code: SQLITE_LIMIT_WORKER_THREADS),
    ]

    /// `SQLITE_LIMIT_LENGTH`: the most bytes a text, a blob or a row may have.
    package static var length: RuntimeLimit { all[0] }

    /// `SQLITE_LIMIT_VARIABLE_NUMBER`: the most `?` parameters one statement may have.
    package static var variableNumber: RuntimeLimit { all[9] }
}
