package import CommandMapping
package import GestureModel
package import InputCodes
package import RemoteTouchProtocol
package import StrictJSON
import System

// The product modules (and StrictJSON and InputCodes beneath them) do not depend on System, so their errors carry
// the package's error shape by themselves: `what`, `code` and `hint`, and a `description` that is `what` (none of
// them has a hint). The conformance is declared here, in the program that prints them, so `hil` can treat every
// error it catches as an `ExplainedError`; ErrorShapeTests checks each of them renders the one shape.
extension JSONParseError: ExplainedError {}
extension JSONSchemaError: ExplainedError {}
extension ProtocolError: ExplainedError {}
extension MappingError: ExplainedError {}
extension GestureSettingsError: ExplainedError {}
extension EvdevLog.ParseError: ExplainedError {}
