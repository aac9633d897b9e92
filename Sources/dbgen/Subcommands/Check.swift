import ArgumentParser

extension DBGenCommand {
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Not implemented yet.")
        func run() throws { throw ExitCode(2) }
    }
}
