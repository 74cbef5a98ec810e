/* LD_PRELOAD for the daemon (test_store_reload.py): forces the start-up interleaving of two
   parts that connect to a new store at once. The first two access() calls on a path ending in
   "/healthspool.db" get the file system's answer of the moment they asked, returned 300 ms and
   600 ms late: both parts see no store; the first creates it and its SQLite connection takes its
   lock; the second creates it again 300 ms later. Each such call is written to standard error. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static atomic_int calls;

int access(const char *path, int mode) {
    static int (*real)(const char *, int);
    if (!real) real = (int (*)(const char *, int))dlsym(RTLD_NEXT, "access");
    int rc = real(path, mode);
    size_t n = strlen(path);
    if (n >= 15 && strcmp(path + n - 15, "/healthspool.db") == 0) {
        int k = atomic_fetch_add(&calls, 1);
        if (k < 2) {
            usleep(300000 * (k + 1));
            char line[96];
            int len = snprintf(line, sizeof line, "slow-store-check: call %d answered %d\n", k + 1, rc);
            if (len > 0) write(2, line, (size_t)len);
        }
    }
    return rc;
}
