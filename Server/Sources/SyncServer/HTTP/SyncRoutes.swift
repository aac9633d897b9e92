import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import SyncProtocol

/// The sync server's routes on a Hummingbird router (docs/Sync.md, "The wire format"):
/// `POST /v1/sync` and `GET /v1/health`. Add them to an app's own router to run the sync inside
/// its server, or use ``SyncServerApplication``.
public enum SyncRoutes {
    /// The content type of requests and answers.
    public static let contentType = "application/x-shipyard-sync"
    /// The header every answer carries: the server's clock in milliseconds since 1970, so a
    /// device whose clock was refused corrects its offset.
    // swift-format-ignore: NeverForceUnwrap
    public static let clockHeader = HTTPField.Name("Shipyard-Sync-Clock")! // a valid token, fixed here
    /// The optional request header naming the space the device expects (403 when the token
    /// grants another).
    // swift-format-ignore: NeverForceUnwrap
    public static let spaceHeader = HTTPField.Name("Shipyard-Space")! // a valid token, fixed here

    /// The header an answer read from a streaming replica carries (`replica`); an answer from
    /// the primary has none.
    // swift-format-ignore: NeverForceUnwrap
    public static let readFromHeader = HTTPField.Name("Shipyard-Read-From")! // a valid token, fixed here

    /// Adds the routes for `service` to `router` (under its current path).
    public static func add<Context: RequestContext>(to router: Router<Context>, service: SyncService) {
        router.get("v1/health") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: "ok\n")))
        }
        router.post("v1/sync") { request, context in
            await respond(to: request, context: context, service: service)
        }
    }

    static func respond<Context: RequestContext>(to request: Request, context: Context, service: SyncService) async
        -> Response
    {
        var request = request
        do {
            let space = try await service.authorize(
                authorization: request.headers[.authorization], requestedSpace: request.headers[spaceHeader])
            let body: ByteBuffer
            do {
                body = try await request.collectBody(upTo: service.configuration.limits.bodyBytes)
            } catch is NIOTooManyBytesError {
                throw SyncServerError.tooLarge(
                    "request: more than the limit of \(service.configuration.limits.bodyBytes) bytes")
            }
            let (answer, fromReplica) = try await service.answerSayingWhere(space: space, body: Array(buffer: body))
            var headers: HTTPFields = [.contentType: contentType, clockHeader: "\(service.configuration.clock())"]
            if fromReplica { headers[readFromHeader] = "replica" }
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: answer)))
        } catch let error as SyncServerError {
            return refusal(error, service: service)
        } catch {
            // The database went away or failed: nothing was committed; the device retries.
            context.logger.error("sync: \(error)")
            return refusal(
                SyncServerError(status: 503, "the database is unavailable (\(type(of: error))); retry"),
                service: service)
        }
    }

    static func refusal(_ error: SyncServerError, service: SyncService) -> Response {
        Response(
            status: HTTPResponse.Status(code: error.status),
            headers: [.contentType: "text/plain; charset=utf-8", clockHeader: "\(service.configuration.clock())"],
            body: .init(
                byteBuffer: ByteBuffer(
                    string: "\(error)".split(whereSeparator: \.isNewline).joined(separator: " ") + "\n")))
    }
}
