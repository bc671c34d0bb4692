import Rig
import Testing

@Suite("The guest's job script")
struct VMJobTests {
    @Test("every word is single-quoted, quotes inside are escaped, the folder is entered")
    func script() {
        let job = VMJob(
            command: ["sh", "-c", "echo 'it''s' $HOME; exit 3"], workingDirectory: "/work/my project",
            environment: ["PATH": "/usr/bin:/bin", "HIL_X": "a'b"])
        #expect(job.script == """
            #!/bin/sh
            export HIL_X='a'\\''b'
            export PATH='/usr/bin:/bin'
            cd '/work/my project' || { echo "hil vm: cannot enter "'/work/my project'" in the guest (the guest shares every host path but /run)" >&2; exit 126; }
            exec 'sh' '-c' 'echo '\\''it'\\'''\\''s'\\'' $HOME; exit 3'

            """)
    }
}
