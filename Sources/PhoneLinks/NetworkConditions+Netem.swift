package import GestureScript
import RigControl

extension NetworkConditions {
    /// What netem is given for these conditions (`Netem` owns the tc command line).
    package var netemArguments: [String] { Netem.arguments(delayMs: delayMs, jitterMs: jitterMs, lossPercent: lossPercent) }
}
