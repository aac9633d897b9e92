import Foundation

/// The rules of docs/Sync.md as a model, written apart from the server and the client: from
/// the log of every local write (each with the HLC the device's capture stamped it with and the
/// device's id), the state every device and the server must end in.
///
/// The table `doc` (key `id`) has two `last-edit-wins` columns (`title`, `body`), a `counter`
/// (`hits`), a `keep-server` column (`status`) and a `reject` column (`note`). Keys come in two
/// kinds:
/// - *kept* keys are never deleted: every column is exact (the later `(hlc, device)` edit wins,
///   the counter is the sum of every increment, initial values of every insert included), and
///   `status` and `note` are each one of the values written (the first to reach the server, an
///   order the model cannot know).
/// - *churned* keys are inserted, deleted and inserted again: whether the row exists is exact
///   (the later of its inserts and deletes). When it exists, each `last-edit-wins` column is the
///   winning insert's value unless some edit stamped after that insert changed it, and then one of
///   those edits' values (an edit by a device that had not seen the delete is dropped if it reaches
///   the server while the row is deleted, so which one depends on arrival order).
struct ConvergenceModel {
    static let valueColumns = ["title", "body", "status", "note"]

    /// An edit's order: `(hlc, device)`, devices as 16 unsigned bytes.
    struct Stamp: Comparable, CustomStringConvertible {
        var hlc: Int64
        var device: [UInt8]

        static func < (a: Stamp, b: Stamp) -> Bool {
            a.hlc != b.hlc ? a.hlc < b.hlc : a.device.lexicographicallyPrecedes(b.device)
        }

        var description: String { "\(hlc)/\(device.first ?? 0)" }
    }

    enum Op {
        case insert(key: String, stamp: Stamp, values: [String: String], hits: Int64)
        case update(key: String, stamp: Stamp, column: String, value: String)
        case delete(key: String, stamp: Stamp)
        case increment(key: String, delta: Int64)

        var key: String {
            switch self {
            case .insert(let key, _, _, _), .update(let key, _, _, _), .delete(let key, _), .increment(let key, _): key
            }
        }
    }

    /// What a key's row must be: absent, or for each column the values it may hold (one value:
    /// exact). `hits` nil: any value (churned keys), as long as every device agrees with the server.
    struct Expected: CustomStringConvertible {
        var exists: Bool
        var allowed: [String: Set<String>] = [:]
        var hits: Int64?

        var description: String {
            exists
                ? "exists "
                    + allowed.sorted { $0.key < $1.key }.map { "\($0.key) ∈ \($0.value.sorted())" }
                    .joined(separator: ", ") + " hits \(hits.map(String.init) ?? "any")"
                : "absent"
        }
    }

    private(set) var log: [Op] = []

    mutating func record(_ op: Op) { log.append(op) }

    /// The expected row of `key`. Two writes with one stamp come from one device (the stamp
    /// holds its id; its capture may stamp several writes alike): of two such values of a
    /// column, the later in the log, the device's own order, is the one that stands.
    func expected(_ key: String, churned: Bool) -> Expected {
        let ops = log.filter { $0.key == key }
        var rowWinner: (stamp: Stamp, op: Op, index: Int)?
        for (index, op) in ops.enumerated() {
            switch op {
            case .insert(_, let stamp, _, _), .delete(_, let stamp):
                if rowWinner.map({ $0.stamp < stamp }) ?? true { rowWinner = (stamp, op, index) }
            default: break
            }
        }
        guard let (rowStamp, winner, winnerIndex) = rowWinner, case .insert(_, _, let inserted, _) = winner else {
            return Expected(exists: false)
        }
        var expected = Expected(exists: true)
        for column in Self.valueColumns {
            var written: [(stamp: Stamp, value: String, index: Int)] = []
            for (index, op) in ops.enumerated() {
                switch op {
                case .insert(_, let stamp, let values, _): written.append((stamp, values[column] ?? "null", index))
                case .update(_, let stamp, column, let value): written.append((stamp, value, index))
                default: break
                }
            }
            if column == "status" || column == "note" {
                expected.allowed[column] = Set(written.map(\.value))
            } else if churned {
                let later = written.filter { rowStamp < $0.stamp || (rowStamp == $0.stamp && $0.index > winnerIndex) }
                expected.allowed[column] = Set([inserted[column] ?? "null"] + later.map(\.value))
            } else {
                // The greatest stamp; of equal ones (one device's), the last written.
                let last = written.reduce(nil as (stamp: Stamp, value: String, index: Int)?) { best, write in
                    best.map { write.stamp < $0.stamp } == true ? best : write
                }
                expected.allowed[column] = [last?.value ?? "null"]
            }
        }
        if !churned {
            expected.hits = ops.reduce(0) { sum, op in
                switch op {
                case .insert(_, _, _, let hits): sum &+ hits
                case .increment(_, let delta): sum &+ delta
                default: sum
                }
            }
        }
        return expected
    }
}
