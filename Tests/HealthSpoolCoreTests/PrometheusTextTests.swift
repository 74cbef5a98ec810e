@testable import HealthSpoolCore
import Testing

@Suite struct PrometheusTextTests {
    @Test func aCounterHasHelpTypeAndItsValueWithTheTotalSuffix() {
        let text = PrometheusText.render([.single("healthspool_samples_sent_total", .counter, "Samples sent.", 42)])
        #expect(text == """
            # HELP healthspool_samples_sent_total Samples sent.
            # TYPE healthspool_samples_sent_total counter
            healthspool_samples_sent_total 42

            """)
    }

    @Test func labelValuesEscapeBackslashQuoteAndLineFeed() {
        #expect(PrometheusText.escapeLabelValue(#"a\b"c"#) == #"a\\b\"c"#)
        #expect(PrometheusText.escapeLabelValue("two\nlines") == #"two\nlines"#)
        // CR LF is one Character in Swift: its LF is escaped all the same, the CR kept.
        #expect(PrometheusText.escapeLabelValue("x\r\ny") == "x\r\\ny")
        #expect(PrometheusText.escapeLabelValue("Herzfrequenz ♥") == "Herzfrequenz ♥")
        let text = PrometheusText.render([.labelled("m", .gauge, "h", label: "type", ["we\"ird\\\n": 1])])
        #expect(text.contains(#"m{type="we\"ird\\\n"} 1"#))
        #expect(text.split(separator: "\n").count == 3)
    }

    @Test func helpEscapesBackslashAndLineFeedButNotQuotes() {
        #expect(PrometheusText.escapeHelp("a \"quoted\" \\ path\nmore") == #"a "quoted" \\ path\nmore"#)
    }

    @Test func labelledSamplesAreSortedByLabelValue() {
        let text = PrometheusText.render([.labelled("q", .gauge, "h", label: "type", ["stepCount": 2, "heartRate": 0])])
        #expect(text.hasSuffix("q{type=\"heartRate\"} 0\nq{type=\"stepCount\"} 2\n"))
    }

    @Test(arguments: [(3.0, "3"), (0.25, "0.25"), (-2.0, "-2"), (1e-05, "1e-05"), (.infinity, "+Inf"), (-.infinity, "-Inf"),
                      (1_763_800_000.123, "1763800000.123")])
    func numbersAreWrittenAsPrometheusReadsThem(value: Double, text: String) {
        #expect(PrometheusText.number(value) == text)
    }

    @Test func notANumberIsNaN() {
        #expect(PrometheusText.number(.nan) == "NaN")
    }

    @Test func histogramBucketsAreCumulativeWithInfEqualToTheCount() {
        var h = Histogram(bounds: [0.25, 1, 10])
        for v in [0.125, 0.25, 0.5, 0.75, 5, 50] { h.observe(v) }
        let text = PrometheusText.render([h.family("req_seconds", help: "Request time.")])
        #expect(text == """
            # HELP req_seconds Request time.
            # TYPE req_seconds histogram
            req_seconds_bucket{le="0.25"} 2
            req_seconds_bucket{le="1"} 4
            req_seconds_bucket{le="10"} 5
            req_seconds_bucket{le="+Inf"} 6
            req_seconds_sum 56.625
            req_seconds_count 6

            """)
    }

    @Test func anEmptyHistogramHasEveryBucketAtZero() {
        let family = Histogram(bounds: Histogram.requestSeconds).family("h", help: "x")
        #expect(family.samples.count == Histogram.requestSeconds.count + 3)
        #expect(family.samples.allSatisfy { $0.value == 0 })
    }

    @Test func namesFollowThePrometheusGrammar() {
        #expect(MetricFamily.isValidName("healthspool_gateway_request_duration_seconds"))
        #expect(MetricFamily.isValidName("ns:rule_total"))
        #expect(!MetricFamily.isValidName("ns:rule", allowColon: false))
        #expect(!MetricFamily.isValidName("9lives"))
        #expect(!MetricFamily.isValidName("heart-rate"))
        #expect(!MetricFamily.isValidName(""))
    }
}
