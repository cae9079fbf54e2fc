import FormPages
import FormStore
import Foundation

extension WebhookSection {
    /// The add form as sent: its URL, events and what was wrong with them.
    struct Entered {
        var url = ""
        var events: [String] = WebhookEventType.allCases.map(\.rawValue)
        var errors: [String: String] = [:]

        init() {}

        init(fields: [String: [String]]) {
            url = (fields["url"]?.first ?? "").trimmingCharacters(in: .whitespaces)
            events = fields["events"] ?? []
        }
    }

    /// The section of a form's endpoints, with the add form as sent after a refusal, or with the
    /// endpoint just added and its secret.
    init(
        formID: String, endpoints: [(webhook: StoredWebhook, deliveries: [WebhookDelivery])], entered: Entered?,
        created: (url: String, secret: String)?
    ) {
        let entered = entered ?? Entered()
        self.init(
            formID: PageText(formID),
            endpoints: endpoints.map { webhook, deliveries in
                Endpoint(
                    endpointID: webhook.id.uuidString.lowercased(), url: PageText(webhook.url),
                    events: webhook.events.map(\.rawValue).joined(separator: ", "),
                    added: (webhook.createdAt.map(AdminPage.timestamp) ?? "")
                        + (webhook.createdBy.map { " by \($0)" } ?? ""),
                    deliveries: deliveries.map { Self.delivery($0, formID: formID) })
            },
            created: created.map { Created(url: PageText($0.url), secret: PageText($0.secret)) },
            url: PageText(entered.url), urlError: PageText(entered.errors["url"]),
            eventsError: PageText(entered.errors["events"]),
            eventChoices: WebhookEventType.allCases.map { type in
                Choice(event: type.rawValue, checked: entered.events.contains(type.rawValue))
            })
    }

    private static func delivery(_ delivery: WebhookDelivery, formID: String) -> Delivery {
        let answer: String
        if let status = delivery.lastStatus {
            answer = "\(status)" + (delivery.lastAnswer.map { $0.isEmpty ? "" : ": \($0)" } ?? "")
        } else {
            answer = delivery.lastAnswer ?? (delivery.attempts == 0 ? "Not sent yet" : "")
        }
        return Delivery(
            eventID: PageText(delivery.id), type: delivery.type.name,
            objectHref: PageText("/forms/\(formID)/\(delivery.objectID.uuidString.lowercased())"),
            status: delivery.status.rawValue, when: AdminPage.timestamp(delivery.createdAt),
            next: PageText(delivery.status == .pending ? delivery.nextAttemptAt.map(AdminPage.timestamp) : nil),
            attempts: delivery.attempts, answer: PageText(answer),
            latency: delivery.lastLatencyMS.map { "\($0) ms" } ?? "")
    }

    /// The add form's errors for the page's error summary, each linking to its input.
    static func problems(_ entered: Entered?) -> [AdminProblem] {
        guard let entered else { return [] }
        let firstEvent = "#" + eventID(WebhookEventType.allCases[0].rawValue)
        return [("url", urlField.link), ("events", firstEvent)].compactMap { name, href in
            entered.errors[name].map { AdminProblem(text: $0, href: href) }
        }
    }
}
