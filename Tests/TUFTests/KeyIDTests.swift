import Foundation
import ShipyardTestSupport
import TUF
import XCTest

/// Key ids as python-tuf / securesystemslib compute them, for the key types the client verifies.
final class KeyIDTests: XCTestCase {
    func testKeyIDsArePythonTUFs() throws {
        let script = """
            import json
            from securesystemslib.signer import CryptoSigner
            keys = [CryptoSigner.generate_ed25519().public_key, CryptoSigner.generate_ecdsa().public_key]
            print(json.dumps([[k.keyid, k.to_dict()] for k in keys]))
            """
        let output = try JSONParser().parse(Data(try PythonTUF.run(script).utf8))
        guard case .array(let pairs) = output, pairs.count == 2 else { return XCTFail("\(output)") }
        for pair in pairs {
            guard case .array(let items) = pair, case .string(let keyID) = items[0] else { return XCTFail("\(pair)") }
            let key = try PublicKey(json: items[1], document: "python", path: "key")
            XCTAssertEqual(try key.keyID, keyID, key.keyType)
        }
    }

    func testSwiftKeyIDIsPythonTUFs() throws {
        let key = Ed25519SigningKey().publicKey
        let json = String(decoding: try CanonicalJSON.encode(.object(key.json)), as: UTF8.self)
        let script = """
            import json, sys
            from securesystemslib.signer import SSlibKey
            from securesystemslib.signer._utils import compute_default_keyid
            d = json.loads(sys.argv[1])
            print(compute_default_keyid(d["keytype"], d["scheme"], d["keyval"]))
            """
        XCTAssertEqual(try PythonTUF.run(script, [json]).trimmingCharacters(in: .whitespacesAndNewlines), try key.keyID)
    }
}
