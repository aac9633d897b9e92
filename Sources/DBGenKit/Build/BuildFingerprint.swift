import FileSystemKit
#if canImport(FoundationEssentials) && os(Linux)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SQLiteCore
import EssentialsSupport

/// What a build depended on: every input's identity (path, size, mtime in ns, inode), the
/// output's identity right after it was written, dbgen's and sqlite3's versions and the options
/// that change the output. Stored where ``FingerprintStore`` says (beside the depfile or in a
/// cache directory, never beside the output); when the current state matches, the build is up
/// to date and nothing is read or written.
struct BuildFingerprint: Codable, Equatable, Sendable {
    var dbgenVersion: String
    var sqliteVersion: String
    var options: [String]
    var schema: String
    /// The absolute output path this fingerprint describes.
    var outputPath: String
    var inputs: [InputFile]
    var output: FileStamp?
    /// The new temporary database's stamp when the build began, before it read any input: its
    /// modification time is the file system's clock at that moment. An input modified at or
    /// after it (in the same timestamp tick, ~4 ms on Linux's ext4) could have changed again
    /// after it was read without changing its stat data, so it makes the next build run.
    var started: FileStamp?
    var summary: BuildSummary

    /// The stored fingerprint at `path` (see ``FingerprintStore``), or nil when there is none
    /// or it cannot be decoded (written by another dbgen version, damaged): either way the
    /// build is not known to be up to date, so it runs, and writes a new fingerprint.
    static func load(from path: String) -> BuildFingerprint? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try? JSONDecoder().decode(BuildFingerprint.self, from: data)
    }

    /// True when this fingerprint was recorded for `schema` with `options` and no input nor the
    /// output has changed since (by stat only).
    func isCurrent(schema: String, outputPath path: String, options: [String]) -> Bool {
        guard dbgenVersion == DBGenKit.version, sqliteVersion == SQLiteLibrary.sourceID, outputPath == path,
            self.options == options, self.schema == schema,
            let output, let outputNow = FileStamp.of(outputPath), outputNow == output
        else { return false }
        // An input recorded as missing (readfile of a file that did not exist) is current
        // while it is still missing.
        for input in inputs where FileStamp.of(input.path) != input.stamp { return false }
        // A racily clean input (modified no earlier than the build began) proves nothing.
        guard let started else { return false }
        return !inputs.contains { $0.stamp?.isModified(atOrAfter: started) ?? false }
    }

    /// Writes the record atomically and durably at `path`, creating its directory if needed.
    func save(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try FileManager.default.createDirectory(
            atPath: PathText.deletingLastComponent(path), withIntermediateDirectories: true)
        try AtomicFile.replace(path, with: try encoder.encode(self), tag: "dbgen")
    }
}

/// Where a build keeps its up-to-date record (``BuildFingerprint``): never in the output's
/// directory, which is often a resources folder an app ships (an Xcode folder reference or a
/// SwiftPM `.copy` resource would ship the record too, and `git status` would show it).
///
/// - With a depfile: beside it, as `.DEPFILE-NAME.dbgen-fingerprint` (the depfile already
///   lives with the build's bookkeeping).
/// - Otherwise in ``BuildOptions/cacheDirectory``, one file per output path; with neither,
///   no record is kept and every build runs.
///
/// Losing the record is harmless: the next build simply runs.
enum FingerprintStore {
    /// The record's path for the build of `output` (absolute), or nil when there is nowhere
    /// to keep it.
    static func path(forOutput output: String, depfile: String?, cacheDirectory: String?) -> String? {
        if let depfile {
            let directory = PathText.deletingLastComponent(depfile)
            return PathText.appending(".\(PathText.lastComponent(depfile)).dbgen-fingerprint", to: directory)
        }
        guard let cacheDirectory else { return nil }
        let name = PathText.lastComponent(output)
        return PathText.appending("\(name)-\(hash(output)).dbgen-fingerprint", to: cacheDirectory)
    }

    /// FNV-1a (64 bits) of the path, in hex: a stable file name per output path (the record
    /// itself names the output it describes, so a collision only costs a rebuild).
    static func hash(_ text: String) -> String {
        String(ContentHash.fnv1a(text), radix: 16)
    }
}

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
