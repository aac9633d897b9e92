/// What the caller of ``HTTPClient/send(_:to:)`` does with an answer: it sees the head, says
/// whether it wants the body, then receives the body's bytes as they arrive (never more than the
/// request's cap in all: a body that goes past it is handed on up to the cap, then the exchange
/// ends with ``HTTPTransferError/tooLarge(url:limit:)``).
///
/// The transport calls it from one thread or serial queue of its own, one call at a time, in
/// order: ``head(_:)`` once, then ``body(_:)`` for each piece. An error thrown from either ends
/// the transfer at once, and ``HTTPClient/send(_:to:)`` throws it as it was thrown.
public protocol HTTPResponseHandler: AnyObject {
    /// The answer's head: whether to receive its body. A redirect is followed, never shown here.
    func head(_ head: HTTPResponseHead) throws -> HTTPBodyDecision
    /// The next piece of the body, valid only during the call.
    func body(_ bytes: UnsafeRawBufferPointer) throws
}
