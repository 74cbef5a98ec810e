/// The tables of the health journal's medications, reminders, goals and notes (schema step 5).
///
/// Every entry has a stable id (its `INTEGER PRIMARY KEY`, never reused: `AUTOINCREMENT`).
/// Times are milliseconds since the epoch with the UTC offset they were recorded in; dates are
/// `YYYY-MM-DD`; times of day `HH:MM` lists; repeat rules RRULE text (`RecurrenceRule`).
/// Manual measurements are no table of their own: they are samples.
enum JournalSchema {
    static let medicationsAndReminders = """
        CREATE TABLE IF NOT EXISTS medications (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            name TEXT NOT NULL UNIQUE COLLATE NOCASE,
            other_names TEXT NOT NULL DEFAULT '',  -- comma-separated
            dose TEXT NOT NULL DEFAULT '',
            prescriber TEXT NOT NULL DEFAULT '',
            directions TEXT NOT NULL DEFAULT '',
            times TEXT NOT NULL DEFAULT '',        -- HH:MM,HH:MM
            created_ms INTEGER NOT NULL
        );
        CREATE TABLE IF NOT EXISTS doses (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            medication_id INTEGER NOT NULL,
            taken_ms INTEGER NOT NULL,
            taken_off INTEGER NOT NULL,
            reminder_id INTEGER,                   -- the reminder whose action logged it
            edited_ms INTEGER                      -- last time the time stamp was changed
        );
        CREATE INDEX IF NOT EXISTS doses_taken ON doses(taken_ms);
        CREATE TABLE IF NOT EXISTS reminders (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            name TEXT NOT NULL,
            kind TEXT NOT NULL,
            times TEXT NOT NULL,
            rrule TEXT NOT NULL,
            start_date TEXT NOT NULL,
            medication_id INTEGER,
            created_ms INTEGER NOT NULL,
            created_off INTEGER NOT NULL,
            last_fired_ms INTEGER                  -- the due-reminder policy's input
        );
        CREATE TABLE IF NOT EXISTS goals (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            name TEXT NOT NULL,
            rrule TEXT,                            -- NULL: a one-off task
            start_date TEXT NOT NULL,
            type TEXT,                             -- a measured goal's sample type
            target REAL,
            created_ms INTEGER NOT NULL
        );
        CREATE TABLE IF NOT EXISTS goal_checks (
            goal_id INTEGER NOT NULL,
            day TEXT NOT NULL,                     -- the local day it was met
            at_ms INTEGER NOT NULL,
            how TEXT NOT NULL,                     -- 'hand' or 'data'
            PRIMARY KEY (goal_id, day)
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS notes (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            category TEXT NOT NULL,
            text TEXT NOT NULL,
            created_ms INTEGER NOT NULL,
            created_off INTEGER NOT NULL,
            audio TEXT                             -- file name under <state dir>/notes/
        );
        CREATE INDEX IF NOT EXISTS notes_category ON notes(category, id);
        """
}
