import GestureScript
import Verifier

extension ScenarioDriver {
    /// A step that acts on the link or the network rather than (or before) sending gestures: a hostile phone's
    /// malformed writes, netem conditions, forged packets, another phone's session, the radio's conditions. What it did
    /// goes to `commands.log` and to the step's own message (`note`).
    func actOnTheLink(_ index: Int, _ step: ScriptStep) async throws {
        switch step {
        case .malformedWrites(let count) where linkUp:
            note(index, try await sendMalformed(count))
        case .network(let conditions):
            let done = try await networkFaults(.network).setNetwork(conditions)
            noteAccounting(.networkLoss((conditions?.lossPercent ?? 0) > 0))
            networkNow = conditions
            logLinkAction("network: \(done)")
            note(index, done)
        case .forgedPackets(let count, let source, let packets):
            let started = clock.now()
            let sent = try await networkFaults(.forge).forge(count, from: source, packets: packets)
            try await awaitReceipts(count, since: started)
            logLinkAction("forged: \(sent)")
            note(index, sent)
        case .otherPhone(let other):
            let code: String? = other.code == .spent ? pairedWith ?? "000000" : nil
            let answered = try await networkFaults(.otherPhone).otherPhone(other, code: code)
            logLinkAction("other phone: \(answered)")
            note(index, answered)
        case .radio(let conditions):
            let setting = try await radioFaults().setRadio(conditions)
            recordRadio(index, setting)
            let done = setting.refusal.map { "refused: " + $0 } ?? setting.done
            logLinkAction("radio: \(done)")
            if setting.refusal == nil { note(index, "radio: " + done) }
        default:
            break
        }
    }

    /// A link step's line in `commands.log`, kept with its time for `hil replay`'s listing too.
    func logLinkAction(_ text: String) {
        let now = clock.now()
        commandLog.append("\(now) \(text)\n")
        linkActions.append((now, text))
    }

    /// Puts what step `index` did on its own result: the open segment's message when the step opened it, else the
    /// step's own (unchecked) result, so a radio step mid-way says what it set, not the gesture before it.
    func note(_ index: Int, _ text: String) {
        if segment?.step == index {
            segment?.note = text
        } else {
            stepNotes[index] = text
        }
    }
}
