// The tests' seeded generator is the one the bootstrap uses (LatencyStats), so there is one of it.
@_exported import struct LatencyStats.SplitMix64
