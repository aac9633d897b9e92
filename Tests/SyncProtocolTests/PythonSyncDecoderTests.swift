import Foundation
import ShipyardTestSupport
import SyncProtocol
import XCTest

/// python3 decodes what SyncProtocol encodes, with a decoder written here from docs/Sync.md's
/// wire format section (not from Shipyard's code), and prints JSON that the test compares with
/// the messages the bytes were made from.
final class PythonSyncDecoderTests: XCTestCase {
    static let script = #"""
        import sys, json, os, zlib, struct

        class Bad(Exception):
            pass

        class R:
            def __init__(self, data):
                self.d, self.i = data, 0
            def u8(self):
                if self.i >= len(self.d): raise Bad("truncated")
                self.i += 1
                return self.d[self.i - 1]
            def take(self, n):
                if n > len(self.d) - self.i: raise Bad("length past the end")
                self.i += n
                return self.d[self.i - n:self.i]
            def varint(self):
                value, shift, n = 0, 0, 0
                while True:
                    b = self.u8(); n += 1
                    if n > 10: raise Bad("varint too long")
                    value |= (b & 0x7F) << shift
                    if not b & 0x80:
                        if b == 0 and n > 1: raise Bad("overlong")
                        if value >= 1 << 64: raise Bad("varint over 64 bits")
                        return value
                    shift += 7
            def svarint(self):
                n = self.varint()
                return (n >> 1) ^ -(n & 1)
            def text(self):
                return self.take(self.varint()).decode("utf-8", errors="strict")
            def uuid_text(self, upper):
                h = self.take(16).hex()
                s = "-".join([h[0:8], h[8:12], h[12:16], h[16:20], h[20:32]])
                return s.upper() if upper else s
            def value(self):
                t = self.u8()
                if t == 0: return None
                if t == 1: return {"i": self.svarint()}
                if t == 2: return {"r": "%016x" % struct.unpack("<Q", self.take(8))[0]}
                if t == 3: return {"t": self.text()}
                if t == 4: return {"b": self.take(self.varint()).hex()}
                if t in (5, 6): return {"t": self.uuid_text(t == 6)}
                if 0x40 <= t <= 0x7F: return {"i": t - 0x40}
                raise Bad("unknown tag %d" % t)
            def tables(self):
                out = []
                for _ in range(self.varint()):
                    name = self.text()
                    out.append({"name": name, "columns": [self.text() for _ in range(self.varint())]})
                return out

        def body(data):
            flags = data[0]
            if flags & ~1: raise Bad("flags")
            rest = zlib.decompress(data[1:]) if flags & 1 else data[1:]
            r = R(rest)
            if r.u8() != 1: raise Bad("version")
            return r

        def request(data):
            r = body(data)
            out = {"device": r.take(16).hex(), "cursor": r.varint(), "clock": r.varint(), "limit": r.varint()}
            batch = r.varint()
            if batch:
                tables = r.tables()
                ms = r.varint()
                rows = []
                for _ in range(r.varint()):
                    row = {"table": r.varint(), "key": r.value(), "cells": []}
                    for _ in range(r.varint()):
                        head = r.varint()
                        column, delta = head >> 1, head & 1
                        ms += r.svarint()
                        hlc = ms * 65536 + r.varint()
                        if column == 0:
                            payload = {"row": r.u8()}
                        elif delta:
                            payload = {"delta": r.svarint()}
                        else:
                            payload = {"value": r.value()}
                        row["cells"].append({"column": column, "hlc": hlc, **payload})
                    rows.append(row)
                out["batch"] = {"id": batch, "tables": tables, "rows": rows}
            if r.i != len(r.d): raise Bad("trailing bytes")
            return out

        def answer(data):
            r = body(data)
            out = {"clock": r.varint(), "batch": r.varint(), "status": r.u8(), "results": []}
            for _ in range(r.varint()):
                out["results"].append({"row": r.varint(), "column": r.varint(), "outcome": r.u8(), "server": r.value()})
            out["tables"] = r.tables()
            out["rows"] = []
            for _ in range(r.varint()):
                row = {"table": r.varint(), "key": r.value(), "cells": []}
                for _ in range(r.varint()):
                    column = r.varint()
                    row["cells"].append({"column": column, **({"row": r.u8()} if column == 0 else {"value": r.value()})})
                out["rows"].append(row)
            out["cursor"], out["hlc"], out["more"] = r.varint(), r.varint(), r.u8()
            if r.i != len(r.d): raise Bad("trailing bytes")
            return out

        directory = sys.argv[1]
        result = []
        for name in sorted(os.listdir(directory)):
            data = open(os.path.join(directory, name), "rb").read()
            result.append((request if name.endswith("request") else answer)(data))
        def strings(o):  # every integer as text: JSON numbers lose bits past 2^53
            if isinstance(o, dict): return {k: strings(v) for k, v in o.items()}
            if isinstance(o, list): return [strings(v) for v in o]
            return str(o) if isinstance(o, int) else o
        json.dump(strings(result), sys.stdout)
        """#

    func testPythonDecodesWhatSwiftEncodes() throws {
        let directory = try TemporaryDirectory()
        var expected: [Any] = []
        var index = 0
        for seed in 0..<80 as Range<UInt64> {
            var random = RandomMessages(seed: 1000 + seed)
            let request = random.request()
            let answer = random.answer()
            for compression in [SyncCompression.never, .always] {
                let requestName = String(format: "%05d-request", index)
                try Data(request.encoded(compression: compression)).write(
                    to: directory.url.appendingPathComponent(requestName))
                expected.append(Self.json(request))
                let answerName = String(format: "%05d-answer", index + 1)
                try Data(answer.encoded(compression: compression)).write(
                    to: directory.url.appendingPathComponent(answerName))
                expected.append(Self.json(answer))
                index += 2
            }
        }
        let result = try Oracle.python3.run(["-c", Self.script, directory.url.path])
        XCTAssertEqual(result.status, 0, result.stderrText)
        let decoded = try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [Any])
        XCTAssertEqual(decoded.count, expected.count)
        for (i, (got, want)) in zip(decoded, expected).enumerated() {
            XCTAssertEqual(got as? NSDictionary, want as? NSDictionary, "message \(i)")
        }
    }

    static func json(_ value: SyncValue) -> Any {
        switch value {
        case .null: return NSNull()
        case .integer(let i): return ["i": "\(i)"]
        case .real(let r): return ["r": String(format: "%016llx", r.bitPattern)]
        case .text(let t): return ["t": t]
        case .blob(let b): return ["b": b.map { String(format: "%02x", $0) }.joined()]
        }
    }

    static func json(_ tables: [SyncTableColumns]) -> [Any] {
        tables.map { ["name": $0.name, "columns": $0.columns] }
    }

    static func json(_ content: SyncCellContent) -> [String: Any] {
        switch content {
        case .row(let exists): return ["row": exists ? "1" : "0"]
        case .value(let value): return ["value": json(value)]
        case .increment(let delta): return ["delta": "\(delta)"]
        }
    }

    static func json(_ request: SyncRequest) -> Any {
        var out: [String: Any] = [
            "device": request.device.description, "cursor": "\(request.cursor)",
            "clock": "\(request.clock)", "limit": "\(request.limit)",
        ]
        if let batch = request.batch {
            let rows = batch.rows.map { row -> [String: Any] in
                let cells = row.cells.map { cell -> [String: Any] in
                    ["column": "\(cell.column)", "hlc": "\(cell.hlc.rawValue)"].merging(json(cell.change)) { a, _ in a }
                }
                return ["table": "\(row.table)", "key": json(row.key), "cells": cells]
            }
            out["batch"] = ["id": "\(batch.id)", "tables": json(batch.tables), "rows": rows]
        }
        return out
    }

    static func json(_ answer: SyncAnswer) -> Any {
        [
            "clock": "\(answer.clock)", "batch": "\(answer.batch)",
            "status": "\(answer.status.rawValue)",
            "results": answer.results.map {
                [
                    "row": "\($0.row)", "column": "\($0.column)", "outcome": "\($0.outcome.rawValue)",
                    "server": json($0.server),
                ] as [String: Any]
            },
            "tables": json(answer.tables),
            "rows": answer.rows.map { row -> [String: Any] in
                let cells = row.cells.map { cell -> [String: Any] in
                    ["column": "\(cell.column)"].merging(json(cell.content)) { a, _ in a }
                }
                return ["table": "\(row.table)", "key": json(row.key), "cells": cells]
            },
            "cursor": "\(answer.cursor)", "hlc": "\(answer.hlc.rawValue)", "more": answer.more ? "1" : "0",
        ]
    }
}
