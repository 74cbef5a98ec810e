import HealthSpoolCore

extension ReportSections {
    /// The period's notes by category, the questions for the doctor first.
    public struct Notes: Sendable {
        public struct Group: Sendable {
            /// `questions (questions)`: the category, marked when it is the questions'.
            public var heading: String
            public var notes: [Note]
        }

        public struct Note: Sendable {
            public var when: String
            /// The note, or `(voice recording)` for a recording without text.
            public var text: String
            /// Text and a voice recording both.
            public var withAudio: Bool
        }

        public var groups: [Group]

        init?(_ r: VisitReport) {
            guard !r.notes.isEmpty else { return nil }
            groups = r.notes.map { g in
                Group(heading: g.category + (g.questions ? " (questions)" : ""), notes: g.notes.map { n in
                    Note(when: ReportText.when(n.created), text: n.text.isEmpty && n.hasAudio ? "(voice recording)" : n.text,
                         withAudio: n.hasAudio && !n.text.isEmpty)
                })
            }
        }
    }
}
