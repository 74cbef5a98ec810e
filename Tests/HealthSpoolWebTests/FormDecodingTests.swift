import HealthJournal
import HealthSpoolCore
@testable import HealthSpoolWeb
import Testing

/// The forms the browser posts are decoded into each form's `Fields` (Hummingbird's
/// `URLEncodedFormDecoder`, `Form.decode`): what the page sent, and nil for what it left out.
@Suite struct FormDecodingTests {
    @Test func aTakenButtonsBodyDecodesIntoTheDoseFields() throws {
        let fields = try Form("csrf=c&once=o&id=12&back=%2F").decode(DoseEdits.Fields.self)
        #expect(fields.id == "12")
        #expect(fields.back == "/")
        #expect(fields.date == nil && fields.time == nil)
    }

    @Test func aSymptomEditDecodesItsTypedTextAsTyped() throws {
        let body = "id=7&back=%2Fday%2F2026-11-26&severity=3&date=2026-11-26&time=9am&when=morning"
            + "&category=Head&relieved=rest%2C+water&aggravated=&note=after+the+walk+%26+lunch"
        let fields = try Form(body).decode(SymptomEdits.Fields.self)
        #expect(fields.id == "7")
        #expect(fields.back == "/day/2026-11-26")
        #expect(fields.severity == "3")
        #expect(fields.time == "9am")
        #expect(fields.relieved == "rest, water")
        #expect(fields.aggravated == "")
        #expect(fields.note == "after the walk & lunch")
    }

    @Test func aFieldSentTwiceCountsWithItsFirstValueAsTheFormReadsIt() throws {
        let form = Form("id=1&back=%2Fjournal&id=2")
        #expect(try form.decode(EntryFields.self).id == form["id"])
        #expect(try form.decode(EntryFields.self).id == "1")
    }

    @Test func aSymptomLoggedDecodesItsFields() throws {
        let fields = try Form("symptom=Head+ache&severity=2&when=&relieved=rest").decode(SymptomPages.Fields.self)
        #expect(fields.symptom == "Head ache")
        #expect(fields.severity == "2")
        #expect(fields.when == "")
        #expect(fields.note == nil)
    }

    @Test func aRemindersTickedWeekdaysDecodeAsAListInTheOrderSentWhileAFieldSentTwiceKeepsItsFirstValue() throws {
        let body = "csrf=c&id=4&name=Vitamin+D&time=08%3A00&start=2026-11-26&repeat=weeks&weekday=MO&every_weeks=2&weekday=FR&name=other"
        let fields = try Form(body).decode(ReminderForms.Fields.self)
        #expect(fields.id == "4")
        #expect(fields.name == "Vitamin D")
        #expect(fields.time == "08:00")
        #expect(fields.repeating.choice == "weeks")
        #expect(fields.repeating.weekdays == ["MO", "FR"])
        #expect(fields.repeating.everyWeeks == "2")
        let repeatFields = RepeatFields(fields.repeating)
        #expect(repeatFields.weekdays == [.monday, .friday])
        #expect(try repeatFields.rule(onceAllowed: false).get() == RecurrenceRule(.weekly, interval: 2, weekdays: [.monday, .friday]))
    }

    @Test func aGoalWithoutItsOptionalFieldsDecodesThemAsNilAndWithoutARepeatChoiceRepeatsDaily() throws {
        let fields = try Form("csrf=c&once=o&name=Stretch").decode(GoalForms.Fields.self)
        #expect(fields.name == "Stretch")
        #expect(fields.type == nil && fields.target == nil)
        #expect(fields.repeating.choice == nil && fields.repeating.weekdays == nil && fields.repeating.monthDay == nil)
        let typed = GoalForms.Typed(fields)
        #expect(typed.type == "" && typed.target == "")
        #expect(try typed.repeatFields.rule(onceAllowed: true).get() == RecurrenceRule(.daily))
    }

    @Test func noWeekdayTickedAndATypodNumberAreSaidNextToTheirFieldsNotRefusedAsAForm() throws {
        let fields = try Form("name=Walk&type=stepCount&target=10o00&repeat=weeks&every_weeks=1x").decode(GoalForms.Fields.self)
        #expect(fields.target == "10o00")
        #expect(fields.repeating.weekdays == nil)
        let result = RepeatFields(fields.repeating).rule(onceAllowed: true)
        guard case .failure(let problems) = result else {
            Issue.record("a weekly rule without a day was accepted")
            return
        }
        #expect(problems[RepeatFields.weekday] == "Choose at least one day of the week.")
        #expect(problems[RepeatFields.everyWeeks] == "Type a whole number from 1 to 1000, for example 1.")
    }

    @Test func aWeekdayThatIsNoneIsLeftOut() throws {
        let fields = try Form("repeat=weeks&weekday=XX&weekday=TU").decode(ReminderForms.Fields.self)
        #expect(RepeatFields(fields.repeating).weekdays == [.tuesday])
    }

    @Test func aMedicationChangeDecodesItsOtherNamesAndKeepsATypodTimeAsTyped() throws {
        let fields = try Form("id=3&name=Ibuprofen&other_names=Advil%2C+Nurofen&times=8%3A0o").decode(MedicationForms.Fields.self)
        #expect(fields.id == "3")
        #expect(fields.otherNames == "Advil, Nurofen")
        #expect(fields.times == "8:0o")
        #expect(fields.dose == nil && fields.prescriber == nil)
        #expect(MedicationForms.Typed(fields).dose == "")
    }

    @Test func aLifestyleEntryDecodesItsAmountAsTyped() throws {
        let fields = try Form("factor=coffee&amount=2%2C5&unit=cups&level=&note=with+milk").decode(LifestylePage.Fields.self)
        #expect(fields.factor == "coffee")
        #expect(fields.amount == "2,5")
        #expect(fields.level == "")
        #expect(fields.other == nil && fields.when == nil)
    }

    @Test func aMeasurementsNumbersAreTypedByTheirFieldNameAndATypoIsSaidNextToIt() throws {
        let fields = try Form("csrf=c&kind=hr&value-hr=7O").decode(MeasurePage.Fields.self)
        #expect(fields.kind == "hr")
        #expect(fields.typed == ["value-hr": "7O"])
        guard case .problems(let problems) = MeasurementEntry.parse(kind: "hr", fields: fields.typed) else {
            Issue.record("a heart rate of 7O was accepted")
            return
        }
        #expect(problems.map(\.field) == ["value-hr"])
        #expect(problems.map(\.message) == ["Type only the number, for example 72."])
        let pressure = try Form("kind=bp&systolic=128&diastolic=82&key=1.2&back=%2Fday%2F2026-11-26").decode(MeasurePage.Fields.self)
        #expect(pressure.typed == ["systolic": "128", "diastolic": "82"])
        #expect(pressure.key == "1.2" && pressure.back == "/day/2026-11-26")
    }

    @Test func theDataTypesFormDecodesTheTickedBoxesOfItsCategory() throws {
        let fields = try Form("csrf=c&category=activity&on-stepCount=1&on-flightsClimbed=1&on-heartRate=0").decode(SettingsPage.TypeFields.self)
        #expect(fields.category == "activity")
        #expect(fields.ticked == ["stepCount", "flightsClimbed"])
        #expect(try Form("category=activity").decode(SettingsPage.TypeFields.self).ticked.isEmpty)
    }

    @Test func theUndoAndPutBackButtonsDecodeTheirFields() throws {
        let undo = try Form("csrf=c&undo=abc&back=%2Fjournal").decode(WebRoutes.UndoFields.self)
        #expect(undo.undo == "abc" && undo.back == "/journal")
        #expect(try Form("csrf=c").decode(EntryFields.self).id == nil)
    }
}
