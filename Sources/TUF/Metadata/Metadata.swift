#if canImport(FoundationEssentials) && os(Linux)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A signed TUF document: `{"signed": {...}, "signatures": [...]}`, with the canonical bytes of `signed`
/// (what the signatures are over) and its common header read.
public struct Metadata: Sendable {
    /// The name used in errors: `timestamp.json`, `3.root.json`, ...
    public let document: String
    /// `signed`, as received (unknown members kept).
    public let signed: JSONObject
    /// The signatures, each key id once.
    public let signatures: [Signature]
    /// The canonical JSON of `signed`: the bytes the signatures sign.
    public let canonicalSigned: Data
    /// `_type`, `version`, `spec_version` and `expires`.
    public let header: SignedHeader

    /// Reads a document: refuses more than `maximumBytes` before parsing, anything but JSON of the envelope's
    /// form, a key id signing twice, and a header of the wrong form.
    public init(data: Data, document: String, maximumBytes: Int = 5_000_000) throws {
        guard data.count <= maximumBytes else { throw TUFError.tooLarge(document: document, limit: maximumBytes) }
        let value: JSONValue
        do {
            value = try JSONParser(maximumBytes: maximumBytes).parse(data)
        } catch let error as JSONParseError {
            throw TUFError.malformed(document: document, reason: error.description)
        }
        let envelope = try JSONFieldReader(value, document: document, path: "")
        let signedReader = try envelope.object("signed")
        var signatures: [Signature] = []
        for (index, element) in try envelope.array("signatures").enumerated() {
            let signature = try Signature(json: element, document: document, path: "signatures[\(index)]")
            guard !signatures.contains(where: { $0.keyID == signature.keyID }) else {
                throw TUFError.malformed(document: document, reason: "key \(signature.keyID) signs twice")
            }
            signatures.append(signature)
        }
        self.document = document
        self.signed = signedReader.object
        self.signatures = signatures
        do {
            canonicalSigned = try CanonicalJSON.encode(.object(signedReader.object))
        } catch {
            throw TUFError.malformed(document: document, reason: "signed: \(error)")
        }
        header = try SignedHeader(signedReader)
    }

    /// Signs `signed` with each key and returns the document's bytes (canonical JSON), ready to publish.
    public static func sign(_ signed: JSONObject, with keys: [Ed25519SigningKey]) throws -> Data {
        let message = try CanonicalJSON.encode(.object(signed))
        let signatures = try keys.map { key -> JSONValue in
            .object(Signature(keyID: try key.publicKey.keyID, signature: try key.sign(message)).json)
        }
        return try CanonicalJSON.encode(
            .object(
                JSONObject([
                    ("signatures", .array(signatures)),
                    ("signed", .object(signed)),
                ])))
    }
}
