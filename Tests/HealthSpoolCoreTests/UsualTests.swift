import Testing
@testable import HealthSpoolCore

/// Issue 40, "a glance": a figure against the median of the person's own last 30 days.
@Suite struct UsualTests {
    @Test func theMedianIsTheMiddleValue() {
        #expect(Usual.median([5, 1, 3]) == 3)
        #expect(Usual.median([4, 1, 3, 2]) == 2.5)
        #expect(Usual.median([]) == nil)
    }

    @Test(arguments: [(6_000.0, Usual.Direction.about), (6_800, .about), (7_000, .higher), (5_000, .lower), (5_300, .about)])
    func aFigureIsAboutHigherOrLowerThanTheUsual(value: Double, expected: Usual.Direction) {
        // Usual 6,000 steps; ±15 % is about it (5,100–6,900).
        let usual = Usual.compare(value, with: [5_000, 6_000, 9_000, 6_000, 2_000], band: 0.15)
        #expect(usual == Usual(direction: expected, median: 6_000))
    }

    @Test func fewerThanThreeEarlierFiguresHaveNoUsual() {
        #expect(Usual.compare(5, with: [1, 9], band: 0.1) == nil)
        #expect(Usual.compare(5, with: [1, 9, 5], band: 0.1)?.direction == .about)
    }

    @Test func theWordsAndTheArrowSayTheSame() {
        #expect([Usual.Direction.about, .higher, .lower].map { Usual(direction: $0, median: 1).words + " " + Usual(direction: $0, median: 1).arrow }
                == ["about your usual →", "higher than usual ↑", "lower than usual ↓"])
    }
}
