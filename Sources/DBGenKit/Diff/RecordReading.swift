/// How a diff reads the rows of rowid tables whose CREATE statement is the same in both
/// databases (through ``RecordMerge``, or SQLite alone), and a count of what it read: the
/// tests check with it that the path they mean is the one taken.
final class RecordReading {
    /// Where rows come from.
    enum Mode: Equatable {
        /// Records from the files' pages; SQLite decodes the rows that differ.
        case records
        /// Every row through SQLite (``RowMerge`` alone): the reference path.
        case sqliteOnly
        /// As `records`, but each table's walk stops after this many rows as if a page were
        /// unreadable, and SQLite reads the rest (the hand-over, tested).
        case recordsStoppingAfter(Int)
    }

    var mode: Mode = .records
    /// Tables walked from their pages (to the end, or until handed over).
    var tablesWalked = 0
    /// Tables read through SQLite alone because a file could not be read by pages.
    var tablesNotWalked = 0
    /// Walks handed over to SQLite part way.
    var handOvers = 0
    /// Rows found unchanged by their bytes (leaves passed over included).
    var rowsSameBytes = 0
    /// Leaf pages passed over whole.
    var leavesSkipped = 0
    /// Rows read through SQLite during walks (changed, inserted, deleted, overflowing).
    var rowsLookedUp = 0
}
