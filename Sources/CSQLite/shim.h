#include <sqlite3.h>

/// SQLITE_TRANSIENT does not import into Swift: bind text through these.
static inline int hs_sqlite3_bind_text_transient(sqlite3_stmt *s, int i, const char *t, int n) {
    return sqlite3_bind_text(s, i, t, n, SQLITE_TRANSIENT);
}
static inline int hs_sqlite3_bind_blob_transient(sqlite3_stmt *s, int i, const void *b, int n) {
    return sqlite3_bind_blob(s, i, b, n, SQLITE_TRANSIENT);
}

/// SQLite keeps memory statistics behind a global mutex by default; healthspool never reads
/// them. Call before the first connection opens (SQLITE_MISUSE after that, harmlessly).
static inline int hs_sqlite3_disable_memstatus(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
