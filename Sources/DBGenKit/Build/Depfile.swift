import FileSystemKit
import Foundation

/// A Makefile-style dependency file: `OUTPUT: input1 input2 …`, as make and ninja read them.
enum Depfile {
    /// The depfile text for `target` depending on `inputs`.
    static func contents(target: String, inputs: [String]) -> String {
        let escapedInputs = inputs.map(escape).joined(separator: " \\\n  ")
        return "\(escape(target)):" + (inputs.isEmpty ? "" : " \(escapedInputs)") + "\n"
    }

    /// Escapes a path for make: spaces and `#` with a backslash, `$` doubled.
    static func escape(_ path: String) -> String {
        var result = ""
        for character in path {
            switch character {
            case " ": result += "\\ "
            case "#": result += "\\#"
            case "$": result += "$$"
            default: result.append(character)
            }
        }
        return result
    }

    /// Writes the depfile atomically, unless it already holds exactly this text.
    static func write(target: String, inputs: [String], to path: String) throws {
        let text = contents(target: target, inputs: inputs)
        if let existing = FileManager.default.contents(atPath: path), existing == Data(text.utf8) { return }
        do {
            try AtomicFile.replace(path, with: Data(text.utf8), tag: "dbgen")
        } catch let error as FileSystemError {
            throw DBGenError(.output, "cannot write \"\(path)\": \(error.reason)")
        }
    }
}
