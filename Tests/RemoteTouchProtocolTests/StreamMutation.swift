import HILTestSupport

/// A streamed encoding with up to 3 bytes changed, dropped, doubled or swapped, for the fast paths' mutation tests
/// (CommandFastPathTests, PhoneMessageFastPathTests): one of `seeds`, picked and mutated by `random`.
func mutated(_ seeds: [[UInt8]], _ random: inout SplitMix64) -> [UInt8] {
    let alphabet = Array(#"{}[]",:.-+eE0123456789 aZ"#.utf8)
    var bytes = seeds[Int(random.next() % UInt64(seeds.count))]
    for _ in 0...(random.next() % 3) where !bytes.isEmpty {
        let at = Int(random.next() % UInt64(bytes.count))
        switch random.next() % 4 {
        case 0: bytes[at] = alphabet[Int(random.next() % UInt64(alphabet.count))]
        case 1: bytes.remove(at: at)
        case 2: bytes.insert(bytes[at], at: at)
        default: bytes.swapAt(at, Int(random.next() % UInt64(bytes.count)))
        }
    }
    return bytes
}
