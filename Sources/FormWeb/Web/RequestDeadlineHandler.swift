import Logging
import NIOCore
import NIOHTTPTypes

/// Closes a connection whose request head or body is not received within its `RequestDeadlines`.
///
/// It sits after the HTTP decoder (`HTTP1Channel.Configuration.additionalChannelHandlers`), so it
/// sees whole heads, body parts and ends. The head's clock starts when the connection is ready for
/// a request: when it opens, and again when the last response due on it has been written. The
/// body's clock starts at the head; while the server handles a received request no clock runs.
///
/// The clock is a deadline the handler moves, not a timer it cancels and schedules again: a
/// request moves it three times, and a scheduled task each time (a heap insert and removal on
/// the event loop) cost as much as the rest of the 404 page. One timer per connection wakes at
/// the earliest deadline that may apply; when it finds the deadline moved on, it sleeps until then.
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
    /// The head's deadline while it applies (no request arriving, none being answered).
    private var headDeadline: NIODeadline?
    /// The pending timer and when it wakes.
    private var timer: (task: Scheduled<Void>, at: NIODeadline)?

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

    /// Moves the clock that applies now: the body's while one is arriving, the head's when no
    /// response is due, none while the server works on a request. The timer is scheduled again
    /// only when it would wake later than the new deadline.
    private func rearm(_ context: ChannelHandlerContext) {
        headDeadline = nil
        let deadline: NIODeadline
        if receivingBody {
            deadline = bodyDeadline
        } else if responsesDue == 0 {
            deadline = NIODeadline.now() + TimeAmount(deadlines.head)
            headDeadline = deadline
        } else {
            return
        }
        if let timer, timer.at <= deadline { return }
        cancelTimer()
        schedule(context, at: deadline)
    }

    /// The body's start, its allowance and one second per `minBodyRate` bytes received so far.
    private var bodyDeadline: NIODeadline {
        let earned = deadlines.minBodyRate > 0 ? TimeAmount.seconds(Int64(bodyBytes / deadlines.minBodyRate)) : .zero
        return bodyStart + TimeAmount(deadlines.body) + earned
    }

    /// The deadline that applies now, if any.
    private var currentDeadline: NIODeadline? {
        receivingBody ? bodyDeadline : headDeadline
    }

    private func schedule(_ context: ChannelHandlerContext, at deadline: NIODeadline) {
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        let task = context.eventLoop.scheduleTask(deadline: deadline) {
            let (handler, context) = loopBound.value
            handler.timer = nil
            // The server is answering a request: no clock runs; the answer's end moves it again.
            guard let deadline = handler.currentDeadline else { return }
            if deadline > .now() {
                handler.schedule(context, at: deadline)
                return
            }
            if handler.receivingBody {
                handler.logger.info(
                    "Closed a connection whose request body took longer than allowed",
                    metadata: ["bytes": "\(handler.bodyBytes)"])
            } else {
                handler.logger.info(
                    "Closed a connection that sent no complete request head within \(handler.deadlines.head)")
            }
            context.close(promise: nil)
        }
        timer = (task, deadline)
    }

    private func cancelTimer() {
        timer?.task.cancel()
        timer = nil
    }
}
