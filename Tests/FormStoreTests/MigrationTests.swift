import FluentKit
import Testing

@testable import FormStore

@Suite("Migrations")
struct MigrationTests {
    @Test("migrations keep the names and order existing databases recorded them by")
    func names() {
        #expect(
            FieldworkDatabase.migrations.map(\.name) == [
                "FormWeb.CreateForms", "FormWeb.CreateFormVersions", "FormWeb.CreateUsers", "FormWeb.CreateSessions",
                "FormWeb.CreateObjects", "FormWeb.CreateAttachments", "FormWeb.AddAdminTables",
                "FormWeb.AddStagedDocuments", "FormWeb.AddVersionTitles", "FormWeb.AddCacheChanges",
                "FormWeb.AddSubmissionTokens", "FormWeb.AddServerSecrets", "FormWeb.IndexSubmissionTokens",
                "FormWeb.AddServiceConnections", "FormWeb.IndexObjectLists", "FormWeb.IndexObjectChanges",
                "FormWeb.AddWebhooks", "FormWeb.AddXFormRules", "FormWeb.AddObjectInstances",
                "FormWeb.AddListInstances", "FormWeb.HashSessionKeys", "FormWeb.AddSecondFactors",
                "FormWeb.AddServiceItems",
            ])
    }
}
