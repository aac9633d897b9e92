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
import EssentialsSupport

/// Everything a `versionstamp stamp` run would change, computed before anything is written.
///
/// All files are planned first; when any of them fails (malformed plist, missing key, App
/// Store rule, …) nothing at all is written, so a build never ends up half-stamped.
public struct StampPlan {
    /// A file whose content changes.
    public struct Update {
        /// The file to write.
        public var path: String
        /// Its new content.
        public var contents: Data
        /// The plist strings that change (empty for a generated file).
        public var changes: [PlistChange]
        /// True for a `--swift`/`--json`/`--xcconfig` output.
        public var isGenerated: Bool
        /// The plist that was read and stamped when it is not `path` (`--output`), else nil.
        public var source: String?
    }

    /// The files that would change, in the order given (plists first, then generated files).
    public var updates: [Update] = []
    /// The errors found; when not empty the plan must not be written.
    public var errors: [VersionStampError] = []

    /// Plans `options` for the version `context` describes.
    public init(options: StampOptions, context: VersionContext) {
        // A bad format is one error, not one per file.
        do {
            try Self.validateFormats(of: options)
        } catch let error as VersionStampError {
            errors.append(error)
            return
        } catch {
            errors.append(VersionStampError(.internalError, message: "\(error)"))
            return
        }
        if options.output != nil && options.plists.count != 1 {
            errors.append(
                VersionStampError(
                    .usage,
                    message: "--output takes exactly one PLIST to read (the source), "
                        + "and \(options.plists.count) were given; stamp each file with its own --output"))
            return
        }
        for path in options.plists {
            do {
                if let update = try Self.plan(plist: path, output: options.output, options: options, context: context) {
                    updates.append(update)
                }
            } catch let error as VersionStampError {
                errors.append(error)
            } catch {
                errors.append(VersionStampError(.internalError, path: path, message: "\(error)"))
            }
        }
        if !options.generatedFiles.isEmpty {
            planGeneratedFiles(options, context: context)
        }
    }

    /// Parses `--format` and every `--set` format, so an unknown token is reported once.
    private static func validateFormats(of options: StampOptions) throws {
        if let format = options.format { _ = try VersionFormat(format) }
        if case let .assignments(assignments) = options.mode {
            for format in assignments.compactMap(\.format) { _ = try VersionFormat(format) }
        }
    }

    /// The update of one plist, or with `output` of the file its stamped content goes to; nil
    /// when the file to write already holds that content.
    private static func plan(plist path: String, output: String?, options: StampOptions, context: VersionContext) throws
        -> Update?
    {
        guard let data = FileManager.default.contents(atPath: path) else {
            let isDirectory = FileManager.default.isDirectory(atPath: path)
            throw VersionStampError(
                .fileAccess, path: path,
                message: isDirectory == true
                    ? "is a directory, not a plist" : isDirectory != nil ? "cannot read the file" : "no such file")
        }
        let document = try PlistDocument(data: data, path: path)
        let result = try PlistStamper.stamp(
            document, mode: options.mode, format: options.format,
            context: context, dirtyMarker: options.dirtyMarker, force: options.force)
        guard let output else {
            guard result.contents != data else { return nil }
            return Update(path: path, contents: result.contents, changes: result.changes, isGenerated: false)
        }
        guard FileManager.default.contents(atPath: output) != result.contents else { return nil }
        return Update(
            path: output, contents: result.contents, changes: result.changes, isGenerated: false, source: path)
    }

    /// Plans the `--swift`, `--json` and `--xcconfig` outputs.
    private mutating func planGeneratedFiles(_ options: StampOptions, context: VersionContext) {
        do {
            let version = try context.render(
                options.format ?? StampMode.defaultKeyFormat, dirtyMarker: options.dirtyMarker)
            // Read the revision once for all generated files.
            let context = VersionContext(revision: try context.revision(.all), override: context.override)
            for kind in GeneratedVersionFile.allCases {
                guard let path = options.generatedFiles[kind] else { continue }
                do {
                    let contents = Data(try kind.contents(version: version, context: context).utf8)
                    if FileManager.default.contents(atPath: path) != contents {
                        updates.append(
                            Update(path: path, contents: contents, changes: [], isGenerated: true, source: nil))
                    }
                } catch var error as VersionStampError {
                    if error.path == nil { error.path = path }
                    errors.append(error)
                }
            }
        } catch let error as VersionStampError {
            errors.append(error)
        } catch {
            errors.append(VersionStampError(.internalError, message: "\(error)"))
        }
    }

    /// True when some file would change.
    public var hasChanges: Bool { !updates.isEmpty }

    /// One line per change: `PATH:LINE: KEYPATH: "old" → "new"` for plist strings (PATH being
    /// the file written, the `--output` file included), `PATH: updated` (or `would be
    /// updated`) for a generated file or an output whose strings were already stamped.
    public func reportLines(written: Bool) -> [String] {
        updates.flatMap { update -> [String] in
            if update.changes.isEmpty {
                return ["\(update.path): \(written ? "updated" : "would be updated")"]
            }
            return update.changes.map { change in
                let location = change.line.map { "\(update.path):\($0)" } ?? update.path
                return
                    "\(location): \(change.keyPath): \(change.oldValue.quotedForReport) → \(change.newValue.quotedForReport)"
            }
        }
    }

    /// The last line of a dry run, which writes nothing: `dry run: nothing written (2 files
    /// would change)`, so its output never reads as a real run's.
    public var dryRunSummary: String {
        let files = updates.isEmpty ? "no file" : updates.count == 1 ? "1 file" : "\(updates.count) files"
        return "dry run: nothing written (\(files) would change)"
    }

    /// Writes every update atomically and durably: each file's new content goes to a temporary
    /// file beside it (`.NAME.versionstamp-XXXXXX`), synced, renamed over it. A file keeps its
    /// permissions, a symbolic link is followed, and on any failure the file is as it was. A
    /// rewritten file's modification time is in a later whole second than the old file's
    /// (waiting up to a second when the old one was written in this second): swift-driver
    /// compares a source's time to the second, and would otherwise keep the old
    /// `BuildVersion.swift` compiled when two builds rewrite it within one second.
    /// Call only when ``errors`` is empty.
    public func write() throws {
        precondition(errors.isEmpty, "a plan with errors must not be written")
        for update in updates {
            do {
                try AtomicFile.replace(update.path, with: update.contents, tag: "versionstamp", laterSecond: true)
            } catch let error as FileSystemError {
                let message: String
                switch error.operation {
                case .createTemporary: message = "cannot create a temporary file beside it: \(error.reason)"
                case .rename: message = "cannot replace the file: \(error.reason)"
                default: message = "cannot write: \(error.reason)"
                }
                throw VersionStampError(.writeFailed, path: update.path, message: message)
            }
        }
    }
}
