import ArgumentParser

extension VersionStampCommand {
    struct Stamp: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Not implemented yet.")
        func run() throws { throw ExitCode(2) }
    }
}
