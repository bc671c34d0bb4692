import Foundation
import Rig
import Testing

@Suite("The commit hil was built from (results.json's environment.commit)")
struct SourceRevisionTests {
    @Test("HIL_COMMIT wins when set; blank is as if unset")
    func variable() {
        #expect(SourceRevision.probe(executable: "/opt/remotetouch-hil/hil", environment: ["HIL_COMMIT": " abc123\n"]) == "abc123")
        #expect(SourceRevision.probe(executable: "/opt/remotetouch-hil/hil", environment: ["HIL_COMMIT": ""]) == nil)
    }

    @Test("the source folder is the one holding the .build folder and Package.swift; none outside a build")
    func sourceFolder() {
        let built = packageRoot.appendingPathComponent(".build/x86_64-unknown-linux-gnu/debug/hil").path
        #expect(SourceRevision.sourceFolder(of: built) == packageRoot.standardizedFileURL.path)
        #expect(SourceRevision.sourceFolder(of: "/opt/remotetouch-hil/hil") == nil)
        #expect(SourceRevision.sourceFolder(of: "/tmp/.build/debug/hil") == nil)
    }

    @Test("this package's build: git's 40-hex HEAD, with +dirty when tracked files changed")
    func gitHead() throws {
        let built = packageRoot.appendingPathComponent(".build/debug/hil").path
        let commit = try #require(SourceRevision.probe(executable: built, environment: [:]))
        let hash = commit.hasSuffix("+dirty") ? String(commit.dropLast(6)) : commit
        #expect(hash.count == 40 && hash.allSatisfy(\.isHexDigit), "\(commit)")
    }
}
