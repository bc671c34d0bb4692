/// The session `hil record`'s tests record, offline (RecordingTests) and on the rig (RecordOnRig): a swipe, a tap, a
/// drag, a scroll and a shortcut with idle time between them, so a recording has five segments.
package enum RecordingSession {
    package static let script = #"""
        {"name": "a session to record", "settings": {"acceleration": "none"}, "steps": [
          {"swipe": {"from": [100, 300], "to": [220, 300], "durationMs": 200}}, {"wait": {"ms": 700}},
          {"tap": {}}, {"wait": {"ms": 1000}},
          {"drag": {"by": [-50, 30], "holdMs": 600, "durationMs": 300}}, {"wait": {"ms": 700}},
          {"scroll": {"by": [0, 60], "durationMs": 250}}, {"wait": {"ms": 700}},
          {"key": {"key": "c", "modifiers": ["command"]}, "expect": {"keys": ["KEY_LEFTMETA 1", "KEY_C 1", "KEY_C 0", "KEY_LEFTMETA 0"]}},
          {"wait": {"ms": 700}}
        ]}
        """#

    /// How many segments a recording of `script` has.
    package static let segments = 5
}
