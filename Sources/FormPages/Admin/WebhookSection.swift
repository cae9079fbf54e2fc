/// The admin page's "Webhooks" section (`Templates/admin/webhooks.mustache`): the form's
/// endpoints with their recent deliveries and a "Send again" for each, a remove button, the form
/// that adds one, and, on the page that answers an add, the new endpoint's secret, once.
package struct WebhookSection {
    package let formID: PageText
    package let endpoints: [Endpoint]
    package let hasEndpoints: Bool
    package let created: Created?
    /// The add form, as sent after a refusal.
    package let url: PageText
    package let urlError: PageText
    package let eventsError: PageText
    package let eventChoices: [Choice]
    /// The ids of the add form's URL field and of its events' group, spelled once here.
    package let urlField = Self.urlField
    package let eventsField = ControlIDs(id: "webhook-events")
    package static let urlField = ControlIDs(id: "webhook-url")

    package init(
        formID: PageText, endpoints: [Endpoint], created: Created?, url: PageText, urlError: PageText,
        eventsError: PageText, eventChoices: [Choice]
    ) {
        self.formID = formID
        self.endpoints = endpoints
        hasEndpoints = !endpoints.isEmpty
        self.created = created
        self.url = url
        self.urlError = urlError
        self.eventsError = eventsError
        self.eventChoices = eventChoices
    }

    /// The id of the checkbox of the event named `event`; the error summary links an events
    /// error to the first.
    package static func eventID(_ event: String) -> String { "webhook-event-" + event }

    /// The endpoint just added: the only time its secret is in a page.
    package struct Created {
        package let url: PageText
        package let secret: PageText

        package init(url: PageText, secret: PageText) {
            self.url = url
            self.secret = secret
        }
    }

    /// An endpoint with its recent deliveries.
    package struct Endpoint {
        package let endpointID: String
        package let url: PageText
        package let events: String
        package let added: String
        package let deliveries: [Delivery]
        package let hasDeliveries: Bool

        package init(endpointID: String, url: PageText, events: String, added: String, deliveries: [Delivery]) {
            self.endpointID = endpointID
            self.url = url
            self.events = events
            self.added = added
            self.deliveries = deliveries
            hasDeliveries = !deliveries.isEmpty
        }
    }

    /// A delivery of an event to an endpoint: its state, its attempts and the last answer.
    package struct Delivery {
        package let eventID: PageText
        package let type: String
        package let objectHref: PageText
        package let status: String
        package let statusClass: String
        package let when: String
        package let next: PageText
        package let attempts: Int
        package let answer: PageText
        package let latency: String

        package init(
            eventID: PageText, type: String, objectHref: PageText, status: String, when: String, next: PageText,
            attempts: Int, answer: PageText, latency: String
        ) {
            self.eventID = eventID
            self.type = type
            self.objectHref = objectHref
            self.status = status
            statusClass = "fw-tag--" + status
            self.when = when
            self.next = next
            self.attempts = attempts
            self.answer = answer
            self.latency = latency
        }
    }

    /// An event's checkbox in the add form.
    package struct Choice {
        package let id: String
        package let value: String
        package let label: String
        package let checked: Bool

        /// The checkbox of the event named `event`.
        package init(event: String, checked: Bool) {
            id = WebhookSection.eventID(event)
            value = event
            label = event.prefix(1).uppercased() + event.dropFirst()
            self.checked = checked
        }
    }
}
