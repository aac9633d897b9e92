import ArgumentParser

extension VersionStampCommand {
    struct Print: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Not implemented yet.")
        func run() throws { throw ExitCode(2) }
    }
}
