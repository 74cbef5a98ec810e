#!/usr/bin/python3
"""Runs a command where creating a user namespace fails with EPERM, like a host with
unprivileged user namespaces disabled. For the e2e harness:

    E2E_MANAGER_WRAPPER=tests/e2e/no_userns.py tests/e2e/systemd-e2e.sh --selftest \\
        --dropin packaging/no-user-namespaces.conf

Needs python3-seccomp (Debian). The filter (which also sets no_new_privs) is inherited by
the user manager and every service it starts.
"""
import errno
import os
import sys

import seccomp

CLONE_NEWUSER = 0x10000000
f = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
for call in ("unshare", "clone"):
    f.add_rule(seccomp.ERRNO(errno.EPERM), call, seccomp.Arg(0, seccomp.MASKED_EQ, CLONE_NEWUSER, CLONE_NEWUSER))
# clone3 passes its flags in memory a filter cannot read: make callers fall back to clone.
f.add_rule(seccomp.ERRNO(errno.ENOSYS), "clone3")
f.load()
os.execvp(sys.argv[1], sys.argv[1:])
