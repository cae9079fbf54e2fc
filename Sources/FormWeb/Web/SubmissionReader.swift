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
    /// object's own stored files, and this viewer's staged uploads from a refused attempt.
    /// Any other id is ignored, so no one can attach a file they cannot see.
    func resolveKept(
        _ received: inout ReceivedSubmission, schema: FormSchema, viewer: Viewer, stored: [String: [SubmittedFile]]
    ) async throws {
        for field in schema.fields(of: .attachments) {
            let ids = received.submission.fields.removeValue(forKey: InputName.keptFiles(of: field.name)) ?? []
            guard !ids.isEmpty else { continue }
            let own = stored[field.name] ?? []
            var kept: [SubmittedFile] = []
            var stagedIDs: [String] = []
            for id in ids {
                if let file = own.first(where: { $0.id == id }) { kept.append(file) } else { stagedIDs.append(id) }
            }
            if !stagedIDs.isEmpty {
                let staged = try await attachments.stagedFiles(ids: stagedIDs, owner: viewer.ownerKey)
                    .filter { $0.field == field.name && $0.formID == schema.id }
                kept += staged.map(\.submitted)
                received.stagedIDs.formUnion(staged.map(\.id))
            }
            let uploaded = received.submission.files[field.name] ?? []
            if !kept.isEmpty || !uploaded.isEmpty { received.submission.files[field.name] = kept + uploaded }
        }
        received.stagedIDs.formUnion(received.uploadedIDs)
    }

    /// The files of a refused submission to list again: those really kept somewhere (a file
    /// over `max-size` is named in the submission but nothing of it was stored) and fit to
    /// keep. A file of the wrong type or size is dropped here and its staged copy deleted, so
    /// sending the form again does not bring the same refusal back.
    func listable(
        _ received: ReceivedSubmission, schema: FormSchema, viewer: Viewer, stored: [String: [SubmittedFile]]
    ) async throws -> [String: [SubmittedFile]] {
        let storedIDs = Set(stored.values.flatMap { $0.map(\.id) })
        let present = Set(
            try await attachments.stagedFiles(ids: Array(received.stagedIDs), owner: viewer.ownerKey).map(\.id))
        var listed: [String: [SubmittedFile]] = [:]
        var unfit: [String] = []
        for field in schema.fields(of: .attachments) {
            for file in received.submission.files[field.name] ?? [] {
                guard storedIDs.contains(file.id) || present.contains(file.id) else { continue }
                if Self.fits(file, field) {
                    listed[field.name, default: []].append(file)
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
