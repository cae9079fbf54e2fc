import FormModel
import FormPages
import FormStore
import Foundation
import Hummingbird

/// Turns a POSTed create or edit form into a ``ReceivedSubmission``: urlencoded bodies here,
/// `multipart/form-data` through the attachments store, which stages the files for the viewer.
struct SubmissionReader: Sendable {
    let attachments: AttachmentStore

    /// Reads the body. Nothing is trusted yet: ``readVerified(_:schema:viewer:)`` checks the
    /// CSRF token next, and ``resolveKept(_:schema:viewer:stored:)`` follows.
    /// The inputs of the form's item lists (`members[0].age`) become its items.
    func read(_ request: Request, schema: FormSchema, viewer: Viewer) async throws -> ReceivedSubmission {
        var received = try await readBody(request, schema: schema, viewer: viewer)
        let lists = schema.itemLists
        if !lists.isEmpty { received.submission = received.submission.gatheringItems(of: lists) }
        return received
    }

    private func readBody(_ request: Request, schema: FormSchema, viewer: Viewer) async throws -> ReceivedSubmission {
        if FormBody.isURLEncoded(request) {
            return ReceivedSubmission(fields: try await FormBody.fields(request))
        }
        // Any other body carries no token a form could have sent: refused as a POST without one.
        guard FormBody.isMultipart(request) else { throw HTTPError(.forbidden, message: Viewer.tokenRefusal) }
        // A browser that brought no cookie cannot hold a valid token: refuse before staging anything.
        guard viewer.account != nil || viewer.newBrowserCookie == nil else {
            throw HTTPError(.forbidden, message: Viewer.tokenRefusal)
        }
        let submission = try await attachments.receive(request, schema: schema, owner: viewer.ownerKey)
        var received = ReceivedSubmission(fields: submission.fields, files: submission.files)
        received.uploadedIDs = submission.files.values.flatMap { $0.map(\.id) }
        return received
    }

    /// Reads a submitted form and checks its CSRF token (403 without a valid one); a refused
    /// submission leaves none of the files it uploaded staged.
    func readVerified(_ request: Request, schema: FormSchema, viewer: Viewer) async throws -> ReceivedSubmission {
        let received = try await read(request, schema: schema, viewer: viewer)
        do {
            try viewer.requireToken(received.control(InputName.csrf))
        } catch {
            await discard(received, viewer: viewer)
            throw error
        }
        return received
    }

    /// Puts the files the form sent back by id (`NAME._kept`) ahead of new uploads: the
    /// object's own stored files, and this viewer's staged uploads from a refused attempt, for
    /// the form's attachments fields and its items' alike. Any other id is ignored, so no one
    /// can attach a file they cannot see; an id is taken for the field it was uploaded to or
    /// stored in (an item's file for the same field of any item of its list: items move).
    /// - Parameter stored: the object's files by input name (``InputStrings/files(of:prefix:)``).
    func resolveKept(
        _ received: inout ReceivedSubmission, schema: FormSchema, viewer: Viewer, stored: [String: [SubmittedFile]]
    ) async throws {
        var own: [String: [String: SubmittedFile]] = [:]
        for (input, files) in stored {
            for file in files { own[ItemList.ruleKey(input), default: [:]][file.id] = file }
        }
        // Every id sent back that is not the object's own: staged, looked up at once.
        var asked: [String] = []
        received.submission.forEachAttachmentsInput(of: schema) { inputs, field, input in
            let shape = ItemList.ruleKey(input)
            for id in inputs.fields[InputName.keptFiles(of: field.name)] ?? [] where own[shape]?[id] == nil {
                asked.append(id)
            }
        }
        var staged: [String: StoredAttachment] = [:]
        if !asked.isEmpty {
            for file in try await attachments.stagedFiles(ids: asked, owner: viewer.ownerKey)
            where file.formID == schema.id {
                staged[file.id] = file
            }
        }
        var taken = Set<String>()
        received.submission.forEachAttachmentsInput(of: schema) { inputs, field, input in
            let ids = inputs.fields.removeValue(forKey: InputName.keptFiles(of: field.name)) ?? []
            let shape = ItemList.ruleKey(input)
            var kept: [SubmittedFile] = []
            for id in ids where !taken.contains(id) {
                if let file = own[shape]?[id] {
                    kept.append(file)
                } else if let file = staged[id], ItemList.ruleKey(file.field) == shape {
                    kept.append(file.submitted)
                    received.stagedIDs.insert(file.id)
                } else {
                    continue
                }
                // One file, one place: an id sent back twice is kept once.
                taken.insert(id)
            }
            let uploaded = inputs.files[field.name] ?? []
            if !kept.isEmpty || !uploaded.isEmpty { inputs.files[field.name] = kept + uploaded }
        }
        received.stagedIDs.formUnion(received.uploadedIDs)
    }

    /// The files of a submission shown again to list, by input name (`scan`,
    /// `members[1].photo`, as `submission` numbers its items: after an item's Remove, the
    /// changed one): those really kept somewhere (a file over `max-size` is named in the
    /// submission but nothing of it was stored) and fit to keep. A file of the wrong type or
    /// size is dropped here and its staged copy deleted, so sending the form again does not
    /// bring the same refusal back.
    func listable(
        _ submission: Submission, _ received: ReceivedSubmission, schema: FormSchema, viewer: Viewer,
        stored: [String: [SubmittedFile]]
    ) async throws -> [String: [SubmittedFile]] {
        let storedIDs = Set(stored.values.flatMap { $0.map(\.id) })
        let present = Set(
            try await attachments.stagedFiles(ids: Array(received.stagedIDs), owner: viewer.ownerKey).map(\.id))
        var listed: [String: [SubmittedFile]] = [:]
        var unfit: [String] = []
        var submission = submission
        submission.forEachAttachmentsInput(of: schema) { inputs, field, input in
            for file in inputs.files[field.name] ?? [] {
                guard storedIDs.contains(file.id) || present.contains(file.id) else { continue }
                if Self.fits(file, field) {
                    listed[input, default: []].append(file)
                } else if present.contains(file.id) {
                    unfit.append(file.id)
                }
            }
        }
        if !unfit.isEmpty { try await attachments.discardStaged(ids: unfit, owner: viewer.ownerKey) }
        return listed
    }

    /// Whether a file on its own meets its field's type and size rules.
    static func fits(_ file: SubmittedFile, _ field: Field) -> Bool {
        if let accept = field.constraints.accept, !accept.isEmpty, !MediaTypes.matches(file.contentType, accept: accept)
        {
            return false
        }
        if let maxSize = field.constraints.maxSize, file.size > maxSize { return false }
        return true
    }

    /// Forgets what a refused request (bad token) staged: its rows and bytes.
    func discard(_ received: ReceivedSubmission, viewer: Viewer) async {
        try? await attachments.discardStaged(ids: received.uploadedIDs, owner: viewer.ownerKey)
    }
}
