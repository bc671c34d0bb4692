import RemoteTouchProtocol
import StrictJSON

extension ScriptReader {
    /// `{"from": "attacker", "transport": "tcp", "code": "spent", "commands": [{"tap": {"type": "single"}}]}`: `from`
    /// phone or attacker (default attacker), `transport` tcp or udp (the control port it connects to), `code` none or
    /// spent (default none), `commands` as a send step's (default none).
    static func otherPhone(_ value: JSONValue, at path: JSONPath) throws(JSONSchemaError) -> OtherPhone {
        let object = try value.object(at: path)
        try object.rejectUnknownKeys(allowed: ["from", "transport", "code", "commands"], at: path)
        let from = try object["from"].map { v throws(JSONSchemaError) in try v.enumeration(OtherPhone.Host.self, at: path.appending("from")) } ?? .attacker
        let transport = try object.required("transport", at: path).enumeration(OtherPhone.Port.self, at: path.appending("transport"))
        let code = try object["code"].map { v throws(JSONSchemaError) in try v.enumeration(OtherPhone.Code.self, at: path.appending("code")) } ?? OtherPhone.Code.none
        var commands: [Command] = []
        if let list = object["commands"] {
            for (index, item) in try list.array(at: path.appending("commands")).enumerated() {
                commands.append(try command(item, at: path.appending("commands").appending(index)))
            }
        }
        if code == .none && commands.isEmpty {
            throw JSONSchemaError(path, "another phone that enters no code and sends nothing tests nothing: give it a code or commands")
        }
        return OtherPhone(from: from, transport: transport, code: code, commands: commands)
    }
}
