import FormModel

/// The protocol version of a service, as its binding says.
package typealias ODataVersion = ServiceBinding.Version
