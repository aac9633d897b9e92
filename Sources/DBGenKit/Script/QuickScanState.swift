/// The shell's `quickscan`: whether a line leaves us inside a quote or block comment, whether it
/// held any SQL text ("dark" characters) and whether it ended with a semicolon.
struct QuickScanState {
    /// The character that closes the open quote or comment (`*` for `*/`), or 0.
    var waitingFor: UInt8 = 0
    var hasDark = false
    var endsWithSemicolon = false

    var inPlain: Bool { waitingFor == 0 }
    var isPlainWhite: Bool { waitingFor == 0 && !hasDark }

    mutating func scan(_ line: [UInt8]) {
        var index = 0
        let count = line.count
        while index < count {
            let c = line[index]
            index += 1
            if waitingFor == 0 {
                if DotCommandTokenizer.isSpace(c) { continue }
                switch c {
                case UInt8(ascii: "-") where index < count && line[index] == UInt8(ascii: "-"):
                    return // the rest of the line is a comment
                case UInt8(ascii: ";"):
                    endsWithSemicolon = true
                    continue
                case UInt8(ascii: "/") where index < count && line[index] == UInt8(ascii: "*"):
                    index += 1
                    waitingFor = UInt8(ascii: "*")
                    continue
                case UInt8(ascii: "["):
                    waitingFor = UInt8(ascii: "]")
                    hasDark = true
                    endsWithSemicolon = false
                    continue
                case UInt8(ascii: "`"), UInt8(ascii: "'"), UInt8(ascii: "\""):
                    waitingFor = c
                    hasDark = true
                    endsWithSemicolon = false
                    continue
                default:
                    break
                }
                endsWithSemicolon = false
                hasDark = true
            } else if c == waitingFor {
                switch waitingFor {
                case UInt8(ascii: "*"):
                    if index < count && line[index] == UInt8(ascii: "/") {
                        index += 1
                        waitingFor = 0
                    }
                case UInt8(ascii: "]"):
                    waitingFor = 0
                default:
                    if index < count && line[index] == waitingFor {
                        index += 1 // doubled quote
                    } else {
                        waitingFor = 0
                    }
                }
            }
        }
    }
}
