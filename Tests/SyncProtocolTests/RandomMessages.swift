// A test generator: each value it unwraps is drawn from a range its initializer accepts.
// swift-format-ignore-file: NeverForceUnwrap
import ShipyardTestSupport
import SyncProtocol

/// Seeded random values and messages covering every form the wire format has: each value tag
/// (small integers, UUID text in either case), every cell kind, compressed or not.
struct RandomMessages {
    var generator: SeededGenerator

    init(seed: UInt64) { generator = SeededGenerator(seed: seed) }

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &generator) }
    mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }

    mutating func integer() -> Int64 {
        switch int(0...5) {
        case 0: return Int64(int(0...63))
        case 1: return Int64.random(in: -1000...1000, using: &generator)
        case 2: return [Int64.min, Int64.max, -1, 64, -64, 63, 127, 128][int(0...7)]
        default: return Int64(bitPattern: generator.next()) >> UInt64(int(0...63))
        }
    }

    mutating func text() -> String {
        let pieces = ["a", "Z", "0", "é", "字", "🙂", "'", "\"", "\\", "\n", "\u{0}", " ", "-", "\u{7F}", "\u{10FFFF}"]
        return (0..<int(0...12)).map { _ in pieces[int(0...pieces.count - 1)] }.joined()
    }

    mutating func uuid(uppercase: Bool?) -> String {
        let hex = Array("0123456789abcdef")
        var characters: [Character] = []
        for i in 0..<32 {
            if [8, 12, 16, 20].contains(i) { characters.append("-") }
            var c = hex[int(0...15)]
            if uppercase == true || (uppercase == nil && chance(50)) { c = Character(c.uppercased()) }
            characters.append(c)
        }
        return String(characters)
    }

    mutating func value() -> SyncValue {
        switch int(0...9) {
        case 0: return .null
        case 1, 2: return .integer(integer())
        case 3:
            let specials: [UInt64] = [0, 1 << 63, 0x7FF0_0000_0000_0000, 0x7FF8_0000_0000_0001, 0xFFF4_0000_0000_0000]
            return .real(Double(bitPattern: chance(30) ? specials[int(0...4)] : generator.next()))
        case 4: return .text(text())
        case 5: return .text(uuid(uppercase: false))
        case 6: return .text(uuid(uppercase: true))
        case 7: return .text(uuid(uppercase: nil))
        default: return .blob((0..<int(0...20)).map { _ in UInt8.random(in: 0...255, using: &generator) })
        }
    }

    mutating func key() -> SyncValue {
        switch int(0...3) {
        case 0: return .integer(integer())
        case 1: return .text(uuid(uppercase: chance(20)))
        case 2: return .text(text())
        default: return .blob((0..<int(0...16)).map { _ in UInt8.random(in: 0...255, using: &generator) })
        }
    }

    mutating func tables() -> [SyncTableColumns] {
        (0..<int(1...4)).map { t in
            SyncTableColumns(name: "table\(t)_\(text())", columns: (0..<int(0...6)).map { "c\($0)\(text())" })
        }
    }

    mutating func hlc() -> HLC {
        HLC(
            milliseconds: Int64(int(0...3)) == 0
                ? HLC.maximumMilliseconds - Int64(int(0...9)) : Int64(int(1_700_000_000_000...1_800_000_000_000)),
            logical: UInt16(int(0...65535)))
    }

    mutating func request() -> SyncRequest {
        var request = SyncRequest(
            device: .random(using: &generator), cursor: generator.next() >> UInt64(int(0...63)),
            clock: generator.next() >> UInt64(int(0...63)), limit: UInt64(int(0...3) * 1000))
        if chance(80) {
            let tables = tables()
            var rows: [SyncRowChange] = []
            var keys = Set<[SyncValue]>()
            for _ in 0..<int(0...30) {
                let table = int(0...tables.count - 1)
                let key = key()
                guard keys.insert([.integer(Int64(table)), key]).inserted else { continue }
                var columns = Array(0...tables[table].columns.count)
                columns.shuffle(using: &generator)
                let cells = columns.prefix(int(1...columns.count)).map { column -> SyncCellChange in
                    let change: SyncCellContent =
                        column == 0 ? .row(exists: chance(50)) : chance(20) ? .increment(integer()) : .value(value())
                    return SyncCellChange(column: column, hlc: hlc(), change: change)
                }
                rows.append(SyncRowChange(table: table, key: key, cells: cells))
            }
            request.batch = SyncBatch(id: 1 + generator.next() >> UInt64(int(1...63)), tables: tables, rows: rows)
        }
        return request
    }

    mutating func answer() -> SyncAnswer {
        let status = SyncAnswer.Status(rawValue: UInt8(int(0...2)))!
        var answer = SyncAnswer(
            clock: generator.next() >> 20, batch: status == .none ? 0 : UInt64(int(1...1_000_000)), status: status)
        if status != .none {
            answer.results = (0..<int(0...8)).map { _ in
                SyncResult(
                    row: int(0...5000), column: int(0...2000), outcome: SyncOutcome.allCases[int(0...4)],
                    server: value())
            }
        }
        answer.tables = chance(80) ? tables() : []
        var keys = Set<[SyncValue]>()
        if !answer.tables.isEmpty {
            for _ in 0..<int(0...30) {
                let table = int(0...answer.tables.count - 1)
                let key = key()
                guard keys.insert([.integer(Int64(table)), key]).inserted else { continue }
                var columns = Array(0...answer.tables[table].columns.count)
                columns.shuffle(using: &generator)
                let cells = columns.prefix(int(1...columns.count)).map { column in
                    SyncPulledCell(column: column, content: column == 0 ? .row(exists: chance(50)) : .value(value()))
                }
                answer.rows.append(SyncPulledRow(table: table, key: key, cells: cells))
            }
        }
        answer.cursor = generator.next() >> UInt64(int(0...63))
        answer.hlc = chance(20) ? .zero : hlc()
        answer.more = chance(50)
        return answer
    }
}
