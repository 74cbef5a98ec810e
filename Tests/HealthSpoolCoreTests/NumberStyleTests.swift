import Testing
@testable import HealthSpoolCore

/// Numbers for people (issue 28): counts without decimals, thousands grouped in the locale of
/// `LC_ALL`, `LC_NUMERIC` or `LANG`, the C locale written as English.
@Suite struct NumberStyleTests {
    @Test(arguments: [
        ("en_US.UTF-8", "1,085", "1,234.5"), ("en_GB", "1,085", "1,234.5"), ("C", "1,085", "1,234.5"), ("POSIX", "1,085", "1,234.5"),
        ("", "1,085", "1,234.5"), ("de_DE.UTF-8", "1.085", "1.234,5"), ("de_AT@euro", "1.085", "1.234,5"),
        ("fr_FR.UTF-8", "1\u{00A0}085", "1\u{00A0}234,5"),
    ])
    func countsAndDecimalsFollowTheLocale(locale: String, count: String, decimal: String) {
        let style = NumberStyle(locale: locale)
        #expect(style.count(1084.68) == count)
        #expect(style.number(1234.50, digits: 2) == decimal)
    }

    @Test func aCountHasNoDecimalsAndSmallNumbersNoSeparator() {
        let en = NumberStyle.english
        #expect(en.count(43) == "43")
        #expect(en.count(999.4) == "999")
        #expect(en.count(-12345) == "-12,345")
        #expect(en.count(1_234_567) == "1,234,567")
        #expect(en.number(43.0, digits: 2) == "43")
        #expect(en.fixed(3.2, digits: 2) == "3.20")
        #expect(NumberStyle(locale: "de_DE").fixed(1234.5, digits: 2) == "1.234,50")
    }

    @Test func lcAllOverridesLcNumericWhichOverridesLang() {
        #expect(NumberStyle(environment: ["LANG": "de_DE.UTF-8"]).grouping == ".")
        #expect(NumberStyle(environment: ["LANG": "de_DE.UTF-8", "LC_NUMERIC": "en_US.UTF-8"]).grouping == ",")
        #expect(NumberStyle(environment: ["LANG": "en_US.UTF-8", "LC_NUMERIC": "en_US", "LC_ALL": "de_DE"]).grouping == ".")
        #expect(NumberStyle(environment: [:]) == .english)
    }
}
