import Foundation
import ShipyardTestSupport
import XCTest

/// A seeded random history written with git fast-import: several branches, merges (some
/// TREESAME to one parent, some octopus, some of an ancestor), several root commits, empty
/// commits, deletions and mode changes spread over directories, committer dates that repeat
/// and go backwards (git's walks order by date, so ties and skew matter), and tags of several
/// families: annotated `vX.Y.Z` (some prerelease, some sharing a commit), lightweight
/// `release-X.Y-rcN` and `docs-N`.
struct RandomHistory {
    static let directories = ["app", "lib/core", "lib/net", "docs", "tools"]

    private var random: SeededGenerator
    private var stream = ""
    private var trees: [[String: String]] = [[:]] // by mark; mark 0 is unused
    private var heads: [Int?] = [nil, nil, nil, nil]
    private var time = 1_700_000_000
    private var tagCount = 0

    init(seed: UInt64) {
        random = SeededGenerator(seed: seed)
    }

    /// Writes `commits` commits into `repo` (an empty repository) and checks out branch b0.
    static func build(in repo: RevisionTestRepository, seed: UInt64, commits: Int) throws {
        var history = RandomHistory(seed: seed)
        for _ in 0..<commits { history.addCommit() }
        try repo.git("fast-import", "--quiet", stdin: Data(history.stream.utf8))
        try repo.git("checkout", "-q", "-f", "b0")
    }

    private mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &random) < p }
    private mutating func pick(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }

    private mutating func addCommit() {
        let mark = trees.count
        let branch = chance(0.55) ? 0 : pick(1...3)
        var parents: [Int] = []
        if let head = heads[branch], !chance(0.02) { parents.append(head) }
        let others = heads.indices.compactMap { $0 != branch ? heads[$0] : nil }
        if !parents.isEmpty && !others.isEmpty && chance(0.25) {
            parents.append(others[pick(0...(others.count - 1))])
            if chance(0.15), let third = others.first(where: { !parents.contains($0) }) { parents.append(third) }
            let older = pick(1...(mark - 1)) // maybe an ancestor
            if chance(0.1) && !parents.contains(older) { parents.append(older) }
        }
        var files = parents.first.map { trees[$0] } ?? [:]
        if parents.count > 1 { mergeTree(&files, parents) } else { change(&files, mark) }
        trees.append(files)
        heads[branch] = mark
        writeCommit(mark, branch: branch, parents: parents, files: files)
        if chance(0.12) { writeTags(mark) }
    }

    /// A merge's tree: the first parent's, with another parent's directory or whole tree.
    private mutating func mergeTree(_ files: inout [String: String], _ parents: [Int]) {
        let other = trees[parents[1]]
        switch pick(0...3) {
        case 0: break // TREESAME to the first parent
        case 1: files = other // TREESAME to the second parent
        default:
            let directory = Self.directories[pick(0...(Self.directories.count - 1))]
            for (path, content) in other where path.hasPrefix(directory + "/") { files[path] = content }
            if chance(0.3) { files["app/merge.txt"] = "merged \(parents)\n" }
        }
    }

    private mutating func change(_ files: inout [String: String], _ mark: Int) {
        if chance(0.08) { return } // an empty commit
        for _ in 0..<pick(1...2) {
            let directory = Self.directories[pick(0...(Self.directories.count - 1))]
            let path = "\(directory)/f\(pick(0...5)).txt"
            if chance(0.1) && files[path] != nil {
                files[path] = nil
            } else if chance(0.08), let content = files[path] {
                files[path] = content.hasPrefix("x:") ? String(content.dropFirst(2)) : "x:" + content
            } else {
                files[path] = "c\(mark) \(pick(0...3))\n"
            }
        }
    }

    private mutating func writeCommit(_ mark: Int, branch: Int, parents: [Int], files: [String: String]) {
        time += [0, 0, 60, 600, -900][pick(0...4)]
        if parents.isEmpty { stream += "reset refs/heads/b\(branch)\n\n" }
        stream += "commit refs/heads/b\(branch)\nmark :\(mark)\n"
        stream +=
            "committer Random <random@example.com> \(time) +0000\ndata 10\ncommit \(String(format: "%03d", mark % 1000))\n"
        if let first = parents.first { stream += "from :\(first)\n" }
        for other in parents.dropFirst() { stream += "merge :\(other)\n" }
        stream += "deleteall\n"
        for (path, content) in files.sorted(by: { $0.key < $1.key }) {
            // "x:" marks an executable file: a mode change without a content change.
            let mode = content.hasPrefix("x:") ? "100755" : "100644"
            let body = content.hasPrefix("x:") ? String(content.dropFirst(2)) : content
            stream += "M \(mode) inline \(path)\ndata \(body.utf8.count)\n\(body)\n"
        }
        stream += "\n"
    }

    private mutating func writeTags(_ mark: Int) {
        tagCount += 1
        let n = tagCount
        switch pick(0...4) {
        case 0, 1:
            let suffix = chance(0.3) ? "-beta.\(pick(1...3))" : ""
            annotated("v\(n / 10).\(n % 10).\(pick(0...2))\(suffix)", mark)
            if chance(0.3) { annotated("v\(n / 10).\(n % 10).9-twin", mark) }
        case 2: lightweight("release-\(n / 10).\(n % 10)-rc\(pick(1...3))", mark)
        case 3: lightweight("docs-\(n)", mark)
        default:
            lightweight("docs-\(n)", mark)
            annotated("v\(n / 10).\(n % 10).0", mark)
        }
    }

    private mutating func annotated(_ name: String, _ mark: Int) {
        let date = time + [0, 0, 5, -5][pick(0...3)]
        stream += "tag \(name)\nfrom :\(mark)\ntagger Random <random@example.com> \(date) +0000\ndata 4\ntag\n\n"
    }

    private mutating func lightweight(_ name: String, _ mark: Int) {
        stream += "reset refs/tags/\(name)\nfrom :\(mark)\n\n"
    }
}
