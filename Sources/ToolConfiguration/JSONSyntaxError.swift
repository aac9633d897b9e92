/// Where and why a text is not JSON (RFC 8259), for the message of a configuration file that
/// does not parse: FoundationEssentials' JSONDecoder says only that the data was not valid JSON.
struct JSONSyntaxError: Equatable {
    /// 1-based line and column (in bytes) of the first byte that cannot be read.
    var line: Int
    var column: Int
    /// What was wrong there, such as "unexpected end of the file".
    var problem: String

    /// The first syntax error in `bytes`, nil when they hold one JSON value (surrounded by white
    /// space) or the error is one this scanner does not look for.
    static func find(in bytes: [UInt8]) -> JSONSyntaxError? {
        var scanner = Scanner(bytes: bytes)
        do throws(JSONSyntaxError) {
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { scanner.index = 3 }
            try scanner.value(depth: 0)
            scanner.skipWhitespace()
            if scanner.index < bytes.count { throw scanner.failure("unexpected text after the JSON value") }
            return nil
        } catch {
            return error
        }
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        mutating func value(depth: Int) throws(JSONSyntaxError) {
            guard depth < 512 else { throw failure("nested too deeply") }
            skipWhitespace()
            guard index < bytes.count else { throw failure("unexpected end of the file") }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                try container(close: UInt8(ascii: "}"), depth: depth) { (scanner) throws(JSONSyntaxError) in
                    scanner.skipWhitespace()
                    guard scanner.index < scanner.bytes.count, scanner.bytes[scanner.index] == UInt8(ascii: "\"") else {
                        throw scanner.failure("expected a key in double quotes")
                    }
                    try scanner.string()
                    scanner.skipWhitespace()
                    try scanner.expect(UInt8(ascii: ":"), "expected ':' after the key")
                    try scanner.value(depth: depth + 1)
                }
            case UInt8(ascii: "["):
                try container(close: UInt8(ascii: "]"), depth: depth) { (scanner) throws(JSONSyntaxError) in
                    try scanner.value(depth: depth + 1)
                }
            case UInt8(ascii: "\""): try string()
            case UInt8(ascii: "t"): try literal("true")
            case UInt8(ascii: "f"): try literal("false")
            case UInt8(ascii: "n"): try literal("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
            default: throw failure("unexpected \(shown(bytes[index]))")
            }
        }

        /// An object or array: `element`s separated by commas up to `close`.
        mutating func container(
            close: UInt8, depth: Int, _ element: (inout Scanner) throws(JSONSyntaxError) -> Void
        ) throws(JSONSyntaxError) {
            index += 1
            skipWhitespace()
            if index < bytes.count, bytes[index] == close { index += 1; return }
            while true {
                try element(&self)
                skipWhitespace()
                guard index < bytes.count else { throw failure("unexpected end of the file") }
                if bytes[index] == close { index += 1; return }
                try expect(UInt8(ascii: ","), "expected ',' or '\(Character(Unicode.Scalar(close)))'")
                // A comma before the end, as Foundation's parsers allow.
                skipWhitespace()
                if index < bytes.count, bytes[index] == close { index += 1; return }
            }
        }

        mutating func string() throws(JSONSyntaxError) {
            index += 1
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") { index += 1; return }
                if byte < 0x20 { throw failure("a control character in a string (write it escaped)") }
                if byte == UInt8(ascii: "\\") {
                    index += 1
                    guard index < bytes.count else { break }
                    if bytes[index] == UInt8(ascii: "u") {
                        let digits = bytes[(index + 1)..<min(index + 5, bytes.count)]
                        guard digits.count == 4, digits.allSatisfy({ Character(Unicode.Scalar($0)).isHexDigit }) else {
                            throw failure("\\u must be followed by four hexadecimal digits")
                        }
                        index += 4
                    } else if !Array("\"\\/bfnrt".utf8).contains(bytes[index]) {
                        throw failure("unknown escape \\\(shown(bytes[index]))")
                    }
                }
                index += 1
            }
            throw failure("unexpected end of the file in a string")
        }

        mutating func number() throws(JSONSyntaxError) {
            func digits(_ scanner: inout Scanner) -> Int {
                let start = scanner.index
                while scanner.index < scanner.bytes.count, (0x30...0x39).contains(scanner.bytes[scanner.index]) {
                    scanner.index += 1
                }
                return scanner.index - start
            }
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            let integerStart = index
            let integerDigits = digits(&self)
            guard integerDigits > 0 else { throw failure("expected a digit") }
            if integerDigits > 1, bytes[integerStart] == UInt8(ascii: "0") {
                index = integerStart
                throw failure("a number with a leading zero")
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard digits(&self) > 0 else { throw failure("expected a digit after '.'") }
            }
            if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                    index += 1
                }
                guard digits(&self) > 0 else { throw failure("expected a digit in the exponent") }
            }
        }

        mutating func literal(_ word: String) throws(JSONSyntaxError) {
            let expected = Array(word.utf8)
            guard bytes[index...].starts(with: expected) else { throw failure("unexpected \(shown(bytes[index]))") }
            index += expected.count
        }

        mutating func expect(_ byte: UInt8, _ problem: String) throws(JSONSyntaxError) {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == byte else {
                throw failure(index < bytes.count ? problem : "unexpected end of the file")
            }
            index += 1
        }

        mutating func skipWhitespace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        func shown(_ byte: UInt8) -> String {
            (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
        }

        /// The error at the current byte.
        func failure(_ problem: String) -> JSONSyntaxError {
            let before = bytes[..<min(index, bytes.count)]
            let line = before.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
            let column = index - (before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0) + 1
            return JSONSyntaxError(line: line, column: column, problem: problem)
        }
    }
}

extension JSONSyntaxError: Error {}
