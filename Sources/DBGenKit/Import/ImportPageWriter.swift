import SQLiteCore

/// The database side of an import whose table dbgen lays out itself: takes the file from SQLite
/// (``DirectDatabaseFile``), checks what the layout depends on in the header, hands the new
/// B-tree to SQLite (the root page, then the header's page count and change counter, which make
/// SQLite read the file afresh), and can put everything back as it was.
///
/// The table must be empty, its root page the empty leaf `CREATE TABLE` (or a `DELETE`) left,
/// the database a rollback-journal one without auto-vacuum, in UTF-8, with no bytes beyond its
/// pages: anything else, and the import takes SQLite's insert path.
final class ImportPageWriter {
    private let connection: Connection
    private var file: DirectDatabaseFile?
    let tree: ImportTableTreeWriter
    /// The database's schema format (header bytes 44–47): 4 or more stores 0 and 1 in no bytes.
    let schemaFormat: Int
    private let pageSize: Int
    private let originalPageCount: UInt32
    private let rootPage: UInt32
    /// The root page as it was: an empty leaf.
    private let originalRoot: [UInt8]
    /// The table, for the checks after the hand-over.
    private let qualifiedTable: String
    /// The page count ``finish()`` gave SQLite.
    private var finishedPageCount: UInt32?

    private init(
        connection: Connection, file: DirectDatabaseFile, tree: ImportTableTreeWriter, schemaFormat: Int,
        pageSize: Int, pageCount: UInt32, rootPage: UInt32, originalRoot: [UInt8], qualifiedTable: String
    ) {
        self.connection = connection
        self.file = file
        self.tree = tree
        self.schemaFormat = schemaFormat
        self.pageSize = pageSize
        originalPageCount = pageCount
        self.rootPage = rootPage
        self.originalRoot = originalRoot
        self.qualifiedTable = qualifiedTable
    }

    /// Takes the file of `main` for the table of `target` (`qualifiedTable`, empty), or returns
    /// nil, with SQLite holding the file as before, when its layout cannot be written here.
    static func start(connection: Connection, target: ImportPageTarget, qualifiedTable: String) throws
        -> ImportPageWriter?
    {
        guard case .integer(let maxPages)? = try connection.scalar("PRAGMA main.max_page_count"),
            maxPages >= 1_073_741_823,
            let file = try DirectDatabaseFile.borrow(connection)
        else { return nil }
        do {
            var header = [UInt8](repeating: 0, count: 100)
            try file.read(into: &header, count: 100, at: 0)
            func field(_ offset: Int) -> UInt32 {
                header[offset..<(offset + 4)].reduce(0) { $0 << 8 | UInt32($1) }
            }
            let rawPageSize = Int(header[16]) << 8 | Int(header[17])
            let pageSize = rawPageSize == 1 ? 65536 : rawPageSize
            let reserved = Int(header[20])
            let pageCount = field(28)
            let size = try file.size()
            guard pageSize >= 512, pageSize & (pageSize - 1) == 0, pageSize - reserved >= 480,
                field(24) == field(92), pageCount > 0, Int64(pageCount) * Int64(pageSize) == size,
                field(52) == 0, // no auto-vacuum (its pointer-map pages)
                field(56) == 1, // UTF-8
                target.rootPage <= pageCount, UInt64(pageCount) < UInt64(maxPages)
            else {
                try file.giveBack()
                return nil
            }
            var root = [UInt8](repeating: 0, count: pageSize)
            try file.read(into: &root, count: pageSize, at: Int64(target.rootPage - 1) * Int64(pageSize))
            // An empty table leaf: flag 13, no cells.
            guard root[0] == 0x0D, root[3] == 0, root[4] == 0 else {
                try file.giveBack()
                return nil
            }
            let tree = try ImportTableTreeWriter(
                file: file, pageSize: pageSize, reservedBytes: reserved, pageCount: pageCount,
                rootPage: target.rootPage, maxPageCount: UInt32(min(maxPages, Int64(UInt32.max))))
            return ImportPageWriter(
                connection: connection, file: file, tree: tree, schemaFormat: Int(field(44)), pageSize: pageSize,
                pageCount: pageCount, rootPage: target.rootPage, originalRoot: root, qualifiedTable: qualifiedTable)
        } catch {
            try? file.giveBack()
            throw error
        }
    }

    /// Writes the rest of the tree and the header, and gives the file back to SQLite; then
    /// checks that SQLite sees the table as laid out (its page count, its largest rowid).
    func finish(lastRowid: Int64?) throws {
        guard let file else { return }
        let rows = tree.rows
        let pageCount = try tree.finish()
        if rows > 0 {
            try writeHeader(file, pageCount: pageCount)
            finishedPageCount = pageCount
        }
        self.file = nil
        try file.giveBack()
        guard rows > 0 else { return }
        let count = try connection.scalar("PRAGMA main.page_count")
        let largest = try connection.scalar("SELECT max(rowid) FROM \(qualifiedTable)")
        guard count == .integer(Int64(pageCount)), largest == lastRowid.map({ .integer($0) }) else {
            throw DBGenError(
                .importData,
                "internal error: SQLite does not see the \(rows) rows written into \(qualifiedTable)'s pages"
                    + " (page count \(String(describing: count)), expected \(pageCount))")
        }
    }

    /// A new change counter (bytes 24 and 92, so SQLite reads the file afresh), the page count
    /// (28) and the library's version number (96), as SQLite writes them at a commit.
    private func writeHeader(_ file: DirectDatabaseFile, pageCount: UInt32) throws {
        var header = [UInt8](repeating: 0, count: 100)
        try file.read(into: &header, count: 100, at: 0)
        let counter = header[24..<28].reduce(UInt32(0)) { $0 << 8 | UInt32($1) } &+ 1
        func put(_ value: UInt32, at offset: Int) {
            for index in 0..<4 { header[offset + index] = UInt8(truncatingIfNeeded: value >> (24 - 8 * index)) }
        }
        put(counter, at: 24)
        put(pageCount, at: 28)
        put(counter, at: 92)
        put(UInt32(bitPattern: DirectDatabaseFile.libraryVersionNumber), at: 96)
        try file.write(header, count: 100, at: 0)
    }

    /// Puts the table and the file back as they were before the import (its root page an empty
    /// leaf, the file cut to its old size), after an error: SQLite's rows of the import are
    /// rolled back first by the caller. Failing that, the table's rows are deleted.
    func restore() {
        // No write of the tree may land after the file is put back.
        tree.abandon()
        do {
            guard let file = try self.file ?? DirectDatabaseFile.borrow(connection) else {
                try connection.execute("DELETE FROM \(qualifiedTable)")
                return
            }
            self.file = nil
            defer { try? file.giveBack() }
            try file.write(originalRoot, count: pageSize, at: Int64(rootPage - 1) * Int64(pageSize))
            try writeHeader(file, pageCount: originalPageCount)
            try file.truncate(to: Int64(originalPageCount) * Int64(pageSize))
        } catch {
            // The import's own error is what gets reported; the build discards this file.
        }
    }
}
