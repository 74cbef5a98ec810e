#!/bin/bash
# End-to-end test of the packaged daemon under a real systemd user manager.
#
#   tests/e2e/systemd-e2e.sh [--deb PATH] [--selftest] [--keep] [--dropin FILE]
#
#   --deb PATH   install this .deb instead of building one with packaging/build-deb.sh
#   --selftest   prove the harness only: boot journald and a user manager, run a trivial
#                Type=notify unit and the real unit's sandbox around a stub daemon
#                (tests/e2e/notify_stub.py); needs no .deb
#   --keep       leave the package installed at the end (everything else is cleaned up)
#   --dropin F   install F as a drop-in of healthspool.service (and of the self-test's copy)
#
# Environment: E2E_USER (default hse2e) names the test user, created and removed by the test;
# E2E_MANAGER_WRAPPER is a command to run the user manager under, to imitate other hosts
# (tests/e2e/no_userns.py: a host without user namespaces).
#
# Needs root. Prints "SKIP: <why>" and exits 0 when not root or when systemd, journald or a
# writable cgroup hierarchy are not available. Otherwise ends with "N passed, N failed" and
# exits 1 when anything failed.
#
# On a host whose PID 1 is not systemd (a container, a CI VM) it boots what a login would:
#   - journald (/lib/systemd/systemd-journald), unless one already answers;
#   - /run as a mount point (it is a tmpfs on a real host; the sandbox needs it) and
#     /run/systemd/{system,unit-root} (made by PID 1 on a real host);
#   - a delegated cgroup user.slice/user-UID.slice/user@UID.service in the cgroup2 hierarchy
#     (and in the v1 name=systemd one on a hybrid host), owned by the user;
#   - /run/user/UID as a 0700 tmpfs owned by the user (what logind does);
#   - `systemd --user` as the user, moved into that cgroup first.
# Everything it starts is stopped by PID, and what it made is removed, so a second run works.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
DEB=""
DROPIN_FILE=""
SELFTEST=0
KEEP=0
while [ $# -gt 0 ]; do
    case "$1" in
        --deb) DEB=$(readlink -f "$2"); shift 2 ;;
        --selftest) SELFTEST=1; shift ;;
        --keep) KEEP=1; shift ;;
        --dropin) DROPIN_FILE=$(readlink -f "$2"); shift 2 ;;
        -h|--help) sed -n '2,30p' "$0"; exit 0 ;;
        *) echo "unknown argument: $1" >&2; exit 2 ;;
    esac
done

E2E_USER=${E2E_USER:-hse2e}
PASSED=0
FAILED=0
T0=$(date +%s)

log() { echo "[e2e $(($(date +%s) - T0))s] $*"; }
skip() { echo "SKIP: $*"; exit 0; }
pass() { PASSED=$((PASSED + 1)); echo "PASS: $1"; }
fail() { FAILED=$((FAILED + 1)); echo "FAIL: $1${2:+ — $2}"; }
# check NAME COMMAND...: runs COMMAND, passes when it succeeds.
check() { local name=$1; shift; if "$@"; then pass "$name"; else fail "$name"; fi; }
# wait_for SECONDS COMMAND...: polls COMMAND every half second until it succeeds.
wait_for() {
    local deadline=$(($(date +%s) + $1)); shift
    until "$@"; do
        [ "$(date +%s)" -ge "$deadline" ] && return 1
        sleep 0.5
    done
}

# ---------------------------------------------------------------- prerequisites

[ "$(id -u)" = 0 ] || skip "needs root (creates a user, cgroups and a user manager)"
SYSTEMD_BIN=/lib/systemd/systemd
JOURNALD_BIN=/lib/systemd/systemd-journald
for f in "$SYSTEMD_BIN" "$JOURNALD_BIN"; do [ -x "$f" ] || skip "$f not found (install systemd)"; done
for t in systemctl journalctl systemd-analyze setpriv openssl useradd userdel mountpoint; do
    command -v "$t" >/dev/null || skip "$t not found"
done
PY=/usr/bin/python3
[ -x "$PY" ] || PY=$(command -v python3) || skip "python3 not found"

PID1=$(cat /proc/1/comm 2>/dev/null)
if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
    CG2=/sys/fs/cgroup; CG1=""
elif [ -f /sys/fs/cgroup/unified/cgroup.controllers ]; then
    CG2=/sys/fs/cgroup/unified; CG1=""
    [ -d /sys/fs/cgroup/systemd ] && CG1=/sys/fs/cgroup/systemd
else
    skip "no cgroup2 hierarchy at /sys/fs/cgroup or /sys/fs/cgroup/unified"
fi
if [ "$PID1" != systemd ]; then
    probe="$CG2/hs-e2e-probe.$$"
    mkdir "$probe" 2>/dev/null && rmdir "$probe" || skip "cannot create cgroups under $CG2"
fi

# One run at a time on a machine: the package, the test user, journald and /run are shared.
command -v flock >/dev/null || skip "flock not found"
mkdir -p /run/lock
exec 9>/run/lock/healthspool-e2e.lock
if ! flock -n 9; then
    echo "[e2e] another run holds /run/lock/healthspool-e2e.lock; waiting (up to 20 min)"
    flock -w 1200 9 || { echo "FAIL: another end-to-end run did not finish in 20 min"; echo "0 passed, 1 failed"; exit 1; }
fi

# ---------------------------------------------------------------- state and cleanup

WORK=$(mktemp -d /tmp/hs-e2e.XXXXXX)
chmod 0755 "$WORK"
JOURNALD_PID=""
JOURNALD_CONF=""
FLUSHED_JOURNAL=""
MADE_RUNTIME_JOURNAL=""
MANAGER_PID=""
GATEWAY_PID=""
BOUND_RUN=0
MOUNTED_RUNTIME=0
MADE_CGROUPS=()
MADE_RUN_DIRS=()   # /run/systemd/... directories this run made (sd_booted() looks at one of them)
INSTALLED=0
CREATED_USER=0
U=""; G=""; H=""

cgroup_pids() { for d in "${MADE_CGROUPS[@]}"; do [ -d "$d" ] && find "$d" -name cgroup.procs -exec cat {} + 2>/dev/null; done | sort -u; }

cleanup() {
    set +e
    [ -n "${CLEANED:-}" ] && return
    CLEANED=1
    log "cleaning up"
    [ -n "$GATEWAY_PID" ] && kill "$GATEWAY_PID" 2>/dev/null && wait "$GATEWAY_PID" 2>/dev/null
    if [ "$PID1" = systemd ] && [ -n "$U" ]; then
        systemctl stop "user@$U.service"
    elif [ -n "$MANAGER_PID" ] && kill -0 "$MANAGER_PID" 2>/dev/null; then
        kill -TERM "$MANAGER_PID"
        for _ in $(seq 1 60); do kill -0 "$MANAGER_PID" 2>/dev/null || break; sleep 0.5; done
        kill -0 "$MANAGER_PID" 2>/dev/null && kill -KILL "$MANAGER_PID"
    fi
    # Whatever the manager left in its cgroup was started by this test.
    for pid in $(cgroup_pids); do kill -KILL "$pid" 2>/dev/null; done
    sleep 0.3
    [ "$MOUNTED_RUNTIME" = 1 ] && umount "/run/user/$U"
    [ -n "$U" ] && rm -rf "/run/user/$U"
    for (( i=${#MADE_CGROUPS[@]}-1; i>=0; i-- )); do
        d=${MADE_CGROUPS[$i]}
        [ -d "$d" ] && find "$d" -depth -type d -exec rmdir {} \; 2>/dev/null
    done
    if [ -n "$JOURNALD_PID" ]; then
        kill -TERM "$JOURNALD_PID" 2>/dev/null
        for _ in $(seq 1 20); do kill -0 "$JOURNALD_PID" 2>/dev/null || break; sleep 0.25; done
        kill -0 "$JOURNALD_PID" 2>/dev/null && kill -KILL "$JOURNALD_PID"
        wait "$JOURNALD_PID" 2>/dev/null
    fi
    [ -n "$JOURNALD_CONF" ] && rm -f "$JOURNALD_CONF"
    # The persistent journal files this run made (only when it made the machine's directory).
    [ -n "$FLUSHED_JOURNAL" ] && rm -rf "$FLUSHED_JOURNAL" /run/systemd/journal/flushed
    [ -n "$MADE_RUNTIME_JOURNAL" ] && rm -rf "$MADE_RUNTIME_JOURNAL"
    for d in "${MADE_RUN_DIRS[@]}"; do rm -rf "$d"; done
    [ "$BOUND_RUN" = 1 ] && umount /run
    if [ "$INSTALLED" = 1 ] && [ "$KEEP" = 0 ]; then
        apt-get -o DPkg::Lock::Timeout=600 purge -y healthspool >"$WORK/purge.log" 2>&1
    fi
    [ "$CREATED_USER" = 1 ] && userdel -r "$E2E_USER" 2>/dev/null
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
# finish: cleans up, then prints the summary as the last line and exits (1 on any failure).
finish() {
    cleanup >&2
    trap - EXIT
    echo "$PASSED passed, $FAILED failed"
    [ "$FAILED" = 0 ]
    exit
}

# as_user COMMAND...: runs COMMAND as the test user, in its home, with the environment a
# login session would give it (systemctl --user reaches the manager over
# $XDG_RUNTIME_DIR/systemd/private; there is no D-Bus session needed).
as_user() {
    (cd "$H" && setpriv --reuid="$U" --regid="$G" --init-groups \
        env -i HOME="$H" USER="$E2E_USER" LOGNAME="$E2E_USER" SHELL=/bin/bash \
        PATH=/usr/local/bin:/usr/bin:/bin XDG_RUNTIME_DIR="/run/user/$U" LANG=C.UTF-8 "$@")
}
sysctl_user() { as_user systemctl --user --no-pager "$@"; }
unit_prop() { sysctl_user show -p "$2" --value "$1" 2>/dev/null; }

# ---------------------------------------------------------------- package

if [ "$SELFTEST" = 0 ]; then
    if [ -z "$DEB" ]; then
        log "building the package (packaging/build-deb.sh)"
        if ! "$ROOT/packaging/build-deb.sh" >"$WORK/build.log" 2>&1; then
            tail -30 "$WORK/build.log"
            fail "package builds" "see packaging/build-deb.sh"
            finish
        fi
        DEB=$(ls -t "$ROOT"/dist/healthspool_*_amd64.deb | head -1)
    fi
    if command -v lintian >/dev/null; then
        lint_clean() { lintian --fail-on error,warning "$DEB" >"$WORK/lintian.log" 2>&1 || { cat "$WORK/lintian.log"; return 1; }; }
        check "lintian reports no errors or warnings" lint_clean
    else
        log "lintian not installed: not linting the package"
    fi
    log "installing $DEB"
    if apt-get -o DPkg::Lock::Timeout=600 install -y "$DEB" >"$WORK/install.log" 2>&1; then
        INSTALLED=1; pass "package installs with apt-get"
    else
        tail -20 "$WORK/install.log"; fail "package installs with apt-get"
        finish
    fi
    check "conffile /etc/healthspool/healthspool.conf installed" test -f /etc/healthspool/healthspool.conf
    man_pages_found() { { man -w 1 healthspool && man -w 5 healthspool.conf && man -w 7 healthspool-spool; } >/dev/null 2>&1; }
    check "man finds healthspool(1), healthspool.conf(5), healthspool-spool(7)" man_pages_found
    bash_completion_loads() {
        bash -c '. /usr/share/bash-completion/completions/healthspool && complete -p healthspool' >/dev/null 2>&1
    }
    check "bash completion for healthspool loads" bash_completion_loads
    desktop_entry_valid() {
        test -f /usr/share/applications/healthspool.desktop || return 1
        ! command -v desktop-file-validate >/dev/null || desktop-file-validate /usr/share/applications/healthspool.desktop
    }
    check "the desktop entry \"Health journal\" is installed and valid" desktop_entry_valid
    check "the package enabled healthspool.service for every user (/etc/systemd/user/default.target.wants)" \
        test -L /etc/systemd/user/default.target.wants/healthspool.service
fi

# ---------------------------------------------------------------- user

if id "$E2E_USER" >/dev/null 2>&1; then
    # Only the default name is taken for a leftover of an interrupted run and removed.
    [ "$E2E_USER" = hse2e ] || { fail "test user $E2E_USER is free" "the user exists; name a new one in E2E_USER"; finish; }
    pgrep -u "$E2E_USER" >/dev/null && { fail "test user $E2E_USER is free" "it exists and has processes; end them or set E2E_USER"; finish; }
    userdel -r "$E2E_USER" 2>/dev/null
fi
useradd -m -s /bin/bash "$E2E_USER" || { fail "useradd $E2E_USER"; finish; }
CREATED_USER=1
U=$(id -u "$E2E_USER"); G=$(id -g "$E2E_USER"); H=$(getent passwd "$E2E_USER" | cut -d: -f6)
log "user $E2E_USER uid=$U home=$H"
# Written before the user manager boots: the package enabled the unit for every user, so the
# manager starts the daemon at once. The web interface on a port of its own (8484 may be taken on a shared machine), on the user's
# own loopback address (UserLoopbackAddress: 127.(1 + (uid >> 16) % 254).((uid >> 8) & 255).(uid & 255)).
WEBPORT=$("$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
WEBUID=$(id -u "$U")
WEBADDR="127.$((1 + (WEBUID >> 16) % 254)).$(((WEBUID >> 8) & 255)).$((WEBUID & 255))"
as_user sh -c "mkdir -p '$H/.config/healthspool' && printf '\n[web]\nport = %s\n' $WEBPORT >> '$H/.config/healthspool/healthspool.conf'"

# ---------------------------------------------------------------- journald

journal_answers() {
    local token="hs-e2e-probe-$$-$RANDOM"
    [ -S /run/systemd/journal/socket ] || return 1
    systemd-cat -t hs-e2e-probe echo "$token" 2>/dev/null || return 1
    wait_for 3 sh -c "journalctl --no-pager -q -t hs-e2e-probe -o cat 2>/dev/null | grep -q '$token'"
}
if ! journal_answers; then
    MACHINE_JOURNAL="/var/log/journal/$(cat /etc/machine-id 2>/dev/null)"
    RUNTIME_JOURNAL="/run/log/journal/$(cat /etc/machine-id 2>/dev/null)"
    had_machine_journal=0
    [ -e "$MACHINE_JOURNAL" ] && had_machine_journal=1
    [ -e "$RUNTIME_JOURNAL" ] || MADE_RUNTIME_JOURNAL="$RUNTIME_JOURNAL"
    [ -e /run/systemd/journal ] || MADE_RUN_DIRS+=(/run/systemd/journal)
    mkdir -p /var/log/journal /run/systemd/journal
    # journald rate-limits by *system* unit: everything under the user manager counts as
    # user@UID.service, whose debug logging would have the daemon's entries dropped.
    [ -e /run/systemd/journald.conf.d ] || MADE_RUN_DIRS+=(/run/systemd/journald.conf.d)
    mkdir -p /run/systemd/journald.conf.d
    printf '[Journal]\nRateLimitIntervalSec=0\n' >/run/systemd/journald.conf.d/hs-e2e.conf
    JOURNALD_CONF=/run/systemd/journald.conf.d/hs-e2e.conf
    # Persistent storage from the start, as after systemd-journal-flush.service at boot: then
    # journald splits the journal per user (user-UID.journal) and a user reads their own with
    # journalctl --user. Only when this run makes the machine's journal directory, so that
    # cleaning up removes nobody else's journal.
    if [ "$had_machine_journal" = 0 ] && [ -d /var/log/journal ]; then
        FLUSHED_JOURNAL="$MACHINE_JOURNAL"
        touch /run/systemd/journal/flushed
    fi
    setsid "$JOURNALD_BIN" </dev/null >"$WORK/journald.log" 2>&1 9>&- &
    JOURNALD_PID=$!
    log "started journald (pid $JOURNALD_PID)"
    wait_for 10 journal_answers || { cat "$WORK/journald.log"; fail "journald answers"; finish; }
fi
SINCE="@$(date +%s)"
sleep 1

# ---------------------------------------------------------------- user manager

if [ "$PID1" = systemd ]; then
    # A real systemd host: let PID 1 run user@UID.service as a login would. (Not exercised
    # in the project's VMs, whose PID 1 is not systemd.)
    systemctl start "user@$U.service" || { fail "user@$U.service starts"; finish; }
    MANAGER_PID=$(systemctl show -p MainPID --value "user@$U.service")
else
    if ! mountpoint -q /run; then mount --bind /run /run && BOUND_RUN=1; fi
    for d in /run/systemd/system /run/systemd/unit-root; do
        [ -e "$d" ] || MADE_RUN_DIRS+=("$d")
        mkdir -p "$d"
    done
    mkdir -p /run/user
    mkdir -p "/run/user/$U"
    mount -t tmpfs -o "mode=0700,uid=$U,gid=$G,size=64m" tmpfs "/run/user/$U" && MOUNTED_RUNTIME=1
    chown "$U:$G" "/run/user/$U"; chmod 0700 "/run/user/$U"
    for hier in "$CG2" $CG1; do
        slice="$hier/user.slice/user-$U.slice"
        if [ -d "$hier/user.slice" ]; then MADE_CGROUPS+=("$slice"); else MADE_CGROUPS+=("$hier/user.slice"); fi
        mkdir -p "$slice/user@$U.service"
        chown -R "$U:$G" "$slice/user@$U.service"
    done
    # cgroup v2 delegation: the user also owns the files it writes to move its processes.
    for f in cgroup.procs cgroup.threads cgroup.subtree_control; do
        [ -e "$CG2/user.slice/user-$U.slice/user@$U.service/$f" ] && chown "$U:$G" "$CG2/user.slice/user-$U.slice/user@$U.service/$f"
    done
    (
        echo "$BASHPID" >"$CG2/user.slice/user-$U.slice/user@$U.service/cgroup.procs"
        [ -n "$CG1" ] && echo "$BASHPID" >"$CG1/user.slice/user-$U.slice/user@$U.service/cgroup.procs"
        cd /
        # E2E_MANAGER_WRAPPER: a command to run the manager under, to imitate other hosts
        # (e.g. one where creating user namespaces fails); empty by default.
        exec ${E2E_MANAGER_WRAPPER:-} setpriv --reuid="$U" --regid="$G" --init-groups \
            env -i HOME="$H" USER="$E2E_USER" LOGNAME="$E2E_USER" SHELL=/bin/bash \
            PATH=/usr/local/bin:/usr/bin:/bin XDG_RUNTIME_DIR="/run/user/$U" LANG=C.UTF-8 \
            SYSTEMD_LOG_TARGET=journal "$SYSTEMD_BIN" --user --log-level=debug
    ) </dev/null >"$WORK/manager.log" 2>&1 9>&- &
    MANAGER_PID=$!
    log "started systemd --user (pid $MANAGER_PID)"
fi
manager_up() { case "$(sysctl_user is-system-running 2>/dev/null)" in running|degraded) return 0 ;; *) return 1 ;; esac; }
if wait_for 30 manager_up; then
    pass "systemd --user boots ($(sysctl_user is-system-running))"
else
    cat "$WORK/manager.log"; fail "systemd --user boots"
    finish
fi
# Debug logging (--log-level=debug from its start: the daemon starts with the manager) makes
# the manager journal each sd_notify message it accepts.
as_user systemd-analyze --user log-level debug
manager_saw() { journalctl --no-pager -q --since "$SINCE" _PID="$MANAGER_PID" -o cat 2>/dev/null | grep -q "$1"; }
# journal_cursor: where the journal ends now; manager_saw_after CURSOR PATTERN looks only past it.
journal_cursor() { journalctl --no-pager -q -n 0 --show-cursor 2>/dev/null | sed -n 's/^-- cursor: //p'; }
manager_saw_after() { journalctl --no-pager -q --after-cursor "$1" _PID="$MANAGER_PID" -o cat 2>/dev/null | grep -q "$2"; }

# ---------------------------------------------------------------- self-test

if [ "$SELFTEST" = 1 ]; then
    mkdir -p "$H/.config/systemd/user" "$H/.e2e"
    cat >"$H/.e2e/trivial.sh" <<'EOF'
#!/bin/sh
echo "trivial: starting"
systemd-notify --ready --status="Idle: trivial notify service"
trap 'echo "trivial: stopping"; exit 0' TERM
while :; do sleep 1; done
EOF
    chmod 0755 "$H/.e2e/trivial.sh"
    printf '[Service]\nType=notify\nNotifyAccess=all\nExecStart=%s\n' "$H/.e2e/trivial.sh" >"$H/.config/systemd/user/e2e-trivial.service"
    cp "$HERE/notify_stub.py" "$H/.e2e/notify_stub.py"
    sed "s#^ExecStart=.*#ExecStart=$PY $H/.e2e/notify_stub.py#" "$ROOT/etc/systemd/user/healthspool.service" \
        >"$H/.config/systemd/user/e2e-sandbox.service"
    if [ -n "$DROPIN_FILE" ]; then
        mkdir -p "$H/.config/systemd/user/e2e-sandbox.service.d"
        cp "$DROPIN_FILE" "$H/.config/systemd/user/e2e-sandbox.service.d/"
    fi
    chown -R "$U:$G" "$H/.config" "$H/.e2e"
    sysctl_user daemon-reload

    check "trivial Type=notify unit starts" sysctl_user start e2e-trivial.service
    trivial_status() { sysctl_user status e2e-trivial.service | grep -q 'Status: "Idle: trivial notify service"'; }
    check "systemctl --user status shows the STATUS= line" trivial_status
    sysctl_user stop e2e-trivial.service
    check "trivial unit stops cleanly" test "$(unit_prop e2e-trivial.service Result)" = success

    check "healthspool.service sandbox starts around a stub (PrivateUsers, ProtectSystem=strict …)" sysctl_user start e2e-sandbox.service
    sleep 1
    check "sandbox leaves exactly the intended paths writable" wait_for 10 sh -c "journalctl --no-pager -q --since '$SINCE' _SYSTEMD_USER_UNIT=e2e-sandbox.service -o cat | grep -q 'stub: sandbox ok'"
    main_pid=$(unit_prop e2e-sandbox.service MainPID)
    [ "$main_pid" != 0 ] || main_pid=self-not-running
    check "stub runs in its own user and mount namespace" sh -c "[ \"\$(readlink /proc/$main_pid/ns/user)\" != \"\$(readlink /proc/self/ns/user)\" ] && [ \"\$(readlink /proc/$main_pid/ns/mnt)\" != \"\$(readlink /proc/self/ns/mnt)\" ]"
    check "stub has no capabilities in its bounding set" sh -c "grep -q '^CapBnd:[[:space:]]*0000000000000000' /proc/$main_pid/status"
    check "stub runs with a seccomp filter and NoNewPrivs" sh -c "grep -q '^Seccomp:[[:space:]]*2' /proc/$main_pid/status && grep -q '^NoNewPrivs:[[:space:]]*1' /proc/$main_pid/status"
    exposure=$(as_user systemd-analyze security --user e2e-sandbox.service 2>/dev/null | sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p')
    check "systemd-analyze security --user: exposure ${exposure:-?} is at most 2.0" awk -v e="${exposure:-99}" 'BEGIN { exit !(e <= 2.0) }'
    sysctl_user stop e2e-sandbox.service
    check "stub stop is clean (Result=success, status 0)" test "$(unit_prop e2e-sandbox.service Result)/$(unit_prop e2e-sandbox.service ExecMainStatus)" = success/0
    check "manager saw STOPPING=1 from the stub" wait_for 10 manager_saw "e2e-sandbox.service: Got notification message .*STOPPING=1"
    finish
fi

# ---------------------------------------------------------------- the real thing

check "systemd-analyze verify passes on the installed unit" \
    as_user systemd-analyze verify --user /usr/lib/systemd/user/healthspool.service

# Gateway: a CA made here, a server certificate for 127.0.0.1 signed by it.
mkdir -p "$WORK/gw"
(
    cd "$WORK/gw" || exit 1
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout ca.key -out ca.pem \
        -days 2 -subj "/CN=healthspool e2e CA" -addext "basicConstraints=critical,CA:TRUE" \
        -addext "keyUsage=critical,keyCertSign,cRLSign" &&
    openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout server.key -out server.csr \
        -subj "/CN=127.0.0.1" &&
    printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' >ext.cnf &&
    openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 2 -extfile ext.cnf
) >"$WORK/openssl.log" 2>&1 || { cat "$WORK/openssl.log"; fail "test CA and server certificate"; }
RECORD="$WORK/gw/received.jsonl"
"$PY" "$HERE/recording_gateway.py" --cert "$WORK/gw/server.pem" --key "$WORK/gw/server.key" \
    --out "$RECORD" --port-file "$WORK/gw/port" --max-seconds 1200 >"$WORK/gateway.log" 2>&1 9>&- &
GATEWAY_PID=$!
wait_for 10 test -s "$WORK/gw/port" || { cat "$WORK/gateway.log"; fail "gateway starts"; finish; }
PORT=$(cat "$WORK/gw/port")
install -o "$U" -g "$G" -m 0644 "$WORK/gw/ca.pem" "$H/e2e-ca.pem"
log "gateway on https://127.0.0.1:$PORT/ingest"

check "healthspool gateway set (as the user)" \
    as_user healthspool gateway set "https://127.0.0.1:$PORT/ingest" --ca-file "$H/e2e-ca.pem"

if [ -n "$DROPIN_FILE" ]; then
    mkdir -p "$H/.config/systemd/user/healthspool.service.d"
    cp "$DROPIN_FILE" "$H/.config/systemd/user/healthspool.service.d/"
    chown -R "$U:$G" "$H/.config/systemd"
    log "drop-in $DROPIN_FILE installed"
    sysctl_user daemon-reload
    sysctl_user restart healthspool.service
fi
check "systemctl --user is-enabled healthspool: enabled by the package, nothing run by the user" \
    test "$(sysctl_user is-enabled healthspool.service 2>&1)" = enabled
running() { [ "$(unit_prop healthspool.service ActiveState)/$(unit_prop healthspool.service SubState)" = active/running ]; }
if wait_for 30 running; then pass "the user manager started the unit at login: active (running)"; else
    sysctl_user status healthspool.service; fail "the user manager started the unit at login: active (running)"; fi
check "manager saw READY=1 from the main PID" wait_for 10 manager_saw "healthspool.service: Got notification message .*READY=1"
status_line() { sysctl_user status healthspool.service | grep -E '^ +Status: "' ; }
if wait_for 10 status_line >/dev/null; then pass "systemctl --user status shows the daemon's status line: $(status_line | sed 's/^ *//')"
else sysctl_user status healthspool.service; fail "systemctl --user status shows the daemon's status line"; fi

# Drop an export the way a sync tool does: write a temporary name, then rename.
drop() { # drop NAME < CONTENT
    as_user sh -c "umask 077; mkdir -p '$H/HealthSpool' && cat > '$H/HealthSpool/.$1.tmp' && mv '$H/HealthSpool/.$1.tmp' '$H/HealthSpool/$1'"
}
received() { # received SOURCE [VALUE]: "distinct total" of received heartRate samples from SOURCE
    "$PY" - "$RECORD" "$1" "${2:-}" <<'EOF'
import json, sys
path, source, value = sys.argv[1], sys.argv[2], sys.argv[3]
def samples(body):
    if isinstance(body, list):
        for b in body: yield from samples(b)
    elif isinstance(body, dict):
        if "samples" in body: yield from body["samples"]
        elif "records" in body:
            for r in body["records"]: yield from samples(r.get("value"))
        elif "value" in body and isinstance(body["value"], dict) and "data" in body["value"]:
            yield from samples(body["value"]["data"])
def src(s):
    v = s.get("source")
    return v.get("name") if isinstance(v, dict) else v
seen, total = set(), 0
for line in open(path, encoding="utf-8"):
    for s in samples(json.loads(line)["body"]):
        t = str(s.get("type", ""))
        if not (t == "heartRate" or t.endswith("HeartRate")) or src(s) != source: continue
        if value and float(s.get("value", "nan")) != float(value): continue
        total += 1
        seen.add(s.get("id") or (s.get("startDate"), s.get("value")))
print(len(seen), total)
EOF
}
got_at_least() { local distinct; read -r distinct _ < <(received "$1" "${3:-}"); [ "${distinct:-0}" -ge "$2" ]; }

drop e2e-1.json <<<'[{"type":"heartRate","value":61,"unit":"count/min","startDate":"2026-01-01T10:00:00Z","source":"e2e"}]'
if wait_for 90 got_at_least e2e 1 61; then pass "gateway received the dropped sample (heartRate 61 from e2e)"
else fail "gateway received the dropped sample" "$(wc -l <"$RECORD") requests recorded; see journalctl _SYSTEMD_USER_UNIT=healthspool.service"; fi
check "e2e-1.json left the spool (archived or deleted), nothing in failed/" \
    wait_for 15 sh -c "[ ! -e '$H/HealthSpool/e2e-1.json' ] && [ -z \"\$(ls -A '$H/HealthSpool/failed' 2>/dev/null)\" ]"

# The CLI reaches the sandboxed daemon over its control socket ($XDG_RUNTIME_DIR/healthspool).
status_sees_daemon() {
    as_user healthspool status --json 2>/dev/null | "$PY" -c '
import json, sys
d = json.load(sys.stdin)["daemon"]
sys.exit(0 if d.get("running") and d.get("pid") == int(sys.argv[1]) else 1)' "$(unit_prop healthspool.service MainPID)"
}
check "healthspool status (as the user) sees the daemon running with the unit's main PID" status_sees_daemon
socket_answers() {
    as_user "$PY" -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.settimeout(5)
s.connect(sys.argv[1])' "/run/user/$U/healthspool/control.sock"
}
check "the daemon's control socket accepts the user's connections from outside the sandbox" socket_answers
manual_sync() { local out; out=$(as_user healthspool sync --json 2>&1) && echo "$out" | grep -q '"outcome"'; }
check "healthspool sync (as the user) completes" manual_sync
# The packaged unit serves the web interface: `healthspool ui --no-open` prints the login link,
# curl as the user follows it (the session cookie set on the redirect) to the home page (Today);
# without it, 401. Another user (root here) gets 403 even with the link: pages answer only the
# owner's connections.
ui_serves() {
    local link code page
    link=$(as_user healthspool ui --no-open 2>"$WORK/ui.err" | head -1)
    case "$link" in "http://$WEBADDR:$WEBPORT/login?token="*) ;; *) echo "healthspool ui printed: $link; on stderr: $(cat "$WORK/ui.err")"; return 1 ;; esac
    code=$(as_user curl -s -o /dev/null -w '%{http_code}' "http://$WEBADDR:$WEBPORT/")
    [ "$code" = 401 ] || { echo "without the cookie: $code"; return 1; }
    code=$(curl -s -o /dev/null -w '%{http_code}' "$link")
    [ "$code" = 403 ] || { echo "another user with the link: $code"; return 1; }
    page=$(as_user curl -sS -L -b "" -w '\n%{http_code}' "$link")
    code=${page##*$'\n'}
    [ "$code" = 200 ] && grep -q '<h1>Today</h1>' <<<"$page" || { echo "with the link: $code"; return 1; }
}
web_listening() { curl -s -o /dev/null "http://$WEBADDR:$WEBPORT/"; }
wait_for 15 web_listening
check "healthspool ui's link opens the home page (200) of the packaged unit; 401 without the cookie; 403 for another user" ui_serves

# The application menu's "Health journal", as a person clicks it: the installed desktop entry's
# Exec= line run as the user, with tests/e2e/browser_standin.py as xdg-open (it follows the
# page's meta refreshes as a browser does and fetches the login link with a cookie jar).
MENU_EXEC=$(sed -n 's/^Exec=//p' /usr/share/applications/healthspool.desktop)
mkdir -p "$H/.e2e-bin"
install -m 0755 "$HERE/browser_standin.py" "$H/.e2e-bin/browser_standin.py"
# The wrapper keeps the page as it was when the browser was opened (BROWSER_OUT.first) before
# Python starts: on a quiet machine the service can be up before the stand-in reads the file.
printf '#!/bin/sh\ncp "$1" "$BROWSER_OUT.first" 2>/dev/null\nexec %s %s "$1" "$BROWSER_OUT" </dev/null >>%s 2>&1\n' \
    "$PY" "$H/.e2e-bin/browser_standin.py" "$H/.e2e-bin/browser.log" >"$H/.e2e-bin/xdg-open"
chmod 0755 "$H/.e2e-bin/xdg-open"
chown -R "$U:$G" "$H/.e2e-bin"
# menu_opens NAME: runs the menu's command; passes when the stand-in reached the home page.
menu_opens() {
    local out="$H/.e2e-bin/$1.json"
    rm -f "$out" "$out.first"
    MENU_T0=$(date +%s.%N)
    as_user env PATH="$H/.e2e-bin:/usr/local/bin:/usr/bin:/bin" BROWSER_OUT="$out" sh -c "$MENU_EXEC" \
        >"$WORK/menu-$1.out" 2>"$WORK/menu-$1.err"
    MENU_RC=$?
    wait_for 160 test -s "$out" || { echo "no browser record; ui exited $MENU_RC: $(cat "$WORK/menu-$1.err")"; return 1; }
    MENU_SECS=$(awk -v a="$MENU_T0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    "$PY" - "$out" "http://$WEBADDR:$WEBPORT/" <<'EOF' || { echo "ui exited $MENU_RC; stderr: $(cat "$WORK/menu-$1.err")"; return 1; }
import json, sys
r = json.load(open(sys.argv[1]))
ok = r["home"] and r["status"] == 200 and str(r["url"]).startswith(sys.argv[2])
if not ok:
    print("browser stand-in:", json.dumps(r)[:1500])
sys.exit(0 if ok else 1)
EOF
}
if menu_opens login; then pass "Health journal from the menu opens the logged-in home page ($MENU_SECS s; the daemon started at login)"
else fail "Health journal from the menu opens the logged-in home page (the daemon started at login)"; fi
# A user logged in before the package was installed (or who stopped the service): no daemon
# runs, and the menu entry starts it, with a page that says so until the journal answers.
sysctl_user stop healthspool.service
if menu_opens stopped; then pass "with the service stopped, Health journal from the menu starts it and opens the home page ($MENU_SECS s)"
else fail "with the service stopped, Health journal from the menu starts it and opens the home page"; fi
check "ui said on stderr that it is starting the service" grep -q "starting the healthspool service" "$WORK/menu-stopped.err"
saw_starting() { "$PY" -c 'import re, sys; t = re.search(r"<title>(.*?)</title>", open(sys.argv[1], encoding="utf-8").read()); sys.exit(0 if t and t.group(1) == "Starting your health journal…" else 1)' "$H/.e2e-bin/stopped.json.first"; }
check "the browser was shown \"Starting your health journal…\" first" saw_starting
check "the service ui started is active (running)" running

# Structured journal fields, as root (a user reads them with journalctl --user -u healthspool
# once the journal is persistent and split per user).
journal_has() { # journal_has EVENT [FILE-SUBSTRING]
    journalctl --no-pager -q --since "$SINCE" _SYSTEMD_USER_UNIT=healthspool.service -o json 2>/dev/null |
        "$PY" -c '
import json, sys
event, file = sys.argv[1], sys.argv[2]
for line in sys.stdin:
    e = json.loads(line)
    if e.get("HEALTHSPOOL_EVENT") != event: continue
    if file and (file not in str(e.get("HEALTHSPOOL_FILE", "")) or "HEALTHSPOOL_COUNT" not in e): continue
    sys.exit(0)
sys.exit(1)' "$1" "${2:-}"
}
journal_diagnostics() {
    echo "--- journal diagnostics: entries of healthspool.service since $SINCE, by HEALTHSPOOL_EVENT"
    journalctl --no-pager -q --since "$SINCE" _SYSTEMD_USER_UNIT=healthspool.service -o json 2>&1 |
        "$PY" -c '
import collections, json, sys
c = collections.Counter()
for line in sys.stdin:
    try: c[json.loads(line).get("HEALTHSPOOL_EVENT", "-")] += 1
    except ValueError: c["(not JSON: %s)" % line[:80]] += 1
print(dict(c))'
    echo "--- journald's own messages"
    journalctl --no-pager -q --since "$SINCE" -t systemd-journald -o cat 2>&1 | tail -5
    echo "--- entries with HEALTHSPOOL_EVENT=import, any unit"
    journalctl --no-pager -q --since "$SINCE" HEALTHSPOOL_EVENT=import -o json 2>&1 | "$PY" -c '
import json, sys
for line in sys.stdin:
    e = json.loads(line)
    print({k: e.get(k) for k in ("_PID", "_UID", "_SYSTEMD_UNIT", "_SYSTEMD_USER_UNIT", "_SYSTEMD_CGROUP", "_TRANSPORT", "HEALTHSPOOL_FILE")})'
    journalctl --no-pager -q --since "$SINCE" -u "user@$U.service" -n 5 -o short 2>&1 | cut -c1-160
    ls -la /var/log/journal/*/ /run/log/journal/*/ 2>&1 | head -12
}
if wait_for 10 journal_has import e2e-1.json; then
    pass "journal: HEALTHSPOOL_EVENT=import with HEALTHSPOOL_FILE=…e2e-1.json and HEALTHSPOOL_COUNT"
else
    journal_diagnostics
    fail "journal: HEALTHSPOOL_EVENT=import with HEALTHSPOOL_FILE=…e2e-1.json and HEALTHSPOOL_COUNT"
fi
check "journal: HEALTHSPOOL_EVENT=sync" wait_for 10 journal_has sync
if [ -n "$FLUSHED_JOURNAL" ]; then
    user_journal_has_import() {
        as_user journalctl --user -u healthspool --no-pager -q --since "$SINCE" -o json 2>/dev/null |
            grep -q '"HEALTHSPOOL_EVENT":"import"'
    }
    if wait_for 10 user_journal_has_import; then pass "journalctl --user -u healthspool (as the user) shows HEALTHSPOOL_EVENT=import"
    else
        ls -la "$FLUSHED_JOURNAL"; as_user journalctl --user -u healthspool --no-pager --since "$SINCE" -n 5 2>&1 | tail -5
        fail "journalctl --user -u healthspool (as the user) shows HEALTHSPOOL_EVENT=import"
    fi
fi
check "manager saw WATCHDOG=1 keep-alives (WatchdogSec=30)" wait_for 20 manager_saw "healthspool.service: Got notification message .*WATCHDOG=1"

# systemctl reload: ExecReload sends SIGHUP, the daemon rereads its settings and keeps running.
PID_BEFORE=$(unit_prop healthspool.service MainPID)
sysctl_user reload healthspool.service
sleep 1
same_pid_running() { [ "$(unit_prop healthspool.service MainPID)" = "$PID_BEFORE" ] && running; }
check "systemctl --user reload keeps the same main PID running" same_pid_running
check "journal: HEALTHSPOOL_EVENT=reload" wait_for 10 journal_has reload

# kill -9: Restart=on-failure brings it back and nothing is lost.
OLD_PID=$(unit_prop healthspool.service MainPID)
RESTARTS=$(unit_prop healthspool.service NRestarts)
"$PY" -c '
import json
print(json.dumps([{"type":"heartRate","value":70 + i % 50,"unit":"count/min",
  "startDate":"2026-01-02T%02d:%02d:00Z" % (i // 60, i % 60),"source":"e2e-kill"} for i in range(300)]))' >"$WORK/e2e-2.json"
drop e2e-2.json <"$WORK/e2e-2.json"
sleep 0.2
kill -KILL "$OLD_PID"
log "killed main PID $OLD_PID with SIGKILL"
restarted() { local p; p=$(unit_prop healthspool.service MainPID); [ "$p" != 0 ] && [ "$p" != "$OLD_PID" ] && running; }
if wait_for 30 restarted; then pass "restarted after kill -9 (NRestarts $RESTARTS → $(unit_prop healthspool.service NRestarts))"
else sysctl_user status healthspool.service; fail "restarted after kill -9"; fi
if wait_for 120 got_at_least e2e-kill 300; then pass "all 300 samples of the export dropped at the kill reached the gateway"
else fail "all 300 samples of the export dropped at the kill reached the gateway" "got $(received e2e-kill | cut -d' ' -f1) distinct"; fi
read -r _ sent_total < <(received e2e 61)
check "the sample synced before the kill was sent once (received ${sent_total}×)" test "$sent_total" = 1

# The watchdog: with a 4 s WatchdogSec (a drop-in, so the test is quick) the daemon keeps it fed
# (it must ping at the pace WATCHDOG_USEC asks), and a hung daemon (SIGSTOP) is killed and
# restarted.
DROPIN="$H/.config/systemd/user/healthspool.service.d"
mkdir -p "$DROPIN"
printf '[Service]\nWatchdogSec=4\nTimeoutAbortSec=2\n' >"$DROPIN/e2e-watchdog.conf"
chown -R "$U:$G" "$H/.config/systemd"
sysctl_user daemon-reload
sysctl_user restart healthspool.service
wait_for 30 running
OLD_PID=$(unit_prop healthspool.service MainPID)
RESTARTS=$(unit_prop healthspool.service NRestarts)
sleep 10
check "daemon keeps a 4 s watchdog fed for 10 s (same PID, no restart)" \
    test "$(unit_prop healthspool.service MainPID)/$(unit_prop healthspool.service NRestarts)" = "$OLD_PID/$RESTARTS"
kill -STOP "$OLD_PID"
log "stopped main PID $OLD_PID with SIGSTOP"
if wait_for 30 restarted; then pass "a hung daemon is restarted by the watchdog (NRestarts $RESTARTS → $(unit_prop healthspool.service NRestarts))"
else kill -CONT "$OLD_PID" 2>/dev/null; sysctl_user status healthspool.service; fail "a hung daemon is restarted by the watchdog"; fi
check "manager logged the watchdog timeout" wait_for 10 manager_saw "healthspool.service: Watchdog timeout"
rm -f "$DROPIN/e2e-watchdog.conf"
sysctl_user daemon-reload
sysctl_user restart healthspool.service
wait_for 30 running

# A clean stop: STOPPING=1, exit 0.
STOP_PID=$(unit_prop healthspool.service MainPID)
STOP_CURSOR=$(journal_cursor)
STOP_T0=$(date +%s)
sysctl_user stop healthspool.service
STOP_SECS=$(($(date +%s) - STOP_T0))
R="$(unit_prop healthspool.service Result) $(unit_prop healthspool.service ExecMainCode) $(unit_prop healthspool.service ExecMainStatus)"
check "systemctl --user stop is clean in ${STOP_SECS}s (Result ExecMainCode ExecMainStatus = $R)" test "$R" = "success 1 0"
check "manager saw STOPPING=1 from the daemon's main PID" \
    wait_for 10 manager_saw_after "$STOP_CURSOR" "healthspool.service: Got notification message from PID $STOP_PID .*STOPPING=1"

# A clean journal: every entry the daemon's processes wrote during the whole run (starts,
# imports, syncs, reload, kill -9, the watchdog restart, the stop) is one of healthspool's own
# lines: sent with sd_journal_sendv (_TRANSPORT=journal) as SYSLOG_IDENTIFIER=healthspool with
# HEALTHSPOOL_* fields. Anything else in the unit's cgroup fails the test: a line on stderr from
# the Swift runtime or libdispatch (under a syscall filter that refuses setpriority, each worker
# thread wrote "Failed to set thread priority for worker thread: pqc=… errno=1"), from a library,
# or a crash report. systemd's own lines about the unit are left out: the manager's come from
# outside that cgroup, and its executor's (forked into the cgroup to set up the sandbox before
# the exec, "(lthspool)" in the listing) have _EXE=…/systemd — or, when journald reads the
# sender's /proc/PID/exe only after the exec (a busy machine: issue 41 saw "(mkdir)[2202]"
# lines with _EXE=/usr/bin/mkdir), the executor's name in parentheses as SYSLOG_IDENTIFIER.
foreign_lines() {
    journalctl --no-pager -q --since "$SINCE" _SYSTEMD_USER_UNIT=healthspool.service -o json 2>/dev/null | "$PY" -c '
import json, sys
bad = []
for line in sys.stdin:
    e = json.loads(line)
    ident = str(e.get("SYSLOG_IDENTIFIER") or "")
    if str(e.get("_EXE", "")).endswith("/systemd") or (ident.startswith("(") and ident.endswith(")")):
        continue
    own = (e.get("_TRANSPORT") == "journal" and e.get("SYSLOG_IDENTIFIER") == "healthspool"
           and any(k.startswith("HEALTHSPOOL_") for k in e))
    if not own:
        m = e.get("MESSAGE")
        if isinstance(m, list):
            m = bytes(m).decode("utf-8", "replace")
        bad.append("%s[%s] (%s, %s): %s" % (e.get("SYSLOG_IDENTIFIER") or e.get("_COMM"), e.get("_PID"), e.get("_TRANSPORT"),
                                           e.get("_EXE"), m))
for b in bad[:20]:
    print("    " + b)
if len(bad) > 20:
    print("    … %d more" % (len(bad) - 20))
sys.exit(1 if bad else 0)'
}
own_lines=$(journalctl --no-pager -q --since "$SINCE" _SYSTEMD_USER_UNIT=healthspool.service SYSLOG_IDENTIFIER=healthspool -o cat 2>/dev/null | wc -l)
if foreign=$(foreign_lines); then
    pass "journal: all $own_lines lines of the unit's processes are healthspool's own structured lines"
else
    echo "$foreign"
    fail "journal: all lines of the unit's processes are healthspool's own structured lines" "the lines above are not"
fi

if [ "$KEEP" = 0 ]; then
    sysctl_user disable healthspool.service >/dev/null 2>&1
    if apt-get -o DPkg::Lock::Timeout=600 purge -y healthspool >"$WORK/purge.log" 2>&1; then
        INSTALLED=0
        check "apt-get purge removes /etc/healthspool and the binary" sh -c '[ ! -e /etc/healthspool ] && [ ! -e /usr/bin/healthspool ]'
        check "apt-get purge removes the unit's enabling link and leaves no mask" \
            sh -c '[ ! -L /etc/systemd/user/default.target.wants/healthspool.service ] && [ ! -L /etc/systemd/user/healthspool.service ]'
    else
        tail -20 "$WORK/purge.log"; fail "apt-get purge healthspool"
    fi
fi

log "done in $(($(date +%s) - T0))s"
finish
