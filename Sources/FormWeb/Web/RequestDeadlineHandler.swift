import Logging
import NIOCore
import NIOHTTPTypes

/// Closes a connection whose request head or body is not received within its `RequestDeadlines`.
///
/// It sits after the HTTP decoder (`HTTP1Channel.Configuration.additionalChannelHandlers`), so it
/// sees whole heads, body parts and ends. The head's clock starts when the connection is ready for
/// a request: when it opens, and again when the last response due on it has been written. The
/// body's clock starts at the head; while the server handles a received request no clock runs.
final class RequestDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let deadlines: RequestDeadlines
    private let logger: Logger
    /// Whether a request's head has arrived and its end not yet.
    private var receivingBody = false
    private var bodyStart = NIODeadline.now()
    private var bodyBytes = 0
    /// Requests received whose response has not ended yet (more than one when pipelined).
    private var responsesDue = 0
    private var timer: Scheduled<Void>?

    init(deadlines: RequestDeadlines, logger: Logger) {
        self.deadlines = deadlines
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { rearm(context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancelTimer()
    }

    func channelActive(context: ChannelHandlerContext) {
        rearm(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancelTimer()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            receivingBody = true
            bodyStart = .now()
            bodyBytes = 0
            responsesDue += 1
            rearm(context)
        case .body(let buffer):
            bodyBytes += buffer.readableBytes
        case .end:
            receivingBody = false
            rearm(context)
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data), responsesDue > 0 {
            responsesDue -= 1
            rearm(context)
        }
        context.write(data, promise: promise)
    }

    /// Starts the clock that applies now: the body's while one is arriving, the head's when no
    /// response is due, none while the server works on a request.
    private func rearm(_ context: ChannelHandlerContext) {
        cancelTimer()
        if receivingBody {
            schedule(context, at: bodyDeadline)
        } else if responsesDue == 0 {
            let deadline = NIODeadline.now() + TimeAmount(deadlines.head)
            schedule(context, at: deadline) { [logger, deadlines] in
                logger.info("Closed a connection that sent no complete request head within \(deadlines.head)")
            }
        }
    }

    /// The body's start, its allowance and one second per `minBodyRate` bytes received so far.
    private var bodyDeadline: NIODeadline {
        let earned = deadlines.minBodyRate > 0 ? TimeAmount.seconds(Int64(bodyBytes / deadlines.minBodyRate)) : .zero
        return bodyStart + TimeAmount(deadlines.body) + earned
    }

    private func schedule(_ context: ChannelHandlerContext, at deadline: NIODeadline, onClose: (() -> Void)? = nil) {
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(deadline: deadline) {
            let (handler, context) = loopBound.value
            handler.timer = nil
            if handler.receivingBody {
                // The body may have earned more time since the clock was set.
                let deadline = handler.bodyDeadline
                if deadline > .now() {
                    handler.schedule(context, at: deadline)
                    return
                }
                handler.logger.info(
                    "Closed a connection whose request body took longer than allowed",
                    metadata: ["bytes": "\(handler.bodyBytes)"])
            } else {
                onClose?()
            }
            context.close(promise: nil)
        }
    }

    private func cancelTimer() {
        timer?.cancel()
        timer = nil
    }
}
