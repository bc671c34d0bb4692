import System
import Testing

@Suite("ExplainedError: the one error shape")
struct ExplainedErrorTests {
    /// An error that leaves `description` to the protocol, as every new error should.
    struct Sample: ExplainedError {
        enum Code: String { case broken }
        var code: Code = .broken
        var what: String
        var hint: String?
    }

    @Test("what, then the hint on its own line after an arrow")
    func withHint() {
        let error = Sample(what: "cannot open /dev/uinput: Permission denied", hint: "run as root")
        #expect(error.description == "cannot open /dev/uinput: Permission denied\n  → run as root")
        #expect("\(error)" == error.description)
    }

    @Test("no hint: what alone, with no trailing line")
    func withoutHint() {
        let error = Sample(what: "nothing listens on 127.0.0.1:9", hint: nil)
        #expect(error.description == "nothing listens on 127.0.0.1:9")
    }

    @Test("SystemError keeps the errno and the details' last lines between what and the hint")
    func systemError() {
        let error = SystemError(
            .systemCall, "cannot start /usr/sbin/tc", errno: .noSuchFileOrDirectory, details: "one\ntwo", hint: "run setup")
        let expected = "cannot start /usr/sbin/tc: No such file or directory\n  | one\n  | two\n  → run setup"
        #expect(error.description == expected, "expected:\n\(expected)\nactual:\n\(error.description)")
        #expect(error.description == SystemError.render(error.text, hint: error.hint))
        #expect(SystemError(.systemCall, "socketpair failed").description == "socketpair failed")
    }

    @Test("a code is the kind's name, whether an enum's case or an extensible struct")
    func codes() {
        #expect(Sample(what: "x").code.rawValue == "broken")
        #expect(SystemError(.systemCall, "x").code.rawValue == "systemCall")
    }
}
