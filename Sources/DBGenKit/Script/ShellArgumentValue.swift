/// How the sqlite3 3.40 shell reads the values of dot-command arguments: booleans
/// (`on`/`off`/`yes`/`no`/a number) and integers (decimal or `0x` hex, an optional sign and a
/// size suffix such as `KiB` or `M`).
enum ShellArgumentValue {
    /// The shell's `booleanValue`, or nil where the shell says "Not a boolean value" (and
    /// assumes "no").
    static func boolean(_ text: String) -> Bool? {
        let bytes = Array(text.utf8)
        let digits: Int
        if bytes.starts(with: Array("0x".utf8)) {
            digits = 2 + bytes.dropFirst(2).prefix { hexDigitValue($0) != nil }.count
        } else {
            digits = bytes.prefix { (0x30...0x39).contains($0) }.count
        }
        if digits > 0 && digits == bytes.count { return integer(text) & 0xFFFF_FFFF != 0 }
        switch text.lowercased() {
        case "on", "yes": return true
        case "off", "no": return false
        default: return nil
        }
    }

    /// The shell's `integerValue`: what it does not understand counts as 0 (`abc` is 0,
    /// `12abc` is 12), as in the shell.
    static func integer(_ text: String) -> Int64 {
        var bytes = Array(text.utf8)[...]
        var negative = false
        if bytes.first == UInt8(ascii: "-") {
            negative = true
            bytes = bytes.dropFirst()
        } else if bytes.first == UInt8(ascii: "+") {
            bytes = bytes.dropFirst()
        }
        var value: Int64 = 0
        if bytes.starts(with: Array("0x".utf8)) {
            bytes = bytes.dropFirst(2)
            while let first = bytes.first, let digit = hexDigitValue(first) {
                value = (value &<< 4) &+ Int64(digit)
                bytes = bytes.dropFirst()
            }
        } else {
            while let first = bytes.first, (0x30...0x39).contains(first) {
                value = value &* 10 &+ Int64(first - 0x30)
                bytes = bytes.dropFirst()
            }
        }
        let suffix = String(decoding: bytes, as: UTF8.self).lowercased()
        if let multiplier = multipliers.first(where: { $0.suffix.lowercased() == suffix })?.factor {
            value = value &* multiplier
        }
        return negative ? -value : value
    }

    private static let multipliers: [(suffix: String, factor: Int64)] = [
        ("KiB", 1024), ("MiB", 1024 * 1024), ("GiB", 1024 * 1024 * 1024),
        ("KB", 1000), ("MB", 1_000_000), ("GB", 1_000_000_000),
        ("K", 1000), ("M", 1_000_000), ("G", 1_000_000_000),
    ]

    private static func hexDigitValue(_ byte: UInt8) -> Int? {
        switch byte {
        case 0x30...0x39: return Int(byte - 0x30)
        case 0x61...0x66: return Int(byte - 0x61 + 10)
        case 0x41...0x46: return Int(byte - 0x41 + 10)
        default: return nil
        }
    }
}
