import Foundation
@testable import Peripheral
import Testing

@Suite("The peripheral log's time stamps")
struct LogStampTests {
    @Test("the same text as ISO8601DateFormatter's internet date-time with milliseconds, in UTC and at any offset",
          arguments: [(0, 0), (1_795_758_481, 0), (1_795_758_481, 3600), (1_795_758_481, -19_800), (951_782_399, 20_700), (4_102_444_799, -43_200)])
    func sameAsFoundation(seconds: Int, offset: Int) throws {
        for milliseconds in [0, 125, 500, 875] {
            var shifted = time_t(seconds + offset)
            var broken = tm()
            gmtime_r(&shifted, &broken)
            broken.tm_gmtoff = offset
            let expected = ISO8601DateFormatter.string(
                from: Date(timeIntervalSince1970: Double(seconds) + Double(milliseconds) / 1000),
                timeZone: try #require(TimeZone(secondsFromGMT: offset)), formatOptions: [.withInternetDateTime, .withFractionalSeconds])
            #expect(LogStamp.text(broken, milliseconds: milliseconds) == expected)
        }
    }

    @Test("now is this second, in the process's time zone")
    func now() throws {
        let before = Date()
        let stamp = LogStamp.now()
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let parsed = try #require(formatter.date(from: stamp), "\(stamp)")
        #expect(abs(parsed.timeIntervalSince(before)) < 2)
    }
}
