// shipyard-bench: what the benchmark scripts time that no command of the tools isolates. Not a
// product and not installed: scripts/bench-sha256.sh builds and runs it.
//
//   shipyard-bench sha256 FILE [portable|cpu]   prints the file's SHA-256 (FileSystemKit's, read
//                                               in its 1 MiB pieces) with the compression named,
//                                               or the fastest this machine has
import FileSystemKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

func fail(_ message: String) -> Never {
    fputs("shipyard-bench: error: \(message)\n", stderr)
    exit(1)
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.first == "sha256", arguments.count == 2 || arguments.count == 3 else {
    fail("usage: shipyard-bench sha256 FILE [portable|cpu]")
}
let path = arguments[arguments.startIndex + 1]
var compression = SHA256Compression.fastest
if arguments.count == 3 {
    switch arguments[arguments.startIndex + 2] {
    case "portable": compression = .portable
    case "cpu":
        guard SHA256Compression.hasCPUInstructions else { fail("this CPU has no SHA instructions") }
        compression = .cpuInstructions
    default: fail("the compression is portable or cpu")
    }
}
var hasher = SHA256Hasher(compression: compression)
do {
    try ContentHash.forEachChunk(ofFileAt: path) { hasher.update($0) }
} catch {
    fail("\(error)")
}
let digits = Array("0123456789abcdef")
print(String(hasher.finalize().flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0f)]] }))
