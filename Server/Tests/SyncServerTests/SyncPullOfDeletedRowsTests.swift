import SyncProtocol
import SyncServer
import SyncServerTestSupport
import XCTest

/// A device's own delete, taken by the server, pulls nothing of the row: the row cell is the
/// device's own, and a column cell of the row sent alone (an edit another device made after the
/// device's cursor) made SyncClient insert a partial row the server has deleted (found by
/// SyncConvergenceTests: a row of NULLs and a counter left on one device only).
final class SyncPullOfDeletedRowsTests: ServerTestCase {
    let tables = [ServerTestCase.list, ServerTestCase.item]

    func testAnEditBeforeTheDevicesOwnDeleteIsNotPulledWithoutItsRow() async throws {
        let user = user()
        let a = try await device(user), b = try await device(user)
        let list = SyncValue.text("groceries"), item = SyncValue.text("milk")
        try await a.send(
            tables,
            [
                .insert(0, list, [(1, .text("Groceries"))], at: a.stamp()),
                milk(item, list, at: a.stamp()),
            ])
        try await b.pullAll()
        XCTAssertEqual(b.replica["item"]?[item]?["quantity"], .integer(1))
        // After b's cursor, a edits both rows (a title, a counter increment)…
        try await a.send(
            tables,
            [
                .update(0, list, [(1, .text("Shopping"))], at: a.stamp()),
                .increment(1, item, column: 4, by: 2, at: a.stamp()),
            ])
        // …and b, which has not seen those edits, deletes both rows: the server takes the deletes.
        let answer = try await b.send(tables, [.delete(0, list, at: b.stamp()), .delete(1, item, at: b.stamp())])
        XCTAssertEqual(answer.status, .applied)
        XCTAssertEqual(answer.results, [])
        XCTAssertEqual(answer.rows.filter { $0.key == list || $0.key == item }, [], "nothing of the rows b deleted")
        XCTAssertFalse(answer.more)
        let cells = try cells(of: "user:\(user)")
        XCTAssertEqual(cells["list 'groceries' "], .integer(0))
        XCTAssertEqual(cells["item 'milk' "], .integer(0))
        // The cursor moved past the edits: the next pull has nothing of them either.
        let next = try await b.send(b.request())
        XCTAssertEqual(next.rows, [])
        // A device that had the rows gets the deletes as row cells alone.
        let c = try await device(user)
        try await c.pullAll()
        XCTAssertNil(c.replica["list"]?[list])
    }

    /// An insert of item `key` in `list` with quantity 1 (a counter travels as an increment).
    func milk(_ key: SyncValue, _ list: SyncValue, at hlc: HLC) -> SyncRowChange {
        var row = SyncRowChange.insert(1, key, [(1, list), (2, .text("milk"))], at: hlc)
        row.cells.append(SyncCellChange(column: 4, hlc: hlc, change: .increment(1)))
        return row
    }
}
