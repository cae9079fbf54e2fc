import FormModel

/// The protocol version of a service, as its binding says.
typealias ODataVersion = ServiceBinding.Version
