#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>
#include <systemd/sd-bus.h>
#include <sys/eventfd.h>
#include <poll.h>
#include <stdio.h>

/// C's stderr global is rejected by Swift's concurrency checking: write through this.
static inline void hs_write_stderr(const char *s) { fputs(s, stderr); fflush(stderr); }
