import FileSystemKit

/// Percent-encoding of role names and target paths as python-tuf does it (`urllib.parse.quote(name, "")`):
/// everything but ASCII letters, digits and `_.-~` is encoded, `/` included.
public enum URLQuoting {
    /// The encoded form of a name.
    public static func quote(_ name: String) -> String {
        var output = ""
        for byte in name.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "-"),
                UInt8(ascii: "~"):
                output.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789ABCDEF")
                output.append("%")
                output.append(digits[Int(byte >> 4)])
                output.append(digits[Int(byte & 0x0F)])
            }
        }
        return output
    }

    /// The file a role's document is kept in, `ROLE.json` (the name encoded), checked to be a name in a
    /// directory: the only way a role name from metadata names a file.
    ///
    /// - Throws: FileSystemKit's `CheckedNameError` (a name too long once encoded).
    package static func documentFileName(of role: String) throws -> PathComponent {
        try PathComponent(quote(role) + ".json")
    }
}
