extension RandomAccessCollection {
    /// The first index whose element satisfies `belongsToSecondPartition`, by binary search (swift-algorithms'
    /// name): the predicate must be false for a prefix of the collection and true for the rest, as when the
    /// collection is sorted by what it tests; `endIndex` when it holds for none. O(log n).
    func partitioningIndex(where belongsToSecondPartition: (Element) throws -> Bool) rethrows -> Index {
        var low = startIndex
        var count = distance(from: startIndex, to: endIndex)
        while count > 0 {
            let half = count / 2
            let middle = index(low, offsetBy: half)
            if try belongsToSecondPartition(self[middle]) {
                count = half
            } else {
                low = index(after: middle)
                count -= half + 1
            }
        }
        return low
    }
}
