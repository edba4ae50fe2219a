#!/usr/bin/env bash
# peer-bench.sh -- benchmark any X11 GUI command under a fresh Xvfb per run.
#
#   bench/peer-bench.sh [options] -- command [args...]
#
# Per run (a fresh Xvfb each time): startup (exec -> first top-level window
# mapped / drawn / drawing settled), VmHWM after startup, idle CPU over
# --idle seconds, a burst drag of --events XTEST motions with button 1 held,
# a paced drag of --events motions at --paced-rate Hz, VmHWM after the
# workload, window screenshots.  Prints one result block (median, min, max
# over the measured runs).  See bench/README.md.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
BUILD="$HERE/.build"

RUNS=5
WARMUP=1
EVENTS=2000
PACED_RATE=500
IDLE_S=5
SETTLE_S=1
SCREEN=1280x800x24
NAME=""
OUTDIR="$HERE/results"
TIMEOUT=30
QUIET_MS=300
PYTHON=/usr/bin/python3
BURST_SYNC=1
APPEND=0
SUMMARIZE=0

usage() {
    cat >&2 <<EOF
usage: $0 [options] -- command [args...]
  --name NAME          label for the result block and output folder (default: basename of command)
  --runs N             measured runs (default $RUNS)
  --warmup N           discarded warm-up runs before them (default $WARMUP)
  --events N           XTEST motion events per drag (default $EVENTS)
  --paced-rate HZ      rate of the second, paced drag; 0 skips it (default $PACED_RATE)
  --burst-sync-every K burst drag: XSync after every K motions (default $BURST_SYNC; larger = events pile up in the app's queue)
  --idle S             idle CPU window in seconds (default $IDLE_S)
  --settle S           pause after startup before measuring RSS/idle (default $SETTLE_S)
  --screen WxHxD       Xvfb screen (default $SCREEN)
  --timeout S          max seconds to wait for the first window (default $TIMEOUT)
  --quiet-ms MS        startup 'settled' = no window damage for MS (default $QUIET_MS)
  --outdir DIR         where NAME/ (runs.tsv, logs, screenshots, result.txt) goes (default $OUTDIR)
  --append             add runs to an existing NAME/runs.tsv instead of starting it afresh
                       (interleave several apps round by round: see run-peers.sh)
  --summarize          run nothing; print the result block of NAME/runs.tsv (command not needed)
EOF
    exit 2
}

while [[ $# -gt 0 ]]; do
    case "$1" in
        --name) NAME="$2"; shift 2 ;;
        --runs) RUNS="$2"; shift 2 ;;
        --warmup) WARMUP="$2"; shift 2 ;;
        --events) EVENTS="$2"; shift 2 ;;
        --paced-rate) PACED_RATE="$2"; shift 2 ;;
        --burst-sync-every) BURST_SYNC="$2"; shift 2 ;;
        --idle) IDLE_S="$2"; shift 2 ;;
        --settle) SETTLE_S="$2"; shift 2 ;;
        --screen) SCREEN="$2"; shift 2 ;;
        --timeout) TIMEOUT="$2"; shift 2 ;;
        --quiet-ms) QUIET_MS="$2"; shift 2 ;;
        --outdir) OUTDIR="$2"; shift 2 ;;
        --append) APPEND=1; shift ;;
        --summarize) SUMMARIZE=1; shift ;;
        --) shift; break ;;
        -h|--help) usage ;;
        *) echo "unknown option: $1" >&2; usage ;;
    esac
done
if [[ "$SUMMARIZE" == 1 ]]; then
    [[ -n "$NAME" ]] || { echo "--summarize needs --name" >&2; exit 2; }
    OUT="$OUTDIR/$NAME"
    [[ -s "$OUT/runs.tsv" && -s "$OUT/meta.sh" ]] || { echo "no runs in $OUT" >&2; exit 2; }
    PYTHON_=$PYTHON; [[ -x "$PYTHON_" ]] || PYTHON_="$(command -v python3)"
    # shellcheck disable=SC1091
    source "$OUT/meta.sh"
    "$PYTHON_" "$HERE/tools/aggregate.py" --tsv "$OUT/runs.tsv" --name "$NAME" --cmd "$M_CMD" \
        --title "$M_TITLE" --pid-source "$M_PID_SOURCE" --screen "$M_SCREEN" --events "$M_EVENTS" \
        --paced-rate "$M_PACED_RATE" --idle "$M_IDLE" --outdir "$OUT" | tee "$OUT/result.txt"
    exit 0
fi
[[ $# -gt 0 ]] || usage
CMD=("$@")
[[ -n "$NAME" ]] || NAME="$(basename "$1")"

# ---- prerequisites / build ------------------------------------------------
need=(Xvfb xwd convert gcc)
for b in "${need[@]}"; do
    command -v "$b" >/dev/null || { echo "missing $b: run bench/install-deps.sh" >&2; exit 3; }
done
[[ -x "$PYTHON" ]] || PYTHON="$(command -v python3)"
# shellcheck source=bench/lib.sh
source "$HERE/lib.sh"
build_tool benchlaunch -lX11 -lXdamage -lXfixes
build_tool xdrive -lX11 -lXi -lXtst -lm

OUT="$OUTDIR/$NAME"
mkdir -p "$OUT"
TSV="$OUT/runs.tsv"
[[ "$APPEND" == 1 && -s "$TSV" ]] || rm -f "$TSV"

cpu_ns() { "$BUILD/xdrive" cpu "$1" | sed -n 's/^cpu_sched_ns=//p'; }
cpu_ticks() { "$BUILD/xdrive" cpu "$1" | sed -n 's/^cpu_ticks=//p'; }
# "other" CPU: machine-wide busy time minus the app's and Xvfb's, summed over the
# measured segments only (idle window, burst drag, paced drag), so the harness's
# own screenshots in between are not counted.
ACC_OTHER=0; ACC_WALL=0
acct_start() { A_B0="$(sys_busy)"; A_T0="$(date +%s.%N)"; A_P0="$(cpu_ticks "$1")"; A_X0="$(cpu_ticks "$XVFB_PID")"; }
acct_stop() {
    local b1 t1 p1 x1
    b1="$(sys_busy)"; t1="$(date +%s.%N)"; p1="$(cpu_ticks "$1")"; x1="$(cpu_ticks "$XVFB_PID")"
    read -r ACC_OTHER ACC_WALL < <(awk -v o="$ACC_OTHER" -v w="$ACC_WALL" -v b0="$A_B0" -v b1="$b1" -v p0="$A_P0" -v p1="$p1" \
        -v x0="$A_X0" -v x1="$x1" -v t0="$A_T0" -v t1="$t1" 'BEGIN{d=(b1-b0)-(p1-p0)-(x1-x0); if(d<0)d=0; print o+d, w+(t1-t0)}')
}
shot() {    # shot DISPLAY GEOM(WxH+X+Y) PREFIX [root] -> PREFIX-window.png (+ PREFIX-root.png)
    xwd -display "$1" -root -silent > "$TMP/shot.xwd"
    [[ "${4:-}" == root ]] && convert "xwd:$TMP/shot.xwd" "$3-root.png"
    convert "xwd:$TMP/shot.xwd" -crop "$2" +repage "$3-window.png"
}

COLUMNS_=(run result map_ms first_damage_ms settle_ms damage_events pid_source win_geom
          rss_hwm_startup_kb rss_startup_kb idle_cpu_ticks_s idle_cpu_sched_s
          burst_send_ms burst_drain_ms burst_drained burst_cpu_ticks_s burst_cpu_sched_s burst_us_per_event_ticks burst_us_per_event_sched burst_xvfb_cpu_s
          paced_send_ms paced_drain_ms paced_drained paced_cpu_ticks_s paced_cpu_sched_s paced_us_per_event_ticks paced_us_per_event_sched paced_xvfb_cpu_s
          rss_hwm_after_kb rss_after_kb other_cpu_pct loadavg1_start)
[[ -s "$TSV" ]] || (IFS=$'\t'; echo "${COLUMNS_[*]}") > "$TSV"

run_one() {   # run_one INDEX LABEL(warmup|run) SAVE_SHOTS(0|1)
    local idx="$1" label="$2" save="$3"
    declare -A R=()
    R[run]="$label$idx"
    start_xvfb
    local D="$DISPLAY_USED"
    launch_app "$OUT/app-$label$idx.log" "${CMD[@]}"   # waits for the first top-level window
    cp "$TMP/launch.kv" "$OUT/launch-$label$idx.kv"
    R[result]="$(kv "$TMP/launch.kv" result)"
    for k in map_ms first_damage_ms settle_ms damage_events; do R[$k]="$(kv "$TMP/launch.kv" $k)"; done
    local W H X Y WM
    W="$(kv "$TMP/launch.kv" win_w)"; H="$(kv "$TMP/launch.kv" win_h)"
    X="$(kv "$TMP/launch.kv" win_x)"; Y="$(kv "$TMP/launch.kv" win_y)"
    WM="$(kv "$TMP/launch.kv" wm_pid)"
    R[win_geom]="${W}x${H}+${X}+${Y}"
    TITLE="$(kv "$TMP/launch.kv" title)"

    if [[ "${R[result]}" == ok || "${R[result]}" == not-settled || "${R[result]}" == no-damage-after-map ]]; then
        # measured process: _NET_WM_PID if it is in the launched process group, else the launched pid
        local P="$APP_PGID"; R[pid_source]=launched
        if [[ "$WM" =~ ^[0-9]+$ && "$WM" -gt 0 && -r "/proc/$WM/stat" ]]; then
            if [[ "$WM" == "$APP_PGID" ]]; then R[pid_source]=wm_pid=launched
            elif [[ "$(sed 's/.*) //' "/proc/$WM/stat" | awk '{print $3}')" == "$APP_PGID" ]]; then P="$WM"; R[pid_source]=wm_pid; fi
        fi
        PID_SOURCE="${R[pid_source]}"
        sleep "$SETTLE_S"
        R[loadavg1_start]="$(cut -d' ' -f1 /proc/loadavg)"
        ACC_OTHER=0; ACC_WALL=0
        R[rss_hwm_startup_kb]="$(hwm_kb "$P")"; R[rss_startup_kb]="$(rss_kb "$P")"
        # idle CPU
        local t0 n0 t1 n1
        acct_start "$P"
        t0="$(cpu_ticks "$P")"; n0="$(cpu_ns "$P")"
        sleep "$IDLE_S"
        t1="$(cpu_ticks "$P")"; n1="$(cpu_ns "$P")"
        acct_stop "$P"
        R[idle_cpu_ticks_s]="$(awk -v a="$t0" -v b="$t1" -v hz="$(getconf CLK_TCK)" 'BEGIN{printf "%.3f",(b-a)/hz}')"
        R[idle_cpu_sched_s]="$(awk -v a="$n0" -v b="$n1" 'BEGIN{printf "%.4f",(b-a)/1e9}')"
        [[ "$save" == 1 ]] && shot "$D" "${R[win_geom]}" "$OUT/startup"
        # burst drag
        local rect="$X,$Y,$W,$H"
        acct_start "$P"
        DISPLAY="$D" "$BUILD/xdrive" drag --pid "$P" --also-pid "$XVFB_PID" --rect "$rect" --n "$EVENTS" --sync-every "$BURST_SYNC" > "$TMP/burst.kv"
        acct_stop "$P"
        R[burst_send_ms]="$(kv "$TMP/burst.kv" send_ms)"; R[burst_drain_ms]="$(kv "$TMP/burst.kv" drain_ms)"
        R[burst_drained]="$(kv "$TMP/burst.kv" drained)"
        R[burst_cpu_ticks_s]="$(kv "$TMP/burst.kv" cpu_ticks_s)"; R[burst_cpu_sched_s]="$(kv "$TMP/burst.kv" cpu_sched_s)"
        R[burst_us_per_event_ticks]="$(kv "$TMP/burst.kv" us_per_event_ticks)"; R[burst_us_per_event_sched]="$(kv "$TMP/burst.kv" us_per_event_sched)"
        R[burst_xvfb_cpu_s]="$(kv "$TMP/burst.kv" also_pid_cpu_sched_s)"
        [[ "$save" == 1 ]] && shot "$D" "${R[win_geom]}" "$OUT/after-burst"
        # paced drag
        if [[ "$PACED_RATE" != 0 ]]; then
            sleep 0.3
            acct_start "$P"
            DISPLAY="$D" "$BUILD/xdrive" drag --pid "$P" --also-pid "$XVFB_PID" --rect "$rect" --n "$EVENTS" --rate "$PACED_RATE" > "$TMP/paced.kv"
            acct_stop "$P"
            R[paced_send_ms]="$(kv "$TMP/paced.kv" send_ms)"; R[paced_drain_ms]="$(kv "$TMP/paced.kv" drain_ms)"
            R[paced_drained]="$(kv "$TMP/paced.kv" drained)"
            R[paced_cpu_ticks_s]="$(kv "$TMP/paced.kv" cpu_ticks_s)"; R[paced_cpu_sched_s]="$(kv "$TMP/paced.kv" cpu_sched_s)"
            R[paced_us_per_event_ticks]="$(kv "$TMP/paced.kv" us_per_event_ticks)"; R[paced_us_per_event_sched]="$(kv "$TMP/paced.kv" us_per_event_sched)"
            R[paced_xvfb_cpu_s]="$(kv "$TMP/paced.kv" also_pid_cpu_sched_s)"
        fi
        R[rss_hwm_after_kb]="$(hwm_kb "$P")"; R[rss_after_kb]="$(rss_kb "$P")"
        # % of all cores used by other processes during the measured segments (includes the
        # driver's 2 ms /proc sampling and bash; more than ~5 % means foreign load)
        R[other_cpu_pct]="$(awk -v o="$ACC_OTHER" -v w="$ACC_WALL" -v n="$(nproc)" -v hz="$(getconf CLK_TCK)" \
            'BEGIN{ if (w>0) printf "%.1f", 100*o/hz/(w*n); else print "NA"}')"
        [[ "$save" == 1 ]] && shot "$D" "${R[win_geom]}" "$OUT/after-workload" root
        alive "$P" || R[result]="${R[result]}+died"
    fi
    stop_app
    stop_xvfb
    rm -rf "$TMP"; TMP=""
    local line=() c
    for c in "${COLUMNS_[@]}"; do line+=("${R[$c]:-NA}"); done
    (IFS=$'\t'; echo "${line[*]}") >> "$TSV"
    echo "  [$label$idx] result=${R[result]} settle_ms=${R[settle_ms]:-NA} idle_cpu_s=${R[idle_cpu_sched_s]:-NA} burst_us/ev=${R[burst_us_per_event_sched]:-NA} paced_us/ev=${R[paced_us_per_event_sched]:-NA} hwm_after_kb=${R[rss_hwm_after_kb]:-NA}" >&2
}

echo "peer-bench: $NAME: ${CMD[*]}" >&2
TITLE=""; PID_SOURCE=""; DISPLAY_USED=""
W0="$(grep -c '^warmup[0-9]' "$TSV" || true)"; R0="$(grep -c '^run[0-9]' "$TSV" || true)"
for i in $(seq 1 "$WARMUP"); do run_one $((W0 + i)) warmup 0; done
for i in $(seq 1 "$RUNS"); do
    save=0; [[ "$i" == "$RUNS" ]] && save=1
    run_one $((R0 + i)) run "$save"
done
{
    printf 'M_CMD=%q\n' "${CMD[*]}"; printf 'M_TITLE=%q\n' "$TITLE"; printf 'M_PID_SOURCE=%q\n' "$PID_SOURCE"
    printf 'M_SCREEN=%q\nM_EVENTS=%q\nM_PACED_RATE=%q\nM_IDLE=%q\n' "$SCREEN" "$EVENTS" "$PACED_RATE" "$IDLE_S"
} > "$OUT/meta.sh"
exec "$HERE/peer-bench.sh" --summarize --name "$NAME" --outdir "$OUTDIR"
