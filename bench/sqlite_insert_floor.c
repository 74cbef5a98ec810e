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

static const char *table =
    "CREATE TABLE samples (rowid INTEGER PRIMARY KEY, type INTEGER NOT NULL, start_ms INTEGER NOT NULL,"
    " id BLOB NOT NULL, value REAL NOT NULL, unit TEXT NOT NULL, start_off INTEGER NOT NULL, end_ms INTEGER NOT NULL,"
    " end_off INTEGER NOT NULL, source_id INTEGER NOT NULL, metadata TEXT, revisable INTEGER NOT NULL DEFAULT 0,"
    " created_ms INTEGER NOT NULL, state INTEGER NOT NULL DEFAULT 0, parked_ms INTEGER, dead_reason TEXT,"
    " version INTEGER NOT NULL DEFAULT 0, deleted INTEGER NOT NULL DEFAULT 0%s);";

static void run(const char *variant, const char *dir, const row *rows, long n) {
    int unique = strcmp(variant, "no-unique") != 0 && strcmp(variant, "table-only") != 0;
    int queue = strcmp(variant, "no-queue") != 0 && strcmp(variant, "table-only") != 0;
    char path[4096], sql[2048];
    snprintf(path, sizeof path, "%s/floor-%s.db", dir, variant);
    unlink(path);
    snprintf(sql, sizeof sql, "%s-wal", path); unlink(sql);
    snprintf(sql, sizeof sql, "%s-shm", path); unlink(sql);
    sqlite3 *db;
    if (sqlite3_open(path, &db) != SQLITE_OK) die(db, "open target");
    if (sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA temp_store=MEMORY;"
                         " PRAGMA cache_size=-8192; PRAGMA wal_autocheckpoint=16384;", NULL, NULL, NULL) != SQLITE_OK)
        die(db, "pragmas");
    snprintf(sql, sizeof sql, table, unique ? ", UNIQUE (type, start_ms, id)" : "");
    if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK) die(db, "create");
    if (queue && sqlite3_exec(db, "CREATE INDEX samples_queue ON samples(type, state, rowid);", NULL, NULL, NULL) != SQLITE_OK)
        die(db, "index");
    sqlite3_stmt *s;
    const char *ins = "INSERT OR IGNORE INTO samples(rowid, type, start_ms, id, value, unit, start_off, end_ms, end_off,"
                      " source_id, metadata, revisable, created_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)";
    if (sqlite3_prepare_v2(db, ins, -1, &s, NULL) != SQLITE_OK) die(db, "prepare insert");
    double t0 = seconds(), c0 = cpu_seconds();
    for (long i = 0; i < n; i++) {
        if (i % 20000 == 0 && sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK) die(db, "begin");
        const row *r = &rows[i];
        sqlite3_bind_int64(s, 1, r->rowid);
        sqlite3_bind_int64(s, 2, r->type);
        sqlite3_bind_int64(s, 3, r->start_ms);
        sqlite3_bind_blob(s, 4, r->id, r->id_len, SQLITE_STATIC);
        sqlite3_bind_double(s, 5, r->value);
        sqlite3_bind_text(s, 6, r->unit, -1, SQLITE_STATIC);
        sqlite3_bind_int64(s, 7, r->start_off);
        sqlite3_bind_int64(s, 8, r->end_ms);
        sqlite3_bind_int64(s, 9, r->end_off);
        sqlite3_bind_int64(s, 10, r->source_id);
        if (r->metadata) sqlite3_bind_text(s, 11, r->metadata, -1, SQLITE_STATIC); else sqlite3_bind_null(s, 11);
        sqlite3_bind_int(s, 12, r->revisable);
        sqlite3_bind_int64(s, 13, r->created_ms);
        if (sqlite3_step(s) != SQLITE_DONE) die(db, "insert");
        sqlite3_reset(s);
        if ((i + 1) % 20000 == 0 || i + 1 == n) {
            if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) die(db, "commit");
        }
    }
    double t = seconds() - t0, c = cpu_seconds() - c0;
    sqlite3_finalize(s);
    sqlite3_close(db);
    printf("%-10s %9ld rows  wall %6.2f s  CPU %6.2f s  %5.2f us/row (CPU)\n", variant, n, t, c, c * 1e6 / n);
    fflush(stdout);
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s SOURCE_DB TARGET_DIR [full|no-queue|no-unique|table-only]...\n", argv[0]);
        return 2;
    }
    long n;
    row *rows = load(argv[1], &n);
    const char *all[] = {"full", "no-queue", "no-unique", "table-only"};
    if (argc > 3) for (int i = 3; i < argc; i++) run(argv[i], argv[2], rows, n);
    else for (int i = 0; i < 4; i++) run(all[i], argv[2], rows, n);
    return 0;
}
