import SQLiteCore

/// Switching an open ``LayeredDatabase`` to shipped data installed while it was open.
///
/// ``UpdateInstaller`` installs by renaming a new file over the old one: the open connection
/// keeps reading the file it attached (its descriptor still names the old one), so every query
/// sees one release of the shipped data from start to end. The app moves to the new release at
/// a moment it chooses, between statements, or on its next open; never in the middle of a
/// query:
///
/// ```swift
/// if try database.hasNewerShippedData {
///     try database.switchToNewestShippedData()   // between two queries
///     try database.createUnionView(...)          // TEMP views are re-read, nothing to redo
/// }
/// ```
extension LayeredDatabase {
    /// True when the shipped database in effect now (``DatabaseInEffect/select(bundledPath:updatesDirectory:)``,
    /// as an open would choose) is not the one attached: an update was installed since (or
    /// removed). ``switchToNewestShippedData()`` attaches it.
    ///
    /// - Throws: ``LayeredDatabaseError`` when the bundled file is missing or not a database.
    public var hasNewerShippedData: Bool {
        get throws {
            try DatabaseInEffect.select(bundledPath: bundledPath, updatesDirectory: updatesDirectory)
                != databaseInEffect
        }
    }

    /// Attaches the shipped database in effect now in place of the one attached (`DETACH`,
    /// then `ATTACH` under the same name), when they differ; returns whether it switched.
    /// ``databaseInEffect`` then describes the new one. TEMP views over the bundled schema,
    /// such as ``createUnionView(named:columns:bundledTable:userTable:sourceColumn:)``'s, read
    /// the new data at their next use.
    ///
    /// Only between statements: while a statement of the connection is running (a SELECT whose
    /// rows are still being read) it throws ``LayeredDatabaseError/statementRunning`` and the
    /// statement goes on reading the data it started with; inside a transaction (SQLite
    /// attaches nothing there) ``LayeredDatabaseError/transactionOpen``. Nothing has changed
    /// then; call it again when the statement or transaction has ended.
    ///
    /// - Throws: ``LayeredDatabaseError``; when the new file cannot be attached, the one
    ///   attached before is attached again and the error names the bundled file.
    @discardableResult
    public func switchToNewestShippedData() throws -> Bool {
        guard !connection.hasRunningStatement else { throw LayeredDatabaseError.statementRunning }
        guard !connection.isInTransaction else { throw LayeredDatabaseError.transactionOpen }
        let newest = try DatabaseInEffect.select(bundledPath: bundledPath, updatesDirectory: updatesDirectory)
        guard newest != databaseInEffect else { return false }
        let previous = databaseInEffect
        // The guard refuses any DETACH of the bundled schema; lifted for this one.
        try connection.setAuthorizer(nil)
        defer { try? DetachGuard.install(on: connection, protecting: bundleName) }
        do {
            try connection.execute("DETACH DATABASE \(SQLIdentifier.quote(bundleName))")
        } catch let error as SQLiteError {
            throw LayeredDatabaseError.sqlite(path: previous.path, error)
        }
        do {
            databaseInEffect = try attach(newest.path, isInstalledUpdate: newest.isInstalledUpdate)
        } catch {
            // Never left without shipped data: the file attached before (an installed update's
            // path may hold a newer file by now), else the bundled one.
            for (path, isInstalledUpdate) in [(previous.path, previous.isInstalledUpdate), (bundledPath, false)] {
                if let attached = try? attach(path, isInstalledUpdate: isInstalledUpdate) {
                    databaseInEffect = attached
                    break
                }
            }
            throw error
        }
        return databaseInEffect != previous
    }

    /// Attaches `path` under ``bundleName`` and describes it by what it holds now (another
    /// install may have followed the choice); detaches it again when that fails.
    private func attach(_ path: String, isInstalledUpdate: Bool) throws -> DatabaseInEffect {
        do {
            try LayeredDatabase.attachShipped(path, bundledPath: bundledPath, as: bundleName, on: connection)
            return DatabaseInEffect(
                path: path, userVersion: try connection.userVersion(schema: bundleName),
                isInstalledUpdate: isInstalledUpdate)
        } catch {
            try? connection.execute("DETACH DATABASE \(SQLIdentifier.quote(bundleName))")
            if let error = error as? SQLiteError { throw LayeredDatabaseError.sqlite(path: path, error) }
            throw error
        }
    }
}
