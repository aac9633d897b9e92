/// One instruction of the program SQLite compiles a statement to, as `EXPLAIN` lists it: what
/// a statement will do, read from SQLite itself rather than from its SQL text.
///
/// The opcodes and the meaning of their operands are SQLite's (<https://sqlite.org/opcode.html>);
/// they are for decisions that SQLite's program settles exactly, such as which conflict
/// resolution a constraint check uses (`Halt`, `HaltIfNull`: P2) or whether an insert keeps
/// `sqlite_sequence` (`NewRowid`: P3).
package struct ProgramInstruction: Equatable, Sendable {
    /// The instruction's address in the program.
    package var address: Int64
    /// The opcode's name (`Halt`, `NewRowid`, …).
    package var opcode: String
    package var p1: Int64
    package var p2: Int64
    package var p3: Int64
    /// P4 as `EXPLAIN` shows it (nil when empty).
    package var p4: String?
    package var p5: Int64

    package init(address: Int64, opcode: String, p1: Int64, p2: Int64, p3: Int64, p4: String?, p5: Int64) {
        self.address = address
        self.opcode = opcode
        self.p1 = p1
        self.p2 = p2
        self.p3 = p3
        self.p4 = p4
        self.p5 = p5
    }
}

extension Connection {
    /// The program of the first statement of `sql`, compiled but not run (`EXPLAIN sql`).
    /// Parameters stay unbound: the program is the same whatever values they take.
    ///
    /// - Throws: ``SQLiteError`` when the statement does not compile.
    package func program(of sql: String) throws -> [ProgramInstruction] {
        let statement = try prepare("EXPLAIN " + sql)
        var instructions: [ProgramInstruction] = []
        while try statement.step() {
            func integer(_ column: Int32) -> Int64 {
                if case .integer(let value) = statement.column(column) { return value }
                return 0
            }
            var p4: String?
            if case .text(let text) = statement.column(5), !text.isEmpty { p4 = text }
            let opcode: String
            if case .text(let text) = statement.column(1) { opcode = text } else { opcode = "" }
            instructions.append(
                ProgramInstruction(
                    address: integer(0), opcode: opcode, p1: integer(2), p2: integer(3),
                    p3: integer(4), p4: p4, p5: integer(6)))
        }
        return instructions
    }
}
