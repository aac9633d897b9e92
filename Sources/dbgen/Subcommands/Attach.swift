import ArgumentParser

extension DBGenCommand {
    struct Attach: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Not implemented yet.")
        func run() throws { throw ExitCode(2) }
    }
}
