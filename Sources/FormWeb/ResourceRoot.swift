import Foundation

/// The folder holding `Templates/`, `Public/` and `Specs/` (the repository root in development).
package struct ResourceRoot: Sendable, Hashable {
    package var url: URL

    package init(url: URL) {
        self.url = url
    }

    package var templates: URL { url.appendingPathComponent("Templates", isDirectory: true) }
    package var publicFolder: URL { url.appendingPathComponent("Public", isDirectory: true) }
    package var specs: URL { url.appendingPathComponent("Specs", isDirectory: true) }

    /// `FIELDWORK_RESOURCES` if set, else the current directory if it has `Templates/`, else the
    /// package root (found from this file's path), so `swift run` and `swift test` work from anywhere.
    package static func resolve(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        currentDirectory: String = FileManager.default.currentDirectoryPath
    ) -> ResourceRoot {
        if let explicit = environment["FIELDWORK_RESOURCES"], !explicit.isEmpty {
            return ResourceRoot(url: URL(fileURLWithPath: explicit, isDirectory: true))
        }
        let current = URL(fileURLWithPath: currentDirectory, isDirectory: true)
        if hasTemplates(current) { return ResourceRoot(url: current) }
        return ResourceRoot(url: packageRoot)
    }

    /// `<root>/Sources/FormWeb/ResourceRoot.swift` → `<root>`.
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    private static func hasTemplates(_ folder: URL) -> Bool {
        var isDirectory: ObjCBool = false
        let path = folder.appendingPathComponent("Templates").path
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
