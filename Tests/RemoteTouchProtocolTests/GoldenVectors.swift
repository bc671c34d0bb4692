import RemoteTouchProtocol

/// Every command case with the exact bytes the phone app writes for it. Both directions are tested.
let commandVectors: [(command: Command, json: String)] = [
    // The seed's protocol (seeds/remotetouch-design.md).
    (.cursorMove(delta: Point(x: 10, y: -5)), #"{"cursorMove":{"delta":[10,-5]}}"#),
    (.cursorMove(delta: Point(x: 0.5, y: 12.25)), #"{"cursorMove":{"delta":[0.5,12.25]}}"#),
    (.cursorMove(delta: Point(x: -32767, y: 32767)), #"{"cursorMove":{"delta":[-32767,32767]}}"#),
    (.tap(type: .single), #"{"tap":{"type":"single"}}"#),
    (.tap(type: .double), #"{"tap":{"type":"double"}}"#),
    (.button(action: .back), #"{"button":{"action":"back"}}"#),
    (.button(action: .forward), #"{"button":{"action":"forward"}}"#),
    (.modeChange(mode: .presentation), #"{"modeChange":{"mode":"presentation"}}"#),
    (.modeChange(mode: .mediaControl), #"{"modeChange":{"mode":"mediaControl"}}"#),
    (.modeChange(mode: .basicMouse), #"{"modeChange":{"mode":"basicMouse"}}"#),
    (.mediaControl(action: .playPause), #"{"mediaControl":{"action":"playPause"}}"#),
    (.mediaControl(action: .volumeUp), #"{"mediaControl":{"action":"volumeUp"}}"#),
    (.mediaControl(action: .volumeDown), #"{"mediaControl":{"action":"volumeDown"}}"#),
    (.pinch(scale: 1.5), #"{"pinch":{"scale":1.5}}"#),
    (.pinch(scale: 0.8), #"{"pinch":{"scale":0.8}}"#),
    (.pinch(scale: 2), #"{"pinch":{"scale":2}}"#),
    // Our extension (docs/protocol.md).
    (.scroll(dx: 0, dy: -12), #"{"scroll":{"dx":0,"dy":-12}}"#),
    (.scroll(dx: 3.5, dy: 0), #"{"scroll":{"dx":3.5,"dy":0}}"#),
    (.rightClick, #"{"rightClick":{}}"#),
    (.dragStart, #"{"dragStart":{}}"#),
    (.dragMove(delta: Point(x: 4, y: 2)), #"{"dragMove":{"delta":[4,2]}}"#),
    (.dragEnd, #"{"dragEnd":{}}"#),
    (.systemGesture(gesture: .missionControl), #"{"systemGesture":{"gesture":"missionControl"}}"#),
    (.systemGesture(gesture: .appExpose), #"{"systemGesture":{"gesture":"appExpose"}}"#),
    (.systemGesture(gesture: .spaceLeft), #"{"systemGesture":{"gesture":"spaceLeft"}}"#),
    (.systemGesture(gesture: .spaceRight), #"{"systemGesture":{"gesture":"spaceRight"}}"#),
    (.keyPress(key: .c, modifiers: [.command]), #"{"keyPress":{"key":"c","modifiers":["command"]}}"#),
    (.keyPress(key: .tab, modifiers: [.option, .shift]), #"{"keyPress":{"key":"tab","modifiers":["option","shift"]}}"#),
    (.keyPress(key: .digit1, modifiers: []), #"{"keyPress":{"key":"1","modifiers":[]}}"#),
    (.keyPress(key: .return, modifiers: [.control]), #"{"keyPress":{"key":"return","modifiers":["control"]}}"#),
    (.text(string: "Hello, world!"), #"{"text":{"string":"Hello, world!"}}"#),
    (.text(string: "a/b \"q\""), #"{"text":{"string":"a\/b \"q\""}}"#),
]
