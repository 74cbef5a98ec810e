/* What SQLite alone costs the import's writer: the rows of a store that `healthspool import`
 * filled, inserted again through the C API into a new file with the same table, in the same order
 * (the row ids of the first import), in transactions of 20,000 rows, with the import's settings
 * (WAL, synchronous=FULL at each commit, an 8 MiB page cache, a checkpoint at 16,384 WAL pages).
 * No parsing, no hashing, no Swift: the time the writer thread could not go under with this
 * schema. Each variant drops some of the three B-trees a row goes into:
 *
 *   full        the table (by row id), UNIQUE (type, start_ms, id), samples_queue (type, state, rowid)
 *   no-queue    without samples_queue
 *   no-unique   without the UNIQUE index
 *   table-only  the table alone
 *
 * and the two layouts of issue 44, each with what is still to send kept as runs instead of the
 * per-row queue index:
 *
 *   runs        the table (by row id) and UNIQUE (type, start_ms, id); a row in queue_runs
 *               (type, first row id, last row id) per type and transaction
 *   clustered   a WITHOUT ROWID table keyed (type, start_ms, id), INSERT ... ON CONFLICT DO NOTHING
 *               as the dedup; a row in queue_ranges (type, first key, last key) per type and
 *               transaction, after checking that no older row of the type lies inside the range
 *
 * For full, runs and clustered it then times, on the same file (CPU seconds): the day view's
 * read (a type's samples overlapping a day, starting at most 48 h before it: 100 days spread over
 * each type's span, the store's overlappingSamplesQuery), the send-order walk (every type's queue
 * read front to back in batches of 5,000 rows, the columns the sync path reads) and an identical
 * read of the ids in each transaction's window of starts per type (how an identical re-import finds
 * its duplicates, SampleStore.storedIDs) and an identical re-insert of every row (all
 * duplicates); and the bytes the file takes per row.
 *
 *   sqlite_insert_floor SOURCE_DB TARGET_DIR [VARIANT...]
 *
 * The rows are read into memory first (not timed). Prints per variant the rows, the wall and CPU
 * seconds, and the CPU microseconds a row. Built by bench/insert-floor.sh: cc -O2 sqlite_insert_floor.c -lsqlite3
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    sqlite3_int64 rowid, type, start_ms, start_off, end_ms, end_off, source_id, created_ms;
    double value;
    int revisable, id_len;
    unsigned char id[32];
    char *unit, *metadata; /* metadata NULL when the column is NULL */
} row;

static void die(sqlite3 *db, const char *what) {
    fprintf(stderr, "%s: %s\n", what, db ? sqlite3_errmsg(db) : "?");
    exit(1);
}

static double seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static double cpu_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static char *dup_text(const unsigned char *t) { return t ? strdup((const char *)t) : NULL; }

static row *load(const char *path, long *count) {
    sqlite3 *db;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) die(db, "open source");
    sqlite3_stmt *s;
    const char *q = "SELECT rowid, type, start_ms, id, value, unit, start_off, end_ms, end_off, source_id, metadata,"
                    " revisable, created_ms FROM samples ORDER BY rowid";
    if (sqlite3_prepare_v2(db, q, -1, &s, NULL) != SQLITE_OK) die(db, "prepare read");
    long cap = 1 << 20, n = 0;
    row *rows = malloc(cap * sizeof(row));
    while (sqlite3_step(s) == SQLITE_ROW) {
        if (n == cap) rows = realloc(rows, (cap *= 2) * sizeof(row));
        row *r = &rows[n++];
        r->rowid = sqlite3_column_int64(s, 0);
        r->type = sqlite3_column_int64(s, 1);
        r->start_ms = sqlite3_column_int64(s, 2);
        r->id_len = sqlite3_column_bytes(s, 3);
        if (r->id_len > 32) r->id_len = 32;
        memcpy(r->id, sqlite3_column_blob(s, 3), r->id_len);
        r->value = sqlite3_column_double(s, 4);
        r->unit = dup_text(sqlite3_column_text(s, 5));
        r->start_off = sqlite3_column_int64(s, 6);
        r->end_ms = sqlite3_column_int64(s, 7);
        r->end_off = sqlite3_column_int64(s, 8);
        r->source_id = sqlite3_column_int64(s, 9);
        r->metadata = dup_text(sqlite3_column_text(s, 10));
        r->revisable = sqlite3_column_int(s, 11);
        r->created_ms = sqlite3_column_int64(s, 12);
    }
    sqlite3_finalize(s);
    sqlite3_close(db);
    *count = n;
    return rows;
}

static const char *columns =
    " type INTEGER NOT NULL, start_ms INTEGER NOT NULL,"
    " id BLOB NOT NULL, value REAL NOT NULL, unit TEXT NOT NULL, start_off INTEGER NOT NULL, end_ms INTEGER NOT NULL,"
    " end_off INTEGER NOT NULL, source_id INTEGER NOT NULL, metadata TEXT, revisable INTEGER NOT NULL DEFAULT 0,"
    " created_ms INTEGER NOT NULL, state INTEGER NOT NULL DEFAULT 0, parked_ms INTEGER, dead_reason TEXT,"
    " version INTEGER NOT NULL DEFAULT 0, deleted INTEGER NOT NULL DEFAULT 0, full_export INTEGER NOT NULL DEFAULT 0";

enum layout { FULL, NO_QUEUE, NO_UNIQUE, TABLE_ONLY, RUNS, CLUSTERED };

static enum layout layout_of(const char *v) {
    if (!strcmp(v, "full")) return FULL;
    if (!strcmp(v, "no-queue")) return NO_QUEUE;
    if (!strcmp(v, "no-unique")) return NO_UNIQUE;
    if (!strcmp(v, "table-only")) return TABLE_ONLY;
    if (!strcmp(v, "runs")) return RUNS;
    if (!strcmp(v, "clustered")) return CLUSTERED;
    fprintf(stderr, "unknown variant %s\n", v);
    exit(2);
}

static void exec(sqlite3 *db, const char *sql) {
    if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK) die(db, sql);
}

static sqlite3_stmt *prepare(sqlite3 *db, const char *sql) {
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK) die(db, sql);
    return s;
}

static void bind_row(sqlite3_stmt *s, const row *r, int with_rowid) {
    int k = with_rowid ? 1 : 0;
    if (with_rowid) sqlite3_bind_int64(s, 1, r->rowid);
    sqlite3_bind_int64(s, k + 1, r->type);
    sqlite3_bind_int64(s, k + 2, r->start_ms);
    sqlite3_bind_blob(s, k + 3, r->id, r->id_len, SQLITE_STATIC);
    sqlite3_bind_double(s, k + 4, r->value);
    sqlite3_bind_text(s, k + 5, r->unit, -1, SQLITE_STATIC);
    sqlite3_bind_int64(s, k + 6, r->start_off);
    sqlite3_bind_int64(s, k + 7, r->end_ms);
    sqlite3_bind_int64(s, k + 8, r->end_off);
    sqlite3_bind_int64(s, k + 9, r->source_id);
    if (r->metadata) sqlite3_bind_text(s, k + 10, r->metadata, -1, SQLITE_STATIC); else sqlite3_bind_null(s, k + 10);
    sqlite3_bind_int(s, k + 11, r->revisable);
    sqlite3_bind_int64(s, k + 12, r->created_ms);
}

/* The run of rows[from..to) (one type, consecutive in the insert order) recorded as still to send. */
static void record_run(enum layout l, sqlite3 *db, sqlite3_stmt *add, sqlite3_stmt *check, const row *rows, long from, long to) {
    const row *a = &rows[from], *b = &rows[to - 1];
    if (l == RUNS) {
        sqlite3_bind_int64(add, 1, a->type);
        sqlite3_bind_int64(add, 2, a->rowid);
        sqlite3_bind_int64(add, 3, b->rowid);
    } else {
        /* The rows arrive in (type, start) order within a transaction, so the run's first and last
         * rows are its least and greatest keys (ties on start_ms: take the range of all of them). */
        sqlite3_int64 lo = a->start_ms, hi = b->start_ms;
        sqlite3_bind_int64(check, 1, a->type);
        sqlite3_bind_int64(check, 2, lo);
        sqlite3_bind_int64(check, 3, hi);
        if (sqlite3_step(check) != SQLITE_ROW) die(db, "check run");
        sqlite3_int64 inside = sqlite3_column_int64(check, 0); /* rows of the type in [lo, hi] */
        sqlite3_reset(check);
        if (inside != to - from) { /* an older row lies inside: the real store would split the range */ }
        sqlite3_bind_int64(add, 1, a->type);
        sqlite3_bind_int64(add, 2, lo);
        sqlite3_bind_blob(add, 3, a->id, a->id_len, SQLITE_STATIC);
        sqlite3_bind_int64(add, 4, hi);
        sqlite3_bind_blob(add, 5, b->id, b->id_len, SQLITE_STATIC);
    }
    if (sqlite3_step(add) != SQLITE_DONE) die(db, "add run");
    sqlite3_reset(add);
}

/* Inserts every row; `record` adds the runs (off for the re-insert of duplicates). */
static void insert_all(enum layout l, sqlite3 *db, const row *rows, long n, int record) {
    int with_rowid = l != CLUSTERED;
    const char *ins = with_rowid
        ? "INSERT OR IGNORE INTO samples(rowid, type, start_ms, id, value, unit, start_off, end_ms, end_off,"
          " source_id, metadata, revisable, created_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)"
        : "INSERT INTO samples(type, start_ms, id, value, unit, start_off, end_ms, end_off,"
          " source_id, metadata, revisable, created_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)"
          " ON CONFLICT (type, start_ms, id) DO NOTHING";
    sqlite3_stmt *s = prepare(db, ins), *add = NULL, *check = NULL;
    if (l == RUNS && record) add = prepare(db, "INSERT INTO queue_runs(type, first, last) VALUES (?1, ?2, ?3)");
    if (l == CLUSTERED && record) {
        add = prepare(db, "INSERT INTO queue_ranges(type, from_ms, from_id, to_ms, to_id) VALUES (?1, ?2, ?3, ?4, ?5)");
        check = prepare(db, "SELECT count(*) FROM samples WHERE type = ?1 AND start_ms BETWEEN ?2 AND ?3");
    }
    long run_from = 0;
    for (long i = 0; i < n; i++) {
        if (i % 20000 == 0) { exec(db, "BEGIN"); run_from = i; }
        bind_row(s, &rows[i], with_rowid);
        if (sqlite3_step(s) != SQLITE_DONE) die(db, "insert");
        sqlite3_reset(s);
        int end = (i + 1) % 20000 == 0 || i + 1 == n;
        if (add && (end || rows[i + 1].type != rows[i].type)) {
            record_run(l, db, add, check, rows, run_from, i + 1);
            run_from = i + 1;
        }
        if (end) exec(db, "COMMIT");
    }
    sqlite3_finalize(s);
    if (add) sqlite3_finalize(add);
    if (check) sqlite3_finalize(check);
}

/* The day view's read: for each type, 100 days spread over its span. Returns the rows read. */
static long day_view(enum layout l, sqlite3 *db) {
    char q[1024];
    snprintf(q, sizeof q,
             "SELECT %s, type, value, unit, start_ms, start_off, end_ms, end_off, source_id, metadata, revisable, created_ms, id"
             " FROM samples WHERE type = ?1 AND start_ms >= ?4 AND start_ms < ?2 AND end_ms >= ?3 AND deleted = 0 ORDER BY start_ms",
             l == CLUSTERED ? "0" : "rowid");
    sqlite3_stmt *types = prepare(db, "SELECT DISTINCT type FROM samples"), *s = prepare(db, q);
    sqlite3_stmt *span = prepare(db, "SELECT min(start_ms), max(start_ms) FROM samples WHERE type = ?1");
    long read = 0;
    const sqlite3_int64 day = 86400000, back = 2 * day;
    while (sqlite3_step(types) == SQLITE_ROW) {
        sqlite3_int64 t = sqlite3_column_int64(types, 0);
        sqlite3_bind_int64(span, 1, t);
        sqlite3_step(span);
        sqlite3_int64 lo = sqlite3_column_int64(span, 0), hi = sqlite3_column_int64(span, 1);
        sqlite3_reset(span);
        for (int k = 0; k < 100; k++) {
            sqlite3_int64 from = lo + (hi - lo) / 100 * k;
            from -= from % day;
            sqlite3_bind_int64(s, 1, t);
            sqlite3_bind_int64(s, 2, from + day);
            sqlite3_bind_int64(s, 3, from);
            sqlite3_bind_int64(s, 4, from - back);
            while (sqlite3_step(s) == SQLITE_ROW) {
                read++;
                (void)sqlite3_column_text(s, 3); (void)sqlite3_column_text(s, 9); (void)sqlite3_column_blob(s, 12);
            }
            sqlite3_reset(s);
        }
    }
    sqlite3_finalize(types); sqlite3_finalize(s); sqlite3_finalize(span);
    return read;
}

#define BATCH_COLUMNS "id, value, unit, start_ms, start_off, end_ms, end_off, source_id, metadata, created_ms, version, deleted"

/* Every type's queue read front to back in batches of 5,000 rows, as the sync worker reads it.
 * Returns the rows read (every row: nothing is marked sent). */
static long send_walk(enum layout l, sqlite3 *db) {
    const int batch = 5000;
    sqlite3_stmt *types = prepare(db, "SELECT DISTINCT type FROM samples");
    long read = 0;
    if (l == FULL) {
        sqlite3_stmt *s = prepare(db, "SELECT rowid, " BATCH_COLUMNS " FROM samples WHERE type = ?1 AND state = 0 AND rowid > ?2"
                                      " ORDER BY rowid LIMIT ?3");
        while (sqlite3_step(types) == SQLITE_ROW) {
            sqlite3_int64 t = sqlite3_column_int64(types, 0), after = 0;
            for (;;) {
                sqlite3_bind_int64(s, 1, t); sqlite3_bind_int64(s, 2, after); sqlite3_bind_int(s, 3, batch);
                long got = 0;
                while (sqlite3_step(s) == SQLITE_ROW) { got++; after = sqlite3_column_int64(s, 0); (void)sqlite3_column_text(s, 9); }
                sqlite3_reset(s);
                read += got;
                if (got < batch) break;
            }
        }
        sqlite3_finalize(s);
    } else if (l == RUNS) {
        /* The type's runs past the cursor in row-id order; each read as a row-id range of the table. */
        sqlite3_stmt *runs = prepare(db, "SELECT first, last FROM queue_runs WHERE type = ?1 AND last > ?2 ORDER BY first");
        sqlite3_stmt *s = prepare(db, "SELECT rowid, " BATCH_COLUMNS " FROM samples WHERE rowid > ?1 AND rowid <= ?2"
                                      " AND +type = ?3 AND state = 0 ORDER BY rowid LIMIT ?4");
        while (sqlite3_step(types) == SQLITE_ROW) {
            sqlite3_int64 t = sqlite3_column_int64(types, 0), after = 0;
            for (;;) {
                /* One batch: rows from as many runs as it takes. */
                long got = 0;
                sqlite3_bind_int64(runs, 1, t); sqlite3_bind_int64(runs, 2, after);
                while (got < batch && sqlite3_step(runs) == SQLITE_ROW) {
                    sqlite3_int64 first = sqlite3_column_int64(runs, 0), last = sqlite3_column_int64(runs, 1);
                    sqlite3_bind_int64(s, 1, after > first - 1 ? after : first - 1); sqlite3_bind_int64(s, 2, last);
                    sqlite3_bind_int64(s, 3, t); sqlite3_bind_int(s, 4, batch - got);
                    while (sqlite3_step(s) == SQLITE_ROW) { got++; after = sqlite3_column_int64(s, 0); (void)sqlite3_column_text(s, 9); }
                    sqlite3_reset(s);
                    if (got < batch) after = last;
                }
                sqlite3_reset(runs);
                read += got;
                if (got < batch) break;
            }
        }
        sqlite3_finalize(runs); sqlite3_finalize(s);
    } else {
        /* The type's ranges in the order they were queued; each read as a key range of the table. */
        static const unsigned char top[33] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
            0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
        sqlite3_stmt *ranges = prepare(db, "SELECT seq, from_ms, from_id, to_ms, to_id FROM queue_ranges WHERE type = ?1 AND seq >= ?2 ORDER BY seq");
        sqlite3_stmt *s = prepare(db, "SELECT start_ms, " BATCH_COLUMNS " FROM samples WHERE type = ?1"
                                      " AND (start_ms, id) > (?2, ?3) AND (start_ms, id) <= (?4, ?5) AND state = 0"
                                      " ORDER BY start_ms, id LIMIT ?6");
        while (sqlite3_step(types) == SQLITE_ROW) {
            sqlite3_int64 t = sqlite3_column_int64(types, 0), seq = 0, after_ms = 0;
            unsigned char after_id[32]; int after_len = -1;
            for (;;) {
                long got = 0;
                sqlite3_bind_int64(ranges, 1, t); sqlite3_bind_int64(ranges, 2, seq);
                while (got < batch && sqlite3_step(ranges) == SQLITE_ROW) {
                    sqlite3_int64 rs = sqlite3_column_int64(ranges, 0);
                    if (rs != seq) { seq = rs; after_len = -1; }
                    sqlite3_bind_int64(s, 1, t);
                    if (after_len < 0) { /* from the range's first key on: every id sorts after the empty blob */
                        sqlite3_bind_int64(s, 2, sqlite3_column_int64(ranges, 1));
                        sqlite3_bind_blob(s, 3, "", 0, SQLITE_STATIC);
                    } else {
                        sqlite3_bind_int64(s, 2, after_ms);
                        sqlite3_bind_blob(s, 3, after_id, after_len, SQLITE_TRANSIENT);
                    }
                    sqlite3_bind_int64(s, 4, sqlite3_column_int64(ranges, 3));
                    /* Up to the last start's every id: rows with the same start keep their input order, not id order. */
                    sqlite3_bind_blob(s, 5, top, sizeof top, SQLITE_STATIC);
                    sqlite3_bind_int(s, 6, batch - got);
                    while (sqlite3_step(s) == SQLITE_ROW) {
                        got++;
                        after_ms = sqlite3_column_int64(s, 0);
                        after_len = sqlite3_column_bytes(s, 1);
                        memcpy(after_id, sqlite3_column_blob(s, 1), after_len);
                        (void)sqlite3_column_text(s, 9);
                    }
                    sqlite3_reset(s);
                    if (got < batch) seq = rs + 1, after_len = -1;
                }
                sqlite3_reset(ranges);
                read += got;
                if (got < batch) break;
            }
        }
        sqlite3_finalize(ranges); sqlite3_finalize(s);
    }
    sqlite3_finalize(types);
    return read;
}

/* What an identical re-import reads to find its duplicates (SampleStore.storedIDs): per
 * transaction of 20,000 rows and type, the ids stored in the type's window of starts. Returns the
 * ids read. */
static long probe_windows(sqlite3 *db, const row *rows, long n) {
    sqlite3_stmt *q = prepare(db, "SELECT id FROM samples WHERE type = ?1 AND start_ms BETWEEN ?2 AND ?3");
    long read = 0;
    for (long from = 0; from < n; from += 20000) {
        long to = from + 20000 < n ? from + 20000 : n;
        for (long i = from; i < to;) {
            long j = i;
            sqlite3_int64 lo = rows[i].start_ms, hi = rows[i].start_ms;
            while (j < to && rows[j].type == rows[i].type) {
                if (rows[j].start_ms < lo) lo = rows[j].start_ms;
                if (rows[j].start_ms > hi) hi = rows[j].start_ms;
                j++;
            }
            sqlite3_bind_int64(q, 1, rows[i].type); sqlite3_bind_int64(q, 2, lo); sqlite3_bind_int64(q, 3, hi);
            while (sqlite3_step(q) == SQLITE_ROW) { read++; (void)sqlite3_column_blob(q, 0); }
            sqlite3_reset(q);
            i = j;
        }
    }
    sqlite3_finalize(q);
    return read;
}

static void run(const char *variant, const char *dir, const row *rows, long n) {
    enum layout l = layout_of(variant);
    int unique = l == FULL || l == NO_QUEUE || l == RUNS;
    int queue = l == FULL || l == NO_UNIQUE;
    char path[2048], sql[4096];
    snprintf(path, sizeof path, "%s/floor-%s.db", dir, variant);
    unlink(path);
    snprintf(sql, sizeof sql, "%s-wal", path); unlink(sql);
    snprintf(sql, sizeof sql, "%s-shm", path); unlink(sql);
    sqlite3 *db;
    if (sqlite3_open(path, &db) != SQLITE_OK) die(db, "open target");
    exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA temp_store=MEMORY;"
             " PRAGMA cache_size=-8192; PRAGMA wal_autocheckpoint=16384;");
    if (l == CLUSTERED) {
        snprintf(sql, sizeof sql, "CREATE TABLE samples (%s, PRIMARY KEY (type, start_ms, id)) WITHOUT ROWID;"
                 " CREATE TABLE queue_ranges (seq INTEGER PRIMARY KEY, type INTEGER NOT NULL, from_ms INTEGER NOT NULL,"
                 " from_id BLOB NOT NULL, to_ms INTEGER NOT NULL, to_id BLOB NOT NULL);"
                 " CREATE INDEX queue_ranges_type ON queue_ranges(type, seq);", columns);
    } else {
        snprintf(sql, sizeof sql, "CREATE TABLE samples (rowid INTEGER PRIMARY KEY, %s%s);%s", columns,
                 unique ? ", UNIQUE (type, start_ms, id)" : "",
                 l == RUNS ? " CREATE TABLE queue_runs (type INTEGER NOT NULL, first INTEGER NOT NULL, last INTEGER NOT NULL,"
                             " PRIMARY KEY (type, first)) WITHOUT ROWID;" : "");
    }
    exec(db, sql);
    if (queue) exec(db, "CREATE INDEX samples_queue ON samples(type, state, rowid);");
    double t0 = seconds(), c0 = cpu_seconds();
    insert_all(l, db, rows, n, 1);
    double t = seconds() - t0, c = cpu_seconds() - c0;
    printf("%-10s %9ld rows  wall %6.2f s  CPU %6.2f s  %5.2f us/row (CPU)", variant, n, t, c, c * 1e6 / n);
    if (l == FULL || l == RUNS || l == CLUSTERED) {
        exec(db, "PRAGMA wal_checkpoint(TRUNCATE)");
        sqlite3_stmt *size = prepare(db, "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()");
        sqlite3_step(size);
        double bytes = (double)sqlite3_column_int64(size, 0);
        sqlite3_finalize(size);
        c0 = cpu_seconds();
        long dv = day_view(l, db);
        double cd = cpu_seconds() - c0;
        c0 = cpu_seconds();
        long sw = send_walk(l, db);
        double cs = cpu_seconds() - c0;
        c0 = cpu_seconds();
        long pw = probe_windows(db, rows, n);
        double cp = cpu_seconds() - c0;
        c0 = cpu_seconds();
        insert_all(l, db, rows, n, 0); /* all duplicates: no run is added */
        double cr = cpu_seconds() - c0;
        printf("\n           %5.1f bytes/row  day view %5.3f s CPU (%ld rows)  send walk %5.3f s CPU (%ld rows)"
               "  duplicate windows %5.3f s CPU (%ld ids)  re-insert %5.2f s CPU", bytes / n, cd, dv, cs, sw, cp, pw, cr);
    }
    printf("\n");
    fflush(stdout);
    sqlite3_close(db);
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s SOURCE_DB TARGET_DIR [full|no-queue|no-unique|table-only|runs|clustered]...\n", argv[0]);
        return 2;
    }
    long n;
    row *rows = load(argv[1], &n);
    const char *all[] = {"full", "no-queue", "no-unique", "table-only", "runs", "clustered"};
    if (argc > 3) for (int i = 3; i < argc; i++) run(argv[i], argv[2], rows, n);
    else for (int i = 0; i < 6; i++) run(all[i], argv[2], rows, n);
    return 0;
}
