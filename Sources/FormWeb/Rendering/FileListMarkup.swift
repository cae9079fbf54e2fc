import FormModel
import Foundation
import NIOCore

/// The markup of files already received: on a form (kept with hidden inputs) and on the
/// detail page (thumbnails or a type icon, with name, size and date).
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

    static func writeKept(_ files: [SubmittedFile], field: String, state: RenderState, to buffer: inout ByteBuffer) {
        guard !files.isEmpty else { return }
        buffer.writeStaticString("<ul class=\"fw-attachments__list\">")
        for file in files {
            buffer.writeStaticString("<li class=\"fw-attachment\">")
            writeThumbnail(file, state: state, to: &buffer)
            buffer.writeStaticString("<span class=\"fw-attachment__name\">")
            HTML.writeEscaped(file.name, to: &buffer)
            buffer.writeStaticString("</span> <span class=\"fw-attachment__size\">")
            HTML.writeEscaped(ByteSize.describe(file.size), to: &buffer)
            // A ticked "Keep" box sends the id back; unticking it removes the file, without JavaScript.
            buffer.writeStaticString("</span><label class=\"fw-attachment__keep\"><input type=\"checkbox\" name=\"")
            HTML.writeEscaped(InputName.keptFiles(of: field), to: &buffer)
            buffer.writeStaticString("\" value=\"")
            HTML.writeEscaped(file.id, to: &buffer)
            buffer.writeStaticString("\" checked> Keep<span class=\"fw-visually-hidden\"> ")
            HTML.writeEscaped(file.name, to: &buffer)
            buffer.writeStaticString("</span></label></li>")
        }
        buffer.writeStaticString("</ul>")
    }

    static func writeShown(_ files: [SubmittedFile], state: RenderState, to buffer: inout ByteBuffer) {
        let date = state.filesDate
        buffer.writeStaticString("<ul class=\"fw-attachments__list\">")
        for file in files {
            buffer.writeStaticString("<li class=\"fw-attachment\"><a class=\"fw-attachment__link\" href=\"")
            HTML.writeEscaped(url(for: file, state: state), to: &buffer)
            buffer.writeStaticString("\">")
            writeThumbnail(file, state: state, to: &buffer)
            buffer.writeStaticString("<span class=\"fw-attachment__name\">")
            HTML.writeEscaped(file.name, to: &buffer)
            buffer.writeStaticString("</span></a> <span class=\"fw-attachment__size\">")
            HTML.writeEscaped(ByteSize.describe(file.size), to: &buffer)
            if !date.isEmpty {
                buffer.writeStaticString(" <span class=\"fw-attachment__date\">")
                HTML.writeEscaped(date, to: &buffer)
                buffer.writeStaticString("</span>")
            }
            buffer.writeStaticString("</span></li>")
        }
        buffer.writeStaticString("</ul>")
    }

    private static func writeThumbnail(_ file: SubmittedFile, state: RenderState, to buffer: inout ByteBuffer) {
        if isImage(file) {
            buffer.writeStaticString("<img class=\"fw-attachment__thumb\" src=\"")
            HTML.writeEscaped(url(for: file, state: state), to: &buffer)
            buffer.writeStaticString("\" alt=\"\" width=\"88\" height=\"88\">")
        } else {
            buffer.writeStaticString("<span class=\"fw-attachment__icon fw-attachment__icon--")
            buffer.writeString(iconKind(file))
            buffer.writeStaticString("\" aria-hidden=\"true\"></span>")
        }
    }
}
