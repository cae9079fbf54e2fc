/// The version of Fieldwork: `fieldwork --version` and the `info.version` of the OpenAPI descriptions.
package enum FieldworkVersion {
    package static let current = "0.9.0"
}
