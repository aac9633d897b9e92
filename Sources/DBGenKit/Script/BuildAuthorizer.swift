#if canImport(FoundationEssentials) && os(Linux)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SQLiteCore
import EssentialsSupport

/// The SQLite authorizer of a build: while statements are prepared it refuses what would
/// write a file other than the output or load code (an `ATTACH` of a file that does not exist,
/// which would create it, and so `VACUUM INTO`; any write into an attached database file (an
/// attached `:memory:` database is scratch space and may be written);
/// `load_extension()`, `writefile()`, `edit()`), and records the databases a script attaches
/// to read, as inputs of the build. It runs at prepare time only: an import's inserts pay
/// nothing for it.
final class BuildAuthorizer {
    /// Why the last refused action was refused (SQLite itself only reports `SQLITE_AUTH`).
    private(set) var lastRefusal: String?
    /// The actions SQLite asked about since the last ``reset()``.
    private(set) var actionsAsked: Set<AuthorizerAction> = []
    /// The pragmas (lowercased names) SQLite asked about since the last ``reset()``: those a
    /// statement runs (and, for a `pragma_…` table, the one SQLite prepares as it steps).
    private(set) var pragmasAsked: Set<String> = []
    /// The tables of the main database (lowercased names) a statement inserts into, since the
    /// last ``reset()``: how the build finds the statement that wrote a sync declaration.
    private(set) var tablesInserted: Set<String> = []
    private let recordInput: (String) -> Void
    private let baseDirectory: () -> String
    private unowned let connection: Connection

    /// Installs the authorizer on `connection`; relative database names resolve against
    /// `baseDirectory()` (as the connection's VFS resolves them); `recordInput` gets the absolute
    /// path of every existing database file the script attaches.
    init(connection: Connection, baseDirectory: @escaping () -> String, recordInput: @escaping (String) -> Void) throws
    {
        self.recordInput = recordInput
        self.baseDirectory = baseDirectory
        self.connection = connection
        try connection.setAuthorizer { [unowned self] request in self.decide(request) }
    }

    /// Forgets the last refusal and the actions asked about (before each statement).
    func reset() {
        lastRefusal = nil
        actionsAsked = []
        pragmasAsked = []
        tablesInserted = []
    }

    /// The actions a statement may have asked about and still be a `VACUUM`: SQLite asks about
    /// none for the command itself, and only reads for the expression of `VACUUM INTO`.
    private static let vacuumActions: Set<AuthorizerAction> = [.select, .read, .function, .recursive]

    /// Why a compiled statement (just prepared, after a ``reset()``) must not run, for what
    /// SQLite asks no authorizer about: `VACUUM name` rewrites the attached database file
    /// `name` in place. The compiled program says which database it vacuums (the `Vacuum`
    /// opcode's P1 is the schema's index); it is explained only for a statement that writes
    /// and was asked about nothing a `VACUUM` is not (an `INSERT` was asked about its table).
    func refusal(toRun statement: Statement) throws -> String? {
        guard !statement.isReadOnly, actionsAsked.isSubset(of: Self.vacuumActions) else { return nil }
        let vacuumed = try connection.program(of: statement.sql).filter { $0.opcode == "Vacuum" }.map(\.p1)
        guard !vacuumed.isEmpty else { return nil }
        for row in try connection.query("SELECT seq, name FROM pragma_database_list") {
            guard case .integer(let index) = row[0], vacuumed.contains(index), case .text(let schema) = row[1],
                schema != "main", schema != "temp", connection.filename(ofSchema: schema) != ""
            else { continue }
            return "VACUUM rewrites the attached database \"\(schema)\" (attached databases are read-only inputs)"
        }
        return nil
    }

    private func decide(_ request: AuthorizerRequest) -> AuthorizerDecision {
        actionsAsked.insert(request.action)
        if request.action == AuthorizerAction.insert, request.database == "main", let table = request.argument1 {
            tablesInserted.insert(table.lowercased())
        }
        if request.action == AuthorizerAction.pragma, let pragma = request.argument1 {
            pragmasAsked.insert(pragma.lowercased())
        }
        if request.action == AuthorizerAction.attach {
            return decideAttach(request.argument1)
        }
        if request.action == AuthorizerAction.function, let name = request.argument2?.lowercased() {
            switch name {
            case "load_extension": return refuse("load_extension() loads code")
            case "writefile": return refuse("writefile() writes a file other than the output")
            case "edit": return refuse("edit() runs a program")
            default: return .allow
            }
        }
        if AuthorizerAction.writes.contains(request.action) || isPragmaWrite(request) {
            let schema = request.action == AuthorizerAction.alterTable ? request.argument1 : request.database
            if let schema, schema != "main", schema != "temp", connection.filename(ofSchema: schema) != "" {
                return refuse(
                    "it writes into the attached database \"\(schema)\" (attached databases are read-only inputs)")
            }
        }
        return .allow
    }

    /// Pragmas that, given a value, change the database file.
    private static let writingPragmas: Set<String> = [
        "user_version", "application_id", "schema_version", "journal_mode", "page_size", "auto_vacuum",
        "incremental_vacuum", "wal_checkpoint", "optimize",
    ]

    private func isPragmaWrite(_ request: AuthorizerRequest) -> Bool {
        guard request.action == AuthorizerAction.pragma, let pragma = request.argument1?.lowercased() else {
            return false
        }
        return Self.writingPragmas.contains(pragma) && (request.argument2 != nil || pragma == "incremental_vacuum")
    }

    private func decideAttach(_ name: String?) -> AuthorizerDecision {
        guard let name else {
            return refuse("ATTACH needs its file name as a string literal, so dbgen can check that the file exists")
        }
        guard let path = Self.filePath(ofDatabaseName: name, relativeTo: baseDirectory()) else {
            return .allow // in memory, temporary
        }
        if Self.namesOtherVFSWithRelativePath(name) {
            return refuse(
                "ATTACH of \"\(name)\" names its own VFS, which would resolve the relative path against "
                    + "the process's directory (and create the file there), not the script's; give an absolute path")
        }
        guard PathResolution.isFile(path) else {
            return refuse(
                "ATTACH of \"\(name)\", which does not exist, would create it (VACUUM INTO does so too); "
                    + "dbgen writes no file but its output")
        }
        recordInput(path)
        return .allow
    }

    /// The absolute file path a database name (as given to ATTACH) opens, or nil for an
    /// in-memory or temporary database (`:memory:`, `''`, `file::memory:`, `mode=memory`).
    static func filePath(ofDatabaseName name: String, relativeTo directory: String) -> String? {
        var path = name
        if name.hasPrefix("file:") {
            let rest = name.dropFirst("file:".count)
            let query = rest.firstIndex(of: "?").map { rest[$0...] } ?? ""
            if query.contains("mode=memory") { return nil }
            var location = rest.prefix { $0 != "?" && $0 != "#" }
            if location.hasPrefix("//") { // file://host/path: only an empty host or localhost
                location = location.dropFirst(2).drop { $0 != "/" }
            }
            path = location.percentDecoded ?? String(location)
        }
        if path.isEmpty || path == ":memory:" { return nil }
        return PathResolution.absolute(path, relativeTo: directory)
    }

    /// A `file:` URI with a `vfs=` parameter and a relative path: that VFS, not the build's,
    /// resolves the path.
    static func namesOtherVFSWithRelativePath(_ name: String) -> Bool {
        guard name.hasPrefix("file:"), let query = name.split(separator: "?", maxSplits: 1).dropFirst().first else {
            return false
        }
        let namesVFS = query.split(separator: "&").contains { $0.hasPrefix("vfs=") }
        return namesVFS && !name.dropFirst("file:".count).hasPrefix("/")
    }

    private func refuse(_ reason: String) -> AuthorizerDecision {
        lastRefusal = reason
        return .deny
    }
}
