package extension RandomAccessCollection {
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

extension Array {
    /// Sorts the array unless it already is: the sends, receipts and writes of a run mostly come in time order, and
    /// one pass to see that is cheaper than a sort.
    mutating func sortUnlessSorted(by areInIncreasingOrder: (Element, Element) throws -> Bool) rethrows {
        for position in indices.dropFirst() where try areInIncreasingOrder(self[position], self[position - 1]) {
            try sort(by: areInIncreasingOrder)
            return
        }
    }
}
