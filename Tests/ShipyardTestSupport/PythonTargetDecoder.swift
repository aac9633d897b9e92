import Foundation

/// A feed target decoded by python3 alone: its own `bz2` or `zlib` module, then, for a packed
/// patch, an SQLPack unpacker written here from the format's description (not Shipyard's
/// code), so a test compares Shipyard's publisher and client with an independent reader.
public enum PythonTargetDecoder {
    /// The python program: `python3 -c SCRIPT BLOB COMPRESSION PACKING [sha256]` writes the
    /// decoded bytes (or their SHA-256 in hex) to standard output (PACKING empty: not packed);
    /// a malformed blob exits non-zero.
    public static let script = #"""
        import sys, bz2, hashlib, zlib

        def unpack(data):
            signature = b"\xf5sqlpack1\n"
            if not data.startswith(signature):
                sys.exit("no SQLPack signature")
            at = len(signature)
            words = []
            for _ in range(data[at]):
                length = data[at + 1]
                words.append(data[at + 2:at + 2 + length])
                at += 1 + length
            at += 1
            out, key = bytearray(), 0
            while at < len(data):
                byte = data[at]
                if byte == 0xF8:
                    out += words[data[at + 1]]
                    at += 2
                elif byte == 0xF9:
                    end = at + 1 + (data[at + 1:at + 2] == b"-")
                    while end < len(data) and data[end] in b"0123456789":
                        end += 1
                    key += int(data[at + 1:end])
                    out += str(key).encode()
                    at = end
                elif byte >= 0xF5:
                    sys.exit("reserved byte %d in the body" % byte)
                else:
                    out.append(byte)
                    at += 1
            return bytes(out)

        blob, compression, packing = sys.argv[1:4]
        data = {"bzip2": bz2, "zlib": zlib}[compression].decompress(open(blob, "rb").read())
        if packing == "sqlpack1":
            data = unpack(data)
        elif packing:
            sys.exit("unknown packing " + packing)
        if sys.argv[4:] == ["sha256"]:
            print(hashlib.sha256(data).hexdigest())
        else:
            sys.stdout.buffer.write(data)
        """#

    /// The bytes the target at `blob` stands for, decoded by python3 (`packing` nil: not packed).
    public static func decode(_ blob: String, compression: String, packing: String?) throws -> Data {
        let result = try Oracle.python3.run(["-c", script, blob, compression, packing ?? ""])
        guard result.status == 0 else { throw Refused(stderr: result.stderrText) }
        return result.stdout
    }

    /// The SHA-256 (hex) of what the target at `blob` stands for, decoded and hashed by python3.
    public static func sha256(_ blob: String, compression: String, packing: String?) throws -> String {
        let result = try Oracle.python3.run(["-c", script, blob, compression, packing ?? "", "sha256"])
        guard result.status == 0 else { throw Refused(stderr: result.stderrText) }
        return result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// python3 refused the blob.
    public struct Refused: Error, CustomStringConvertible {
        /// What python printed.
        public var stderr: String
        public var description: String { "python3 could not decode the target: \(stderr)" }
    }
}
