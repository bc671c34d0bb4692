import System
import Testing

@Suite("ModuleError: a module's error, with the error it wraps")
struct ModuleErrorTests {
    enum Code: String, Sendable { case link }
    typealias LinkError = ModuleError<Code>

    @Test("the wrapped error is kept whole for code that branches on it; the text is the one shape")
    func keepsItsCause() {
        let underneath = SystemError(.systemCall, "write", errno: .permissionDenied)
        let error = LinkError(.link, "the phone's write failed: \(underneath)", hint: "run `hil doctor`", cause: underneath)
        #expect((error.cause as? SystemError)?.errno == .permissionDenied)
        #expect(error.description == "the phone's write failed: \(underneath)\n  → run `hil doctor`")
        #expect(LinkError(.link, "x").cause == nil)
    }

    @Test("equal when code, text, hint and the cause's text are; a different cause makes another error")
    func equality() {
        let one = LinkError(.link, "x", cause: SystemError(.systemCall, "write", errno: .permissionDenied))
        #expect(one == LinkError(.link, "x", cause: SystemError(.systemCall, "write", errno: .permissionDenied)))
        #expect(one != LinkError(.link, "x", cause: SystemError(.systemCall, "read", errno: .permissionDenied)))
        #expect(one != LinkError(.link, "x"))
        #expect(Set([one, one]).count == 1)
    }
}
