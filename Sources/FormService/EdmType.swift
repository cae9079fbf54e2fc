/// The primitive types a binding names (`Edm.Decimal`), as one enum so that every writer and
/// reader switches over all of them: a type added later fails to compile until each handles it.
package enum EdmType: String, Sendable, Hashable, CaseIterable {
    case binary = "Edm.Binary"
    case boolean = "Edm.Boolean"
    case byte = "Edm.Byte"
    case sbyte = "Edm.SByte"
    case int16 = "Edm.Int16"
    case int32 = "Edm.Int32"
    case int64 = "Edm.Int64"
    case decimal = "Edm.Decimal"
    case double = "Edm.Double"
    case single = "Edm.Single"
    case string = "Edm.String"
    case guid = "Edm.Guid"
    /// V4 only.
    case date = "Edm.Date"
    /// V2 only: a date and time without a zone.
    case dateTime = "Edm.DateTime"
    case dateTimeOffset = "Edm.DateTimeOffset"
    /// V2 only: a time of day written as a duration (`PT14H30M00S`).
    case time = "Edm.Time"
    /// V4 only.
    case timeOfDay = "Edm.TimeOfDay"
    /// V4 only.
    case duration = "Edm.Duration"

    /// The type a binding names; an unknown name (a geography type, `Edm.Stream`) is nil, and
    /// such a property is never written.
    package init?(name: String) {
        self.init(rawValue: name)
    }

    /// The integer types and their ranges, checked before a value is sent so that the service's
    /// own refusal (pyslet answers 400 for a Byte out of range) never comes as a surprise.
    package var integerRange: ClosedRange<Int64>? {
        switch self {
        case .byte: 0...255
        case .sbyte: -128...127
        case .int16: -32_768...32_767
        case .int32: Int64(Int32.min)...Int64(Int32.max)
        case .int64: Int64.min...Int64.max
        default: nil
        }
    }

    /// Whether a value of the type is text a `contains` or `substringof` can search.
    package var isText: Bool { self == .string }
}
