import Foundation
import JWTKit

/// The claims a sync token carries (docs/Sync.md, "Auth"): `sub` (the user, required), `exp`
/// (required), `nbf` and `iat` (checked when present), `space` (a shared space the token grants).
struct SyncClaims: JWTPayload {
    var sub: SubjectClaim
    var exp: ExpirationClaim
    var nbf: NotBeforeClaim?
    var iat: IssuedAtClaim?
    var space: String?

    /// The times are checked by ``TokenVerifier`` with the server's clock and leeway.
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
