import FormXML
import Foundation

extension XMLSchemaValidator {
    /// The native format's validator, compiled once from the bundled `fieldwork-form-1.xsd`.
    static let native: Result<XMLSchemaValidator, ImportError> = {
        guard let url = Bundle.module.url(forResource: "fieldwork-form-1", withExtension: "xsd"),
            let data = try? Data(contentsOf: url)
        else {
            return .failure(
                ImportError(
                    code: .internal, message: "The bundled fieldwork-form-1.xsd is missing; reinstall Fieldwork."))
        }
        return compile(Array(data)).mapError {
            ImportError(code: .internal, message: "The bundled fieldwork-form-1.xsd does not compile: \($0)")
        }
    }()
}
