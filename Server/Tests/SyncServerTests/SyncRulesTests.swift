import SyncProtocol
import SyncServerTestSupport
import XCTest

/// docs/Sync.md's rules table, rule by rule, with two or three simulated devices of one user
/// speaking the wire format to a real server over a real PostgreSQL.
final class SyncRulesTests: ServerTestCase {
    let tables = [ServerTestCase.list, ServerTestCase.item, ServerTestCase.note, ServerTestCase.stampTable]
    let list = 0, item = 1, note = 2, stamp = 3
    /// A clock reading fixed for the test: edits are placed before and after it.
    let t = SimulatedDevice.now()

    func testANewRowIsTakenAndPulledWholeByTheOtherDeviceButNotSentBackToItsAuthor() async throws {
        let user = user()
        let a = try await device(user), b = try await device(user)
        let key = SyncValue.text("3f2c1b7e-0000-4000-8000-000000000001")
        let sent = try await a.send(
            tables, [.insert(list, key, [(1, .text("Groceries")), (2, .text("ann"))], at: a.stamp())])
        XCTAssertEqual(sent.status, .applied)
        XCTAssertEqual(sent.results, [])
        XCTAssertEqual(sent.rows, [], "the author has its own cells")
        try await b.pullAll()
        XCTAssertEqual(b.replica["list"]?[key], ["title": .text("Groceries"), "owner": .text("ann")])
        XCTAssertEqual(a.replica, b.replica)
        // B edits the title only; A receives the edit, and only it.
        try await b.send(tables, [.update(list, key, [(1, .text("Food"))], at: b.stamp())])
        let pulled = try await a.send(a.request())
        XCTAssertEqual(pulled.rows.count, 1)
        XCTAssertEqual(pulled.rows[0].cells, [SyncPulledCell(column: 1, content: .value(.text("Food")))])
        XCTAssertEqual(a.replica, b.replica)
    }

    func testLastEditWinsTheLaterEditWinsAndTheLoserGetsTheServersValue() async throws {
        let user = user()
        let a = try await device(user), b = try await device(user)
        let key = SyncValue.text("row-1")
        try await a.send(tables, [.insert(list, key, [(1, .text("first"))], at: HLC(milliseconds: t - 10_000))])
        try await b.pullAll()
        // Both edit offline: B later than A; B syncs first, then A, whose edit loses.
        try await b.send(tables, [.update(list, key, [(1, .text("by B"))], at: HLC(milliseconds: t - 1000))])
        let answer = try await a.send(
            tables, [.update(list, key, [(1, .text("by A"))], at: HLC(milliseconds: t - 2000))])
        XCTAssertEqual(answer.results, [SyncResult(row: 0, column: 1, outcome: .superseded, server: .text("by B"))])
        XCTAssertGreaterThanOrEqual(answer.hlc, HLC(milliseconds: t - 1000), "the answer carries the winner's clock")
        // Now A edits later than B: taken.
        let later = try await a.send(tables, [.update(list, key, [(1, .text("A again"))], at: a.stamp())])
        XCTAssertEqual(later.results, [])
        try await b.pullAll()
        XCTAssertEqual(b.replica["list"]?[key]?["title"], .text("A again"))
        XCTAssertEqual(a.replica, b.replica)
        XCTAssertEqual(try cells(of: "user:\(user)")["list 'row-1' title"], .text("A again"))
    }

    func testTheSameClockIsDecidedByTheDeviceIdAsUnsignedBytes() async throws {
        let user = user()
        let low = try await device(user), high = try await device(user)
        low.id = SyncDeviceID(high: 0x7F00_0000_0000_0000, low: 0)
        high.id = SyncDeviceID(high: 0x8000_0000_0000_0000, low: 0) // greater as unsigned bytes
        let key = SyncValue.text("tie")
        let at = HLC(milliseconds: t - 5000, logical: 3)
        try await low.send(tables, [.insert(list, key, [(1, .text("x"))], at: HLC(milliseconds: t - 9000))])
        try await high.send(tables, [.update(list, key, [(1, .text("high"))], at: at)])
        let answer = try await low.send(tables, [.update(list, key, [(1, .text("low"))], at: at)])
        XCTAssertEqual(answer.results.first?.outcome, .superseded)
        XCTAssertEqual(answer.results.first?.server, .text("high"))
    }

    func testACounterAddsEveryIncrementExactlyOnce() async throws {
        let user = user()
        let a = try await device(user), b = try await device(user)
        let listKey = SyncValue.text("L"), key = SyncValue.text("milk")
        let insert = SyncRowChange(
            table: item, key: key,
            cells: [
                SyncCellChange(column: 0, hlc: a.stamp(), change: .row(exists: true)),
                SyncCellChange(column: 1, hlc: a.hlcMax, change: .value(listKey)),
                SyncCellChange(column: 4, hlc: a.hlcMax, change: .increment(2)),
            ])
        try await a.send(tables, [insert])
        try await b.pullAll()
        try await b.send(tables, [.increment(item, key, column: 4, by: 5, at: b.stamp())])
        let request = a.request(tables, [.increment(item, key, column: 4, by: -1, at: a.stamp())])
        let first = try await a.send(request)
        XCTAssertEqual(first.results, [])
        // The answer was lost: the same batch again is replayed, not added twice.
        a.nextBatch = request.batch!.id // the request above carries a batch
        let again = try await a.send(request)
        XCTAssertEqual(again.status, .replayed)
        XCTAssertEqual(try cells(of: "user:\(user)")["item 'milk' quantity"], .integer(6))
        try await b.pullAll()
        XCTAssertEqual(b.replica["item"]?[key]?["quantity"], .integer(6))
        XCTAssertEqual(first.rows.first?.cells.first?.content, .value(.integer(6)), "the author is sent the sum")
    }

    func testKeepServerTakesAFirstValueAndThenKeepsIt() async throws {
        let user = user()
        let a = try await device(user), b = try await device(user)
        let key = SyncValue.text("K")
        try await a.send(tables, [.insert(list, key, [(1, .text("t"))], at: a.stamp())])
        try await b.pullAll()
        // No value yet: taken.
        let first = try await b.send(tables, [.update(list, key, [(2, .text("bob"))], at: b.stamp())])
        XCTAssertEqual(first.results, [])
        // A value: kept, whatever the clock.
        let answer = try await a.send(
            tables, [.update(list, key, [(2, .text("ann"))], at: a.stamp(offsetMilliseconds: 1000))])
        XCTAssertEqual(answer.results, [SyncResult(row: 0, column: 2, outcome: .keptServer, server: .text("bob"))])
        XCTAssertEqual(a.replica["list"]?[key]?["owner"], .text("bob"))
    }

    func testRejectRefusesAChangeOfACellWithAValue() async throws {
        let user = user()
        let a = try await device(user), b = try await device(user)
        let key = SyncValue.text("R")
        try await a.send(tables, [.insert(list, key, [(3, .text("locked by a"))], at: a.stamp())])
        try await b.pullAll()
        let answer = try await b.send(tables, [.update(list, key, [(3, .text("mine"))], at: b.stamp())])
        XCTAssertEqual(
            answer.results, [SyncResult(row: 0, column: 3, outcome: .rejected, server: .text("locked by a"))])
        XCTAssertEqual(try cells(of: "user:\(user)")["list 'R' locked"], .text("locked by a"))
    }

    func testAnEditOfADeletedRowIsDroppedAndReported() async throws {
        let user = user()
        let a = try await device(user), b = try await device(user)
        let key = SyncValue.text("D")
        try await a.send(tables, [.insert(list, key, [(1, .text("t"))], at: HLC(milliseconds: t - 9000))])
        try await b.pullAll()
        try await a.send(tables, [.delete(list, key, at: HLC(milliseconds: t - 5000))])
        // B edits offline later than the delete: dropped all the same (the row stays deleted).
        let before = try cells(of: "user:\(user)")
        let answer = try await b.send(
            tables, [.update(list, key, [(1, .text("edited")), (3, .text("x"))], at: b.stamp())])
        XCTAssertEqual(
            answer.results,
            [
                SyncResult(row: 0, column: 1, outcome: .editOfDeletedRow, server: .text("t")),
                SyncResult(row: 0, column: 3, outcome: .editOfDeletedRow, server: .null),
            ])
        XCTAssertEqual(try cells(of: "user:\(user)"), before)
        XCTAssertNil(b.replica["list"]?[key], "B learns of the delete in the same answer")
        XCTAssertEqual(a.replica, b.replica)
    }

    func testADeleteWinsOverEarlierEditsAndLosesToALaterInsert() async throws {
        let user = user()
        let a = try await device(user), b = try await device(user), c = try await device(user)
        let key = SyncValue.text("E")
        try await a.send(tables, [.insert(list, key, [(1, .text("t"))], at: HLC(milliseconds: t - 9000))])
        try await b.pullAll()
        try await b.send(tables, [.update(list, key, [(1, .text("edit"))], at: HLC(milliseconds: t - 8000))])
        // del after mod: deleted.
        let deleted = try await a.send(tables, [.delete(list, key, at: HLC(milliseconds: t - 7000))])
        XCTAssertEqual(deleted.results, [])
        XCTAssertEqual(try cells(of: "user:\(user)")["list 'E' "], .integer(0))
        // An insert of the deleted key with an earlier clock: dropped and reported.
        let early = try await c.send(
            tables, [.insert(list, key, [(1, .text("old insert"))], at: HLC(milliseconds: t - 7500))])
        XCTAssertEqual(
            early.results.first, SyncResult(row: 0, column: 0, outcome: .editOfDeletedRow, server: .integer(0)))
        // With a later clock: the row is revived, and the others receive it whole.
        let revived = try await c.send(tables, [.insert(list, key, [(1, .text("again"))], at: c.stamp())])
        XCTAssertEqual(revived.results, [])
        try await a.pullAll()
        try await b.pullAll()
        XCTAssertEqual(a.replica["list"]?[key], ["title": .text("again")])
        XCTAssertEqual(b.replica, a.replica)
        XCTAssertEqual(c.replica, a.replica)
        // A delete older than the row's (re-)insert is refused; the device gets the row back whole.
        let stale = try await b.send(tables, [.delete(list, key, at: HLC(milliseconds: t - 6000))])
        XCTAssertEqual(stale.results, [SyncResult(row: 0, column: 0, outcome: .deleteRefused, server: .integer(1))])
        XCTAssertEqual(stale.rows.count, 1)
        XCTAssertEqual(b.replica["list"]?[key], ["title": .text("again")])
    }

    /// Found by the convergence test: A deletes, C re-inserts later, B deletes later still; B's
    /// delete reaches the server before C's insert. The second delete of a deleted row must still
    /// carry its stamp, or the earlier insert revives the row over the later delete.
    func testASecondDeleteKeepsItsStampSoAnEarlierInsertArrivingLaterLoses() async throws {
        let user = user()
        let a = try await device(user), b = try await device(user), c = try await device(user)
        let key = SyncValue.text("D")
        try await a.send(tables, [.insert(list, key, [(1, .text("t"))], at: HLC(milliseconds: t - 9000))])
        try await a.send(tables, [.delete(list, key, at: HLC(milliseconds: t - 8000))])
        let second = try await b.send(tables, [.delete(list, key, at: HLC(milliseconds: t - 6000))])
        XCTAssertEqual(second.results, [])
        let late = try await c.send(
            tables, [.insert(list, key, [(1, .text("between"))], at: HLC(milliseconds: t - 7000))])
        XCTAssertEqual(
            late.results.first, SyncResult(row: 0, column: 0, outcome: .editOfDeletedRow, server: .integer(0)))
        XCTAssertEqual(try cells(of: "user:\(user)")["list 'D' "], .integer(0))
        try await a.pullAll()
        try await c.pullAll()
        XCTAssertNil(a.replica["list"]?[key])
        XCTAssertNil(c.replica["list"]?[key])
    }

    func testKeepServerAndRejectTablesRefuseDeletesAndGiveTheRowBack() async throws {
        let user = user()
        let a = try await device(user), b = try await device(user)
        let noteKey = SyncValue.blob([1, 2, 3]), stampKey = SyncValue.integer(Int64(1) << 60)
        try await a.send(
            tables,
            [
                .insert(note, noteKey, [(1, .text("n"))], at: a.stamp()),
                .insert(stamp, stampKey, [(1, .text("s"))], at: a.stamp()),
            ])
        try await b.pullAll()
        let answer = try await b.send(
            tables, [.delete(note, noteKey, at: b.stamp()), .delete(stamp, stampKey, at: b.stamp())])
        XCTAssertEqual(
            answer.results,
            [
                SyncResult(row: 0, column: 0, outcome: .deleteRefused, server: .integer(1)),
                SyncResult(row: 1, column: 0, outcome: .deleteRefused, server: .integer(1)),
            ])
        XCTAssertEqual(b.replica["note"]?[noteKey], ["body": .text("n")])
        XCTAssertEqual(b.replica["stamp"]?[stampKey], ["label": .text("s")])
        XCTAssertEqual(a.replica, b.replica)
    }

    func testADeviceOnAnOlderSchemaNeverErasesAColumnItDoesNotKnow() async throws {
        let user = user()
        let new = try await device(user), old = try await device(user)
        let oldList = SyncTableColumns(name: "list", columns: ["title"])
        let key = SyncValue.text("S")
        try await new.send(tables, [.insert(list, key, [(1, .text("t")), (2, .text("ann"))], at: new.stamp())])
        try await old.pullAll()
        try await old.send([oldList], [.update(0, key, [(1, .text("from old"))], at: old.stamp())])
        try await new.pullAll()
        XCTAssertEqual(new.replica["list"]?[key], ["title": .text("from old"), "owner": .text("ann")])
    }

    func testTheCursorPagesThroughTheSpaceWithMore() async throws {
        let user = user()
        let a = try await device(user), b = try await device(user)
        let rows = (0..<25).map { SyncRowChange.insert(list, .text("p\($0)"), [(1, .text("\($0)"))], at: a.stamp()) }
        try await a.send(tables, rows)
        var pages: [Int] = []
        while true {
            let answer = try await b.send(b.request(limit: 20))
            pages.append(answer.rows.count)
            if !answer.more { break }
        }
        XCTAssertEqual(pages.reduce(0, +), 25)
        XCTAssertGreaterThan(pages.count, 2, "20 cells a page: 50 cells take three pages")
        XCTAssertEqual(a.replica, b.replica)
        let nothing = try await b.send(b.request())
        XCTAssertEqual(nothing.rows, [], "nothing new: nothing pulled")
    }
}
