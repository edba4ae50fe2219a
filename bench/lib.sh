# bench/lib.sh -- what peer-bench.sh and frame-bench.sh share: building the C tools, a fresh
# Xvfb per run, launching the app under tools/benchlaunch, stopping both, /proc readings.
# Sourced; expects HERE, BUILD, TIMEOUT, QUIET_MS and SCREEN to be set.

XVFB_PID=""; APP_PGID=""; LAUNCH_PID=""; TMP=""

build_tool() {   # build_tool NAME LIBS...: tools/NAME.c -> .build/NAME when missing or older
    local n="$1"; shift
    mkdir -p "$BUILD"
    if [[ ! -x "$BUILD/$n" || "$HERE/tools/$n.c" -nt "$BUILD/$n" || "$HERE/tools/proc.h" -nt "$BUILD/$n" ]]; then
        gcc -O2 -Wall -o "$BUILD/$n.tmp.$$" "$HERE/tools/$n.c" "$@" && mv -f "$BUILD/$n.tmp.$$" "$BUILD/$n"
    fi
}
alive() {   # alive PID: running and not a zombie
    local st
    st="$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)" || return 1
    [[ -n "$st" && "$st" != Z ]]
}
stop_app() {
    if [[ -n "$APP_PGID" ]]; then
        kill -TERM -- "-$APP_PGID" 2>/dev/null || true
        for _ in $(seq 1 30); do alive "$APP_PGID" || break; sleep 0.1; done
        kill -KILL -- "-$APP_PGID" 2>/dev/null || true
    fi
    if [[ -n "$LAUNCH_PID" ]]; then wait "$LAUNCH_PID" 2>/dev/null || true; fi
    APP_PGID=""; LAUNCH_PID=""
}
stop_xvfb() {
    if [[ -n "$XVFB_PID" ]]; then
        kill -TERM "$XVFB_PID" 2>/dev/null || true
        wait "$XVFB_PID" 2>/dev/null || true
    fi
    XVFB_PID=""
}
cleanup() { stop_app; stop_xvfb; [[ -n "$TMP" ]] && rm -rf "$TMP"; TMP=""; }
trap cleanup EXIT
trap 'exit 130' INT TERM

kv() { sed -n "s/^$2=//p" "$1" | head -n1; }   # kv FILE KEY
hwm_kb() { awk '/^VmHWM:/{print $2}' "/proc/$1/status" 2>/dev/null || echo NA; }
rss_kb() { awk '/^VmRSS:/{print $2}' "/proc/$1/status" 2>/dev/null || echo NA; }
sys_busy() { awk '/^cpu /{print $2+$3+$4+$7+$8+$9}' /proc/stat; }   # all-CPU busy jiffies

start_xvfb() {   # start_xvfb: a fresh Xvfb in $TMP (made here); sets XVFB_PID and DISPLAY_USED
    TMP="$(mktemp -d /tmp/bench.XXXXXX)"
    mkdir -m 700 "$TMP/xdg"
    # -displayfd lets the server pick a free display number atomically
    Xvfb -displayfd 3 -screen 0 "$SCREEN" -nolisten tcp -noreset 3>"$TMP/displayfd" 2>"$TMP/xvfb.log" &
    XVFB_PID=$!
    for _ in $(seq 1 100); do [[ -s "$TMP/displayfd" ]] && break; sleep 0.05; done
    local dnum; dnum="$(tr -dc 0-9 < "$TMP/displayfd")"
    [[ -n "$dnum" ]] || { echo "Xvfb did not start: $(cat "$TMP/xvfb.log")" >&2; exit 4; }
    DISPLAY_USED=":$dnum"
}
launch_app() {   # launch_app APP_LOG CMD...: benchlaunch on DISPLAY_USED; $TMP/launch.kv, APP_PGID
    local log="$1"; shift
    DISPLAY="$DISPLAY_USED" XDG_RUNTIME_DIR="$TMP/xdg" "$BUILD/benchlaunch" --out "$TMP/launch.kv" \
        --app-log "$log" --timeout "$TIMEOUT" --quiet-ms "$QUIET_MS" -- "$@" &
    LAUNCH_PID=$!
    for _ in $(seq 1 $((TIMEOUT * 20 + 200))); do
        [[ -s "$TMP/launch.kv" ]] && break
        alive "$LAUNCH_PID" || break
        sleep 0.05
    done
    [[ -s "$TMP/launch.kv" ]] || { echo "benchlaunch produced no result" >&2; exit 5; }
    APP_PGID="$(kv "$TMP/launch.kv" pid)"
}
