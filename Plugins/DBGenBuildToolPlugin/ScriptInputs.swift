import Foundation
import PackagePlugin

/// The files a schema script reads: the script, and recursively every existing file named by
/// its `.import FILE TABLE` and `.read FILE` lines, resolved against the directory of the
/// script that names them (dbgen's rule).
///
/// This is a deliberately minimal scan, only to tell the build system when to rebuild: it
/// recognises the two commands spelled in full at the very start of a line (the shell's rule), skips `.import`
/// options (`--csv`, `--skip N`, `--schema S`, …) and pipes (`|cmd`, which dbgen rejects), and
/// leaves out files that do not exist (dbgen reports those, with the script's line).
enum ScriptInputs {
    static func files(readBy script: Path) -> [Path] {
        var found: [Path] = []
        var visited: Set<String> = []
        collect(script, into: &found, visited: &visited)
        return found
    }

    private static func collect(_ script: Path, into found: inout [Path], visited: inout Set<String>) {
        guard visited.insert(script.string).inserted else { return }
        found.append(script)
        guard let text = try? String(contentsOfFile: script.string, encoding: .utf8) else { return }
        let directory = script.removingLastComponent()
        for line in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            guard line.hasPrefix(".") else { continue }  // the shell reads dot-commands only at column 1
            let words = arguments(of: line[...])
            guard let command = words.first, let file = fileArgument(command: command, words.dropFirst()),
                  !file.hasPrefix("|")
            else { continue }
            let path = file.hasPrefix("/") ? Path(file) : directory.appending(file)
            guard FileManager.default.fileExists(atPath: path.string) else { continue }
            if command == ".read" {
                collect(path, into: &found, visited: &visited)
            } else if visited.insert(path.string).inserted {
                found.append(path)
            }
        }
    }

    /// The file named by `.import [OPTIONS] FILE TABLE` or `.read FILE`; nil for other lines.
    private static func fileArgument(command: String, _ words: ArraySlice<String>) -> String? {
        switch command {
        case ".read":
            return words.first
        case ".import":
            var rest = words[...]
            while let word = rest.first, word.hasPrefix("-") {
                rest = rest.dropFirst(word == "--skip" || word == "--schema" ? 2 : 1)
            }
            return rest.first
        default:
            return nil
        }
    }

    /// Splits a dot-command line into words as the sqlite3 shell does: whitespace separates,
    /// `"…"` (with backslash escapes) and `'…'` quote.
    private static func arguments(of line: Substring) -> [String] {
        var words: [String] = []
        var index = line.startIndex
        while index < line.endIndex {
            let character = line[index]
            if character == " " || character == "\t" {
                index = line.index(after: index)
                continue
            }
            var word = ""
            if character == "\"" || character == "'" {
                index = line.index(after: index)
                while index < line.endIndex, line[index] != character {
                    if character == "\"", line[index] == "\\", line.index(after: index) < line.endIndex {
                        index = line.index(after: index)
                    }
                    word.append(line[index])
                    index = line.index(after: index)
                }
                if index < line.endIndex { index = line.index(after: index) }
            } else {
                while index < line.endIndex, line[index] != " ", line[index] != "\t" {
                    word.append(line[index])
                    index = line.index(after: index)
                }
            }
            words.append(word)
        }
        return words
    }
}
