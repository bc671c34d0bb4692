/// `1 step`, `2 steps`, `0 commands`: a count with its noun in the right number, for what a person reads.
package func counted(_ count: Int, _ noun: String, plural: String? = nil) -> String {
    "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
}
