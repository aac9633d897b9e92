/// One entry of a document's `signatures`: the key's id and the signature in hex.
public struct Signature: Equatable, Sendable {
    /// The id of the key that signed.
    public let keyID: String
    /// The signature, hex (may be empty: a key holder who has not signed).
    public let signature: String
    /// The entry as received.
    public let json: JSONObject

    /// An entry from a key id and a hex signature.
    public init(keyID: String, signature: String) {
        self.keyID = keyID
        self.signature = signature
        json = JSONObject([("keyid", .string(keyID)), ("sig", .string(signature))])
    }

    init(json value: JSONValue, document: String, path: String) throws {
        let reader = try JSONFieldReader(value, document: document, path: path)
        keyID = try reader.string("keyid")
        signature = try reader.string("sig")
        json = reader.object
    }
}
