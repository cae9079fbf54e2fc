import FormPages
import FormStore
import Foundation

/// The admin page's "Webhooks" section (`Templates/admin/webhooks.mustache`): the form's
/// endpoints with their recent deliveries and a "Send again" for each, a remove button, the form
/// that adds one, and, on the page that answers an add, the new endpoint's secret, once.
struct WebhookSection {
    let formID: PageText
    let endpoints: [Endpoint]
    let hasEndpoints: Bool
    let created: Created?
    /// The add form, as sent after a refusal.
    let url: PageText
    let urlError: PageText
    let eventsError: PageText
    let eventChoices: [Choice]
    /// The ids of the add form's URL field and of its events' group, spelled once here.
    let urlField = Self.urlField
    let eventsField = ControlIDs(id: "webhook-events")
    static let urlField = ControlIDs(id: "webhook-url")

    /// The id of an event's checkbox; the error summary links an events error to the first.
    static func eventID(_ type: WebhookEventType) -> String { "webhook-event-" + type.rawValue }

    /// The endpoint just added: the only time its secret is in a page.
    struct Created {
        let url: PageText
        let secret: PageText
    }

    struct Endpoint {
        let endpointID: String
        let url: PageText
        let events: String
        let added: String
        let deliveries: [Delivery]
        let hasDeliveries: Bool
    }

    struct Delivery {
        let eventID: PageText
        let type: String
        let objectHref: PageText
        let status: String
        let statusClass: String
        let when: String
        let next: PageText
        let attempts: Int
        let answer: PageText
        let latency: String
    }

    struct Choice {
        let id: String
        let value: String
        let label: String
        let checked: Bool
    }

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

    init(
        formID: String, endpoints: [(webhook: StoredWebhook, deliveries: [WebhookDelivery])], entered: Entered?,
        created: (url: String, secret: String)?
    ) {
        let entered = entered ?? Entered()
        self.formID = PageText(formID)
        self.endpoints = endpoints.map { webhook, deliveries in
            Endpoint(
                endpointID: webhook.id.uuidString.lowercased(), url: PageText(webhook.url),
                events: webhook.events.map(\.rawValue).joined(separator: ", "),
                added: (webhook.createdAt.map(AdminPage.timestamp) ?? "")
                    + (webhook.createdBy.map { " by \($0)" } ?? ""),
                deliveries: deliveries.map { Self.delivery($0, formID: formID) }, hasDeliveries: !deliveries.isEmpty)
        }
        hasEndpoints = !endpoints.isEmpty
        self.created = created.map { Created(url: PageText($0.url), secret: PageText($0.secret)) }
        url = PageText(entered.url)
        urlError = PageText(entered.errors["url"])
        eventsError = PageText(entered.errors["events"])
        eventChoices = WebhookEventType.allCases.map { type in
            Choice(
                id: Self.eventID(type), value: type.rawValue,
                label: "\(type.rawValue.prefix(1).uppercased())\(type.rawValue.dropFirst())",
                checked: entered.events.contains(type.rawValue))
        }
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
            status: delivery.status.rawValue, statusClass: "fw-tag--\(delivery.status.rawValue)",
            when: AdminPage.timestamp(delivery.createdAt),
            next: PageText(delivery.status == .pending ? delivery.nextAttemptAt.map(AdminPage.timestamp) : nil),
            attempts: delivery.attempts, answer: PageText(answer),
            latency: delivery.lastLatencyMS.map { "\($0) ms" } ?? "")
    }
}

extension WebhookSection {
    /// The add form's errors for the page's error summary, each linking to its input.
    static func problems(_ entered: Entered?) -> [AdminProblem] {
        guard let entered else { return [] }
        let firstEvent = "#" + eventID(WebhookEventType.allCases[0])
        return [("url", urlField.link), ("events", firstEvent)].compactMap { name, href in
            entered.errors[name].map { AdminProblem(text: $0, href: href) }
        }
    }
}
