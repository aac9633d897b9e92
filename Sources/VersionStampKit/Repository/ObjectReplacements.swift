import CGit2
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

/// Replace refs and grafts, which change what git reads for an object, so every history answer
/// and HEAD's committer date follow them as git 2.39 does by default:
///
/// - A replace ref `refs/replace/X` pointing at Y (`git replace X Y`, `git replace --graft X
///   P...`): wherever git reads object X it reads Y's content, while X keeps its id (HEAD is
///   still X for `{sha}`; its parents, tree and date are Y's). Chains are followed, at most five
///   deep as git does. `GIT_NO_REPLACE_OBJECTS` (set to anything) or `core.useReplaceRefs=false`
///   turn them off; `GIT_REPLACE_REF_BASE` moves the namespace from `refs/replace/`.
/// - A graft (`COMMON_DIR/info/grafts`, or the file `GIT_GRAFT_FILE` names; lines
///   `COMMIT [PARENT...]`): the commit's parents are the listed ones, whatever its content or
///   replacement says. The first line for a commit wins; malformed lines are skipped, as git
///   skips them (with an error it prints). `GIT_NO_REPLACE_OBJECTS` leaves grafts in force.
///
/// ``entries`` names all of it, so that a history cache key made from them (`HistoryEngine`)
/// never serves an answer from before a `git replace` (or a grafts edit).
struct ObjectReplacements {
    /// Replaced objects and the object whose content is read instead (chains resolved).
    private(set) var objects: [ObjectID: ObjectID] = [:]
    /// Grafted commits and their parents.
    private(set) var grafts: [ObjectID: [ObjectID]] = [:]
    /// Every replacement and graft, one line each (`replace X Y`, `graft C P...`); empty when
    /// nothing is replaced or grafted.
    private(set) var entries: [String] = []

    /// git's `MAXREPLACEDEPTH`.
    static let maximumDepth = 5

    /// No replacement, no graft.
    init() {}

    /// The replace refs and grafts of `repository`, as `environment` enables and places them.
    init(repository: GitRepository, environment: [String: String]) throws {
        let disabled =
            environment["GIT_NO_REPLACE_OBJECTS"] != nil || repository.configBool("core.useReplaceRefs") == false
        if !disabled {
            let base = environment["GIT_REPLACE_REF_BASE"].flatMap { $0.isEmpty ? nil : $0 } ?? "refs/replace/"
            let direct = try Self.replaceReferences(in: repository, base: base)
            for (original, _) in direct {
                var target = original
                var depth = 0
                while let next = direct[target] {
                    depth += 1
                    if depth > Self.maximumDepth {
                        throw VersionStampError(
                            .gitFailure, path: repository.displayPath,
                            message:
                                "replace depth too high for object \(original.hex) (more than \(Self.maximumDepth) replace refs in a chain, "
                                + "which git refuses too); fix the chain under \(base), or set GIT_NO_REPLACE_OBJECTS=1"
                        )
                    }
                    target = next
                }
                objects[original] = target
            }
            entries += direct.map { "replace \($0.key.hex) \($0.value.hex)" }.sorted()
        }
        let graftFile =
            environment["GIT_GRAFT_FILE"].flatMap { $0.isEmpty ? nil : $0 }
            ?? repository.commonDirectory + "/info/grafts"
        if let text = try? String(contentsOfFile: graftFile, encoding: .utf8) {
            for line in text.split(separator: "\n") {
                guard !line.hasPrefix("#"), let (commit, parents) = Self.graft(line), grafts[commit] == nil else {
                    continue
                }
                grafts[commit] = parents
                entries.append("graft " + ([commit] + parents).map(\.hex).joined(separator: " "))
            }
        }
    }

    /// True when no object is replaced and no commit grafted.
    var isEmpty: Bool { objects.isEmpty && grafts.isEmpty }

    /// The object whose content git reads for `id`.
    @inline(__always)
    func content(of id: ObjectID) -> ObjectID {
        objects.isEmpty ? id : objects[id] ?? id
    }

    /// `COMMIT PARENT...`: ids separated by single spaces (trailing white space ignored, as
    /// git's `read_graft_line` trims it); nil for anything else.
    private static func graft(_ line: Substring) -> (ObjectID, [ObjectID])? {
        var line = line
        while let last = line.last, last.isWhitespace { line.removeLast() }
        let fields = line.split(separator: " ", omittingEmptySubsequences: false)
        guard let first = fields.first, let commit = ObjectID(hex: first) else { return nil }
        var parents: [ObjectID] = []
        for field in fields.dropFirst() {
            guard let parent = ObjectID(hex: field) else { return nil }
            parents.append(parent)
        }
        return (commit, parents)
    }

    /// The references under `base` whose remaining name is an object id, and what they point to.
    private static func replaceReferences(in repository: GitRepository, base: String) throws -> [ObjectID: ObjectID] {
        var found: [ObjectID: ObjectID] = [:]
        for (name, target) in try repository.references(under: base) {
            if let original = ObjectID(hex: name.dropFirst(base.count)) { found[original] = ObjectID(target) }
        }
        return found
    }
}
