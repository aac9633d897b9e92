// tuf-client: the client-under-test CLI of the TUF conformance suite (CLIENT-CLI.md of
// theupdateframework/tuf-conformance), over TUF's Updater and FeedClient's HTTPFetcher (async: top-level
// code awaits them). No logic here.
import FeedClient
import Foundation
import TUF

let usage = """
    usage: tuf-client --metadata-dir DIR init TRUSTED_ROOT
           tuf-client --metadata-dir DIR --metadata-url URL refresh
           tuf-client --metadata-dir DIR --metadata-url URL --target-name PATH... --target-base-url URL \
    --target-dir DIR download
    """

struct Arguments {
    var options: [String: [String]] = [:]
    var positional: [String] = []
    var verbose = false

    init(_ arguments: [String]) throws {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            if argument == "-v" || argument == "--verbose" {
                verbose = true
            } else if argument.hasPrefix("--") {
                guard let value = iterator.next() else { throw CLIError("\(argument) needs a value") }
                options[argument, default: []].append(value)
            } else {
                positional.append(argument)
            }
        }
    }

    func one(_ name: String) throws -> String {
        guard let values = options[name], values.count == 1 else { throw CLIError("\(name) is required once") }
        return values[0]
    }

    func url(_ name: String) throws -> URL {
        let text = try one(name)
        guard let url = URL(string: text) else { throw CLIError("\(name): \(text) is not a URL") }
        return url
    }
}

struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

func run(_ arguments: Arguments) async throws {
    let metadataDirectory = URL(fileURLWithPath: try arguments.one("--metadata-dir"))
    let log: (String) -> Void = { line in
        if arguments.verbose { FileHandle.standardError.write(Data("tuf-client: \(line)\n".utf8)) }
    }
    func updater(targetBaseURL: URL? = nil) throws -> Updater {
        try Updater(
            metadataDirectory: metadataDirectory, metadataBaseURL: try arguments.url("--metadata-url"),
            targetBaseURL: targetBaseURL, fetcher: HTTPFetcher(), log: log
        )
    }
    switch arguments.positional.first {
    case "init":
        guard arguments.positional.count == 2 else { throw CLIError(usage) }
        let root = try Data(contentsOf: URL(fileURLWithPath: arguments.positional[1]))
        try MetadataStore(directory: metadataDirectory).store(root, for: "root")
    case "refresh":
        try await updater().refresh()
    case "download":
        let targetDirectory = URL(fileURLWithPath: try arguments.one("--target-dir"))
        let client = try updater(targetBaseURL: try arguments.url("--target-base-url"))
        for name in arguments.options["--target-name"] ?? [] {
            guard let target = try await client.targetInfo(for: name) else {
                throw TUFError.targetNotFound(path: name)
            }
            if client.cachedTarget(target, in: targetDirectory) == nil {
                try await client.download(target, to: targetDirectory)
            } else {
                log("\(name) is already downloaded")
            }
        }
    default:
        throw CLIError(usage)
    }
}

do {
    try await run(try Arguments(Array(CommandLine.arguments.dropFirst())))
    exit(0)
} catch {
    FileHandle.standardError.write(Data("tuf-client: error: \(error)\n".utf8))
    exit(1)
}
