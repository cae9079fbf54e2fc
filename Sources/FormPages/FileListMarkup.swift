import FormModel
import Foundation

/// Files already received, from the fragments of ``SlotMarkup``: on a form (kept with a ticked
/// checkbox) and on the detail page (thumbnails or a type icon, with name, size and date).
enum FileListMarkup {
    /// Where a file's bytes are served (sniffed type, `nosniff`): an object's file under the
    /// object, so the object's access rule covers it; a staged upload to its uploader only.
    static func url(for file: SubmittedFile, state: RenderState) -> String {
        if state.stagedFileIDs.contains(file.id) || state.objectPath.isEmpty { return "/attachments/staged/\(file.id)" }
        return "\(state.objectPath)/files/\(file.id)"
    }

    static func isImage(_ file: SubmittedFile) -> Bool {
        ["image/png", "image/jpeg", "image/gif", "image/webp"].contains(file.contentType ?? "")
    }

    /// A short name for the icon of a non-image file: `pdf`, `csv`, else `file`.
    static func iconKind(_ file: SubmittedFile) -> String {
        switch file.contentType {
        case "application/pdf": "pdf"
        case "text/csv": "csv"
        default: "file"
        }
    }

    /// The files already received for a form's attachments field, each with a ticked Keep box (and
    /// its URL in `data-url`, for the previewer).
    static func writeKept(
        _ files: [SubmittedFile], field: String, state: RenderState, markup: SlotMarkup, to buffer: inout PageBuffer
    ) {
        guard !files.isEmpty else { return }
        markup.fileList.write(to: &buffer) { part, buffer in
            guard part == .items else { return }
            for file in files {
                markup.keptFile.write(to: &buffer) { part, buffer in
                    switch part {
                    case .keptName: HTML.writeEscaped(InputName.keptFiles(of: field), to: &buffer)
                    case .id: HTML.writeEscaped(file.id, to: &buffer)
                    default: writeTile(part, of: file, state: state, markup: markup, to: &buffer)
                    }
                }
            }
        }
    }

    /// An object's files on the detail page, each linking to its bytes.
    static func writeShown(
        _ files: [SubmittedFile], state: RenderState, markup: SlotMarkup, to buffer: inout PageBuffer
    ) {
        let date = state.filesDate
        markup.fileList.write(to: &buffer) { part, buffer in
            guard part == .items else { return }
            for file in files {
                markup.shownFile.write(to: &buffer) { part, buffer in
                    switch part {
                    case .date: if !date.isEmpty { markup.fileDate.write(to: &buffer) { $0 == .date ? date : nil } }
                    default: writeTile(part, of: file, state: state, markup: markup, to: &buffer)
                    }
                }
            }
        }
    }

    /// The parts a kept file's tile and a shown file's share: its URL, thumbnail, name and size.
    private static func writeTile(
        _ part: Fragment.Part, of file: SubmittedFile, state: RenderState, markup: SlotMarkup,
        to buffer: inout PageBuffer
    ) {
        switch part {
        case .url: HTML.writeEscaped(url(for: file, state: state), to: &buffer)
        case .thumbnail: writeThumbnail(file, state: state, markup: markup, to: &buffer)
        case .name: HTML.writeEscaped(file.name, to: &buffer)
        case .size: HTML.writeEscaped(ByteSize.describe(file.size), to: &buffer)
        default: break
        }
    }

    private static func writeThumbnail(
        _ file: SubmittedFile, state: RenderState, markup: SlotMarkup, to buffer: inout PageBuffer
    ) {
        if isImage(file) {
            markup.fileImage.write(to: &buffer) { $0 == .url ? url(for: file, state: state) : nil }
        } else {
            markup.fileIcon.write(to: &buffer) { $0 == .icon ? iconKind(file) : nil }
        }
    }
}
