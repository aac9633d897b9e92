import SQLiteCore

/// Ordered schema migrations of the user database, keyed by its `PRAGMA user_version`
/// (in the spirit of GRDB's `DatabaseMigrator`).
///
/// Each step has a version (an integer ≥ 1, strictly increasing in registration order)
/// and an identifier, and runs SQL or a closure. A step runs only when the database's
/// `user_version` is below its version; it runs inside `BEGIN IMMEDIATE` … `COMMIT`
/// together with `PRAGMA user_version = VERSION`, so it is applied completely or not at
/// all, and concurrent processes never apply it twice. When a step fails, it is rolled
/// back and later steps are not run; earlier steps stay applied.
///
/// A template shipped with a newer app sets `user_version` to its latest migration, so
/// a freshly created user database skips the steps it already contains, while existing
/// user databases are brought forward without losing rows. A database whose
/// `user_version` is above every step (an app downgrade) is left as it is.
///
/// When the user database declares synced tables (`shipyard_sync`), each step ends by
/// refreshing the capture (``SyncCapture/refresh(on:)``) in the step's transaction: a column the
/// step added is captured at once, and a step that leaves the declarations invalid (a synced
/// table dropped but still declared) fails and is rolled back, naming the declaration.
///
/// Steps cannot contain statements that SQLite refuses inside a transaction (`VACUUM`,
/// and `PRAGMA foreign_keys` is a no-op there).
///
/// ```swift
/// var migrator = UserDatabaseMigrator()
/// migrator.registerMigration(version: 2, "notes", sql: "ALTER TABLE user_food ADD COLUMN notes TEXT")
/// migrator.registerMigration(version: 3, "favourites") { db in
///     try db.execute("CREATE TABLE favourite (food_pk INTEGER NOT NULL)")
/// }
/// ```
public struct UserDatabaseMigrator {
    /// One migration step.
    public struct Migration {
        /// The `user_version` the database has once this step is applied.
        public let version: Int32
        /// A name for error messages.
        public let identifier: String
        /// The work, run on the user database connection inside the step's transaction.
        public let migrate: (Connection) throws -> Void
    }

    /// The registered steps, in registration order.
    public private(set) var migrations: [Migration] = []

    /// Creates a migrator with no steps.
    public init() {}

    /// Registers a step that runs `sql` (one or more statements).
    public mutating func registerMigration(version: Int32, _ identifier: String, sql: String) {
        registerMigration(version: version, identifier) { try $0.execute(sql) }
    }

    /// Registers a step that runs a closure on the user database connection.
    public mutating func registerMigration(
        version: Int32, _ identifier: String, migrate: @escaping (Connection) throws -> Void
    ) {
        migrations.append(Migration(version: version, identifier: identifier, migrate: migrate))
    }

    /// The highest registered version, or 0 when there are no steps.
    public var latestVersion: Int32 { migrations.last?.version ?? 0 }

    /// Applies the pending steps to `connection`'s main database.
    ///
    /// - Returns: The versions applied by this call.
    /// - Throws: ``LayeredDatabaseError/invalidMigrationOrder(_:)`` (nothing is applied) or
    ///   ``LayeredDatabaseError/migrationFailed(version:identifier:underlying:)``.
    @discardableResult
    public func migrate(_ connection: Connection) throws -> [Int32] {
        var previous: Int32 = 0
        for migration in migrations {
            guard migration.version > previous else {
                throw LayeredDatabaseError.invalidMigrationOrder(
                    "version \(migration.version) '\(migration.identifier)' must be ≥ 1 and greater than the version before it (\(previous))"
                )
            }
            previous = migration.version
        }
        var applied: [Int32] = []
        for migration in migrations {
            do {
                let ran: Bool = try connection.inTransaction {
                    let current = try Self.userVersion(connection)
                    guard current < migration.version else { return false }
                    try migration.migrate(connection)
                    // A migrated synced table (an added column) is captured from this step on.
                    try SyncCapture.refresh(on: connection)
                    try connection.execute("PRAGMA main.user_version = \(migration.version)")
                    return true
                }
                if ran { applied.append(migration.version) }
            } catch let error as SQLiteError {
                throw LayeredDatabaseError.migrationFailed(
                    version: migration.version, identifier: migration.identifier, underlying: error)
            } catch let error as LayeredDatabaseError {
                throw error
            } catch {
                throw LayeredDatabaseError.migrationFailed(
                    version: migration.version, identifier: migration.identifier,
                    underlying: SQLiteError(extendedResultCode: .SQLITE_ERROR, message: String(describing: error)))
            }
        }
        return applied
    }

    /// The user database's `PRAGMA user_version`.
    public static func userVersion(_ connection: Connection) throws -> Int32 {
        guard case .integer(let version)? = try connection.scalar("PRAGMA main.user_version") else { return 0 }
        return Int32(truncatingIfNeeded: version)
    }
}
