/* What SQLite alone costs the sync path: reads a type's queue the way healthspool's sender does
 * (the same statement, walking the table, the same 11 columns, LIMIT BATCH past the last row id)
 * through the C API, and does nothing with the values. No encoding, no Swift, no network.
 *
 *   sqlite_floor DB_PATH TYPE_ID BATCH
 *
 * Prints the rows read and the seconds. `gateway_bench.py --instructions` counts the
 * instructions of read_queue under callgrind. Built by bench/gateway_bench.py:
 * cc -O2 sqlite_floor.c -lsqlite3
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* As SampleStore.queueQuery(batchColumns, walk: true). */
static const char *query =
    "SELECT rowid, id, value, unit, start_ms, start_off, end_ms, end_off, source_id, metadata, created_ms"
    " FROM samples WHERE +type = ?1 AND state = 0"
    " AND rowid > max(?2, (SELECT synced_to FROM types WHERE id = ?1)) ORDER BY rowid LIMIT ?3";

static volatile long sink;

__attribute__((noinline)) static long read_queue(sqlite3_stmt *s, long type, long batch) {
    long rows = 0, acc = 0;
    sqlite3_int64 after = 0;
    for (;;) {
        sqlite3_bind_int64(s, 1, type);
        sqlite3_bind_int64(s, 2, after);
        sqlite3_bind_int64(s, 3, batch);
        long got = 0;
        while (sqlite3_step(s) == SQLITE_ROW) {
            got++;
            after = sqlite3_column_int64(s, 0);
            acc += sqlite3_column_bytes(s, 1) + ((const char *)sqlite3_column_blob(s, 1))[0];
            acc += (long)sqlite3_column_double(s, 2);
            acc += sqlite3_column_text(s, 3)[0] + sqlite3_column_bytes(s, 3);
            for (int c = 4; c <= 8; c++) acc += sqlite3_column_int64(s, c);
            const unsigned char *metadata = sqlite3_column_text(s, 9);
            acc += (metadata ? metadata[0] : 0) + sqlite3_column_bytes(s, 9);
            acc += sqlite3_column_int64(s, 10);
        }
        sqlite3_reset(s);
        if (got == 0) break;
        rows += got;
    }
    sink = acc;
    return rows;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: sqlite_floor DB_PATH TYPE_ID BATCH\n");
        return 2;
    }
    sqlite3 *db;
    sqlite3_stmt *s;
    /* As the sender's background connection: no mutex, a 1 MiB page cache. */
    if (sqlite3_open_v2(argv[1], &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK
        || sqlite3_exec(db, "PRAGMA cache_size=-1024", NULL, NULL, NULL) != SQLITE_OK
        || sqlite3_prepare_v2(db, query, -1, &s, NULL) != SQLITE_OK) {
        fprintf(stderr, "%s: %s\n", argv[1], sqlite3_errmsg(db));
        return 1;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    long rows = read_queue(s, atol(argv[2]), atol(argv[3]));
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("%ld %.6f\n", rows, (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
    sqlite3_finalize(s);
    sqlite3_close(db);
    return 0;
}
