/// Whether the body of an answer is wanted.
public enum HTTPBodyDecision: Sendable {
    /// Receive it (under the request's cap; an answer compressed with a `Content-Encoding` is refused).
    case receive
    /// End the exchange here: the head is all that is needed (a 304, a status that is an error).
    case skip
}
