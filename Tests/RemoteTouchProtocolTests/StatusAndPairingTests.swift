import HILTestSupport
import RemoteTouchProtocol
import Testing

@Suite("Status and pairing payloads")
struct StatusAndPairingTests {
    @Test("status golden bytes, both ways")
    func statusGolden() throws {
        let status = StatusData(batteryLevel: 85, timestamp: 785_000_000.5, connectionQuality: 90)
        let json = #"{"batteryLevel":85,"timestamp":785000000.5,"connectionQuality":90}"#
        #expect(status.encoded() == Array(json.utf8))
        #expect(try StatusData.decode(Array(json.utf8)) == status)
    }

    @Test("status with an error, both ways")
    func statusErrorGolden() throws {
        let status = StatusData(
            batteryLevel: 100, timestamp: 0, connectionQuality: 100,
            error: StatusError(code: "notPaired", message: "pair first"))
        let json = #"{"batteryLevel":100,"timestamp":0,"connectionQuality":100,"error":{"code":"notPaired","message":"pair first"}}"#
        #expect(status.encoded() == Array(json.utf8))
        #expect(try StatusData.decode(Array(json.utf8)) == status)
    }

    @Test("status timestamp converts from Unix time")
    func unixTime() {
        let status = StatusData(batteryLevel: 1, unixTime: 978_307_200 + 10, connectionQuality: 1)
        #expect(status.timestamp == 10)
        #expect(status.unixTime == 978_307_210)
    }

    @Test("status ignores unknown keys, as synthesized Codable does, and checks ranges")
    func statusDecoding() throws {
        let extra = #"{"connectionQuality":5,"batteryLevel":50.0,"timestamp":1,"future":[1]}"#
        #expect(try StatusData.decode(Array(extra.utf8)) == StatusData(batteryLevel: 50, timestamp: 1, connectionQuality: 5))
        let bad = #"{"batteryLevel":101,"timestamp":1,"connectionQuality":5}"#
        #expect(throws: ProtocolError.self) { try StatusData.decode(Array(bad.utf8)) }
        let fractional = #"{"batteryLevel":50.5,"timestamp":1,"connectionQuality":5}"#
        #expect(throws: ProtocolError.self) { try StatusData.decode(Array(fractional.utf8)) }
    }

    @Test("a pairing code is six ASCII digits, both ways")
    func pairingCode() throws {
        let code = try PairingCode("042917")
        #expect(code.encoded() == [0x30, 0x34, 0x32, 0x39, 0x31, 0x37])
        #expect(try PairingCode.decode(Array("042917".utf8)) == code)
    }

    @Test(
        "refuses pairing codes that are not six digits",
        arguments: ["", "12345", "1234567", "12345a", " 12345", "123456\n", "１２３４５６", "-12345"])
    func badPairingCodes(text: String) {
        #expect(throws: ProtocolError.self) { try PairingCode.decode(Array(text.utf8)) }
    }

    @Test("generated codes are six digits, leading zeros kept, and not all alike")
    func generatedCodes() {
        var seen = Set<String>()
        for _ in 0..<200 {
            let code = PairingCode.generate()
            #expect(code.digits.count == 6)
            #expect(code.digits.allSatisfy { $0.isASCII && $0.isNumber })
            seen.insert(code.digits)
        }
        #expect(seen.count > 190)
        var generator = SplitMix64(seed: 1)
        let low = (0..<5000).map { _ in PairingCode.generate(using: &generator).digits }.filter { $0.hasPrefix("0") }
        #expect(!low.isEmpty)
    }

    @Test(
        "pairing status golden bytes, both ways",
        arguments: [
            (PairingStatus(state: .awaitingCode, attemptsRemaining: 3, secondsRemaining: 60),
             #"{"state":"awaitingCode","attemptsRemaining":3,"secondsRemaining":60}"#),
            (PairingStatus(state: .paired, attemptsRemaining: 3), #"{"state":"paired","attemptsRemaining":3}"#),
            (PairingStatus(state: .lockedOut, attemptsRemaining: 0, secondsRemaining: 300),
             #"{"state":"lockedOut","attemptsRemaining":0,"secondsRemaining":300}"#),
            (PairingStatus(state: .idle, attemptsRemaining: 2), #"{"state":"idle","attemptsRemaining":2}"#),
        ])
    func pairingStatus(status: PairingStatus, json: String) throws {
        #expect(status.encoded() == Array(json.utf8))
        #expect(try PairingStatus.decode(Array(json.utf8)) == status)
    }

    @Test("pairing status refuses unknown states and keys")
    func badPairingStatus() {
        for json in [#"{"state":"maybe","attemptsRemaining":3}"#, #"{"state":"idle","attemptsRemaining":4}"#,
                     #"{"state":"idle","attemptsRemaining":3,"x":1}"#, #"{"state":"idle"}"#] {
            #expect(throws: ProtocolError.self, "\(json)") { try PairingStatus.decode(Array(json.utf8)) }
        }
    }
}

@Suite("Malformed payloads for fault scenarios")
struct MalformedPayloadsTests {
    @Test("10,000 of them: every one refused by the decoder, none over 510 bytes, the same for the same seed")
    func refusedAndReproducible() {
        let payloads = Array(MalformedPayloads().prefix(10_000))
        #expect(payloads.count == 10_000)
        for payload in payloads {
            #expect(payload.count <= MalformedPayloads.maxLength)
            #expect((try? Command.decode(payload)) == nil, "accepted: \(String(decoding: payload, as: UTF8.self))")
        }
        #expect(Array(MalformedPayloads().prefix(50)) == Array(payloads.prefix(50)))
        #expect(Array(MalformedPayloads(seed: 1).prefix(50)) != Array(payloads.prefix(50)))
        // Every kind appears.
        #expect(Set(payloads.prefix(9).map { $0.first }).count >= 3)
    }
}
