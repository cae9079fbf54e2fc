import FluentKit

/// A migration named as databases record it, `FormWeb.<type>`: Fluent names a migration by its
/// module-qualified type, and the first migrations ran while the store was part of the `FormWeb`
/// target. A database records each migration it ran by name, so a name must never change
/// wherever the type lives (a new name would run the migration again); new migrations take the
/// same form.
protocol RecordedMigration: AsyncMigration {}

extension RecordedMigration {
    var name: String { "FormWeb.\(Self.self)" }
}
