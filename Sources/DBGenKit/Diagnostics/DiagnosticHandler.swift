/// Receives warnings as they happen; throwing from it (as `--strict` does) stops the run.
typealias DiagnosticHandler = (Diagnostic) throws -> Void
