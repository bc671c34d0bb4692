@testable import Bench
import LatencyStats
import Testing

@Suite("hil soak's rule and lines")
struct SoakRuleTests {
    static func minute(_ number: Int, sent: Int, verified: Int, rss: Int? = 9318) -> SoakRunner.Minute {
        SoakRunner.Minute(minute: number, sent: sent, verified: verified,
                          latency: LatencySummary(count: verified, p50: 3.1, p95: 6, p99: 8.4, max: 12), residentKiB: rss)
    }

    @Test("a soak passes only when the link lost nothing and every frame was seen")
    func rule() {
        let clean = SoakRunner.Summary(minutes: [Self.minute(1, sent: 7200, verified: 7200)], lostByLink: 0, sent: 7200, readerDrops: 0)
        #expect(clean.passed)
        var lost = clean
        lost.lostByLink = 1
        #expect(!lost.passed)
        let unseen = SoakRunner.Summary(minutes: [Self.minute(1, sent: 7200, verified: 7199)], lostByLink: 0, sent: 7200, readerDrops: 0)
        #expect(!unseen.passed)
    }

    @Test("each minute's line and the total's")
    func lines() {
        let summary = SoakRunner.Summary(
            minutes: [Self.minute(1, sent: 7200, verified: 7200), Self.minute(2, sent: 7200, verified: 7195, rss: nil)],
            lostByLink: 3, sent: 14400, readerDrops: 1)
        #expect(summary.minutes[1].line
            == "minute 2: sent 7200, verified 7195, unverified 5, p50 3.10 ms, p99 8.40 ms, peripheral RSS -")
        #expect(summary.totalLine
            == "total: sent 14400, verified 14395, lost by the link 3 (the computer's receipts), SYN_DROPPED 1; peripheral RSS 9.1 MiB at minute 1, - MiB at the end; nothing held")
    }

    @Test("a soak's minutes: 60 s each, what is left of the duration a last, shorter one")
    func minutes() {
        #expect(SoakRunner.minutes(of: .seconds(150)) == [.seconds(60), .seconds(60), .seconds(30)])
        #expect(SoakRunner.minutes(of: .seconds(120)) == [.seconds(60), .seconds(60)])
        #expect(SoakRunner.minutes(of: .seconds(60)) == [.seconds(60)])
    }
}
