/// The capture's local tables (never synced), as docs/Sync.md describes them: created with the
/// capture, kept by every later refresh.
enum SyncLocalTables {
    static let state = "shipyard_sync_state"
    static let outbox = "shipyard_sync_outbox"
    static let inflight = "shipyard_sync_inflight"
    static let conflicts = "shipyard_sync_conflicts"

    /// Creates the tables that are missing, and the one state row. SQL that SQLite 3.24 runs.
    ///
    /// - `shipyard_sync_state`: one row; `device_id` is made on the first sync (never in a
    ///   template, which every device copies), `applying` is 1 only inside the sync's own apply
    ///   transaction, `references_checked` is the `user_version` of the shipped data whose
    ///   references were last checked (``DanglingReferences``).
    /// - `shipyard_sync_outbox`: one entry per changed cell not yet frozen; `col` is `''` for
    ///   the row cell (`op` 1 exists, 0 deleted), else the column (`op` 2 set, 3 counter
    ///   increment `delta`). `pk` has no type, so a key keeps its storage class.
    /// - `shipyard_sync_inflight`: the frozen batch, one row per cell: `row` the row's index in
    ///   the request, `cell` the cell's within the row, `value` read when it was frozen; what the
    ///   batch is encoded from, again and again until it is acknowledged.
    /// - `shipyard_sync_conflicts`: what the app reads and deletes.
    static let creation = """
        CREATE TABLE IF NOT EXISTS main.shipyard_sync_state (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            device_id BLOB,
            hlc_max INTEGER NOT NULL DEFAULT 0,
            offset_ms INTEGER NOT NULL DEFAULT 0,
            applying INTEGER NOT NULL DEFAULT 0,
            cursor INTEGER NOT NULL DEFAULT 0,
            next_batch INTEGER NOT NULL DEFAULT 1,
            schema TEXT NOT NULL DEFAULT '',
            references_checked INTEGER);
        INSERT INTO main.shipyard_sync_state (id) SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM main.shipyard_sync_state);
        CREATE TABLE IF NOT EXISTS main.shipyard_sync_outbox (
            tbl TEXT NOT NULL,
            pk NOT NULL,
            col TEXT NOT NULL,
            op INTEGER NOT NULL,
            delta INTEGER,
            hlc INTEGER NOT NULL,
            PRIMARY KEY (tbl, pk, col)) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS main.shipyard_sync_inflight (
            batch INTEGER NOT NULL,
            row INTEGER NOT NULL,
            cell INTEGER NOT NULL,
            tbl TEXT NOT NULL,
            pk NOT NULL,
            col TEXT NOT NULL,
            op INTEGER NOT NULL,
            value,
            delta INTEGER,
            hlc INTEGER NOT NULL,
            PRIMARY KEY (row, cell)) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS main.shipyard_sync_conflicts (
            id INTEGER PRIMARY KEY,
            table_name TEXT NOT NULL,
            row_key,
            column_name TEXT,
            kind TEXT NOT NULL,
            device_value,
            server_value,
            detected_at INTEGER NOT NULL);
        """
}
