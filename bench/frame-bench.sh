#!/usr/bin/env bash
# frame-bench.sh -- input-to-frame latency and CPU under sustained redraw of
# any X11 GUI command, under a fresh Xvfb per run.
#
#   bench/frame-bench.sh [options] -- command [args...]
#
# Per run: start the command (tools/benchlaunch: first top-level window, mapped
# and drawn), then tools/xframes drives XTEST input into it and watches its
# window with XDamage:
#   latency passes  one per --rates entry: --n inputs paced at that rate;
#                   p50/p95/p99 of input (XFlush) -> first DamageNotify after
#                   the server handled the input; how many inputs got a frame
#   sustained pass  --sustain-s seconds of input at --sustain-rate: app CPU
#                   (utime+stime and schedstat, with descendants), frames
#                   (damage runs), CPU per frame
#   VmHWM/VmRSS of the app after startup and after the passes; VmHWM of Xvfb.
# Prints one result block (median, min, max over the measured runs; latency
# percentiles also pooled over all inputs of all runs).  See bench/README.md.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
BUILD="$HERE/.build"

RUNS=5
WARMUP=1
RATES="60,120"
N=300
SUSTAIN_S=10
SUSTAIN_RATE=120
ACTION=drag
RECT=""
RESIZE=""
LEAD_IN=10
XF_OPTS=""
SETTLE_S=1
SCREEN=1280x800x24
NAME=""
OUTDIR="$HERE/results/frames"
TIMEOUT=30
QUIET_MS=300
PYTHON=/usr/bin/python3
APPEND=0
SUMMARIZE=0
NOTE=""

usage() {
    cat >&2 <<EOF
usage: $0 [options] -- command [args...]
  --name NAME          label for the result block and output folder (default: basename of command)
  --runs N             measured runs (default $RUNS)
  --warmup N           discarded warm-up runs before them (default $WARMUP)
  --rect X,Y,W,H       where the input goes, in window coordinates (default: the whole window)
  --resize WxH         resize the app's window before measuring (e.g. to compare equal areas)
  --action A           drag | move | click | dblclick | wheel (default $ACTION; see tools/xframes.c)
  --rates LIST         latency passes, inputs per second, comma-separated (default $RATES; "" = none)
  --n N                inputs per latency pass (default $N)
  --sustain-s S        sustained-redraw pass length in seconds (default $SUSTAIN_S; 0 = none)
  --sustain-rate HZ    its input rate (default $SUSTAIN_RATE)
  --lead-in K          unmeasured inputs before each pass (default $LEAD_IN)
  --xframes-opts "..." more options for tools/xframes (e.g. "--step-px 6 --max-latency-ms 500")
  --note TEXT          free text saved with the results (what the input does in this app)
  --settle S           pause after startup before measuring (default $SETTLE_S)
  --screen WxHxD       Xvfb screen (default $SCREEN)
  --timeout S          max seconds to wait for the first window (default $TIMEOUT)
  --quiet-ms MS        startup 'settled' = no window damage for MS (default $QUIET_MS)
  --outdir DIR         where NAME/ goes (default $OUTDIR)
  --append             add runs to an existing NAME/runs.tsv (interleave apps: see run-frame-peers.sh)
  --summarize          run nothing; print the result block of NAME/runs.tsv (command not needed)
EOF
    exit 2
}

while [[ $# -gt 0 ]]; do
    case "$1" in
        --name) NAME="$2"; shift 2 ;;
        --runs) RUNS="$2"; shift 2 ;;
        --warmup) WARMUP="$2"; shift 2 ;;
        --rect) RECT="$2"; shift 2 ;;
        --resize) RESIZE="$2"; shift 2 ;;
        --action) ACTION="$2"; shift 2 ;;
        --rates) RATES="$2"; shift 2 ;;
        --n) N="$2"; shift 2 ;;
        --sustain-s) SUSTAIN_S="$2"; shift 2 ;;
        --sustain-rate) SUSTAIN_RATE="$2"; shift 2 ;;
        --lead-in) LEAD_IN="$2"; shift 2 ;;
        --xframes-opts) XF_OPTS="$2"; shift 2 ;;
        --note) NOTE="$2"; shift 2 ;;
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
[[ -x "$PYTHON" ]] || PYTHON="$(command -v python3)"
if [[ "$SUMMARIZE" == 1 ]]; then
    [[ -n "$NAME" ]] || { echo "--summarize needs --name" >&2; exit 2; }
    OUT="$OUTDIR/$NAME"
    [[ -s "$OUT/runs.tsv" ]] || { echo "no runs in $OUT" >&2; exit 2; }
    exec "$PYTHON" "$HERE/tools/frames_aggregate.py" --dir "$OUT" --name "$NAME"
fi
[[ $# -gt 0 ]] || usage
CMD=("$@")
[[ -n "$NAME" ]] || NAME="$(basename "$1")"
case "$ACTION" in drag|move|click|dblclick|wheel) ;; *) echo "bad --action $ACTION" >&2; exit 2 ;; esac

# ---- prerequisites / build ------------------------------------------------
for b in Xvfb xwd convert gcc; do
    command -v "$b" >/dev/null || { echo "missing $b: run bench/install-deps.sh" >&2; exit 3; }
done
# shellcheck source=bench/lib.sh
source "$HERE/lib.sh"
build_tool benchlaunch -lX11 -lXdamage -lXfixes
build_tool xframes -lX11 -lX11-xcb -lxcb -lXtst -lXdamage -lXfixes -lm
build_tool xredraw -lX11 -lXi -lm
build_tool xdrive -lX11 -lXi -lXtst -lm

OUT="$OUTDIR/$NAME"
mkdir -p "$OUT/raw"
TSV="$OUT/runs.tsv"
if [[ "$APPEND" != 1 || ! -s "$TSV" ]]; then rm -f "$TSV"; rm -f "$OUT"/raw/*; fi

# passes: lat<rate>... and sustain
PASSES=()
IFS=, read -r -a RATE_LIST <<< "$RATES"
for r in "${RATE_LIST[@]}"; do [[ -n "$r" ]] && PASSES+=("lat$r"); done
[[ "$SUSTAIN_S" != 0 ]] && PASSES+=(sustain)
[[ ${#PASSES[@]} -gt 0 ]] || { echo "nothing to measure (--rates \"\" and --sustain-s 0)" >&2; exit 2; }

ticks() { "$BUILD/xdrive" cpu "$1" | sed -n 's/^cpu_ticks=//p'; }   # utime+stime of PID + descendants
shot() {    # shot DISPLAY GEOM(WxH+X+Y) PREFIX
    xwd -display "$1" -root -silent > "$TMP/shot.xwd" 2>/dev/null || return 0
    convert "xwd:$TMP/shot.xwd" -crop "$2" +repage "$3-window.png" 2>/dev/null || true
}

PASS_KEYS=(inputs frames damage_events inputs_with_frame inputs_with_own_frame inputs_without_frame
           lat_p50_ms lat_p95_ms lat_p99_ms lat_mean_ms lat_max_ms cpu_ticks_s cpu_sched_s cpu_us_per_frame
           cpu_us_per_input cpu_pct_of_core px_per_frame also_pid_cpu_sched_s idle_damage_events late_sends)
COLUMNS_=(run result map_ms settle_ms win_geom pid_source rss_hwm_startup_kb)
for p in "${PASSES[@]}"; do for k in "${PASS_KEYS[@]}" rss_after_kb xvfb_rss_after_kb; do COLUMNS_+=("${p}_${k}"); done; done
COLUMNS_+=(rss_hwm_after_kb rss_after_kb xvfb_hwm_kb other_cpu_pct loadavg1_start)
HEADER="$(IFS=$'\t'; echo "${COLUMNS_[*]}")"
if [[ -s "$TSV" && "$(head -n1 "$TSV")" != "$HEADER" ]]; then
    echo "$TSV has other columns (other --rates/--sustain-s?); use another --outdir or drop --append" >&2; exit 2
fi
[[ -s "$TSV" ]] || echo "$HEADER" > "$TSV"

run_one() {   # run_one INDEX LABEL(warmup|run) SAVE_SHOTS(0|1)
    local idx="$1" label="$2" save="$3"
    declare -A R=()
    local tag="$label$idx"
    R[run]="$tag"
    start_xvfb
    local D="$DISPLAY_USED"
    launch_app "$OUT/app-$tag.log" "${CMD[@]}"
    cp "$TMP/launch.kv" "$OUT/raw/launch-$tag.kv"
    R[result]="$(kv "$TMP/launch.kv" result)"
    R[map_ms]="$(kv "$TMP/launch.kv" map_ms)"; R[settle_ms]="$(kv "$TMP/launch.kv" settle_ms)"
    local WIN WM
    WIN="$(kv "$TMP/launch.kv" win)"; WM="$(kv "$TMP/launch.kv" wm_pid)"
    R[win_geom]="$(kv "$TMP/launch.kv" geom)"

    if [[ "${R[result]}" == ok || "${R[result]}" == not-settled || "${R[result]}" == no-damage-after-map ]]; then
        local P="$APP_PGID"; R[pid_source]=launched
        if [[ "$WM" =~ ^[0-9]+$ && "$WM" -gt 0 && -r "/proc/$WM/stat" ]]; then
            if [[ "$WM" == "$APP_PGID" ]]; then R[pid_source]=wm_pid=launched
            elif [[ "$(sed 's/.*) //' "/proc/$WM/stat" | awk '{print $3}')" == "$APP_PGID" ]]; then P="$WM"; R[pid_source]=wm_pid; fi
        fi
        sleep "$SETTLE_S"
        R[loadavg1_start]="$(cut -d' ' -f1 /proc/loadavg)"
        R[rss_hwm_startup_kb]="$(hwm_kb "$P")"
        local first=1 p rate args other=0 wall=0 b0 b1 t0 t1 p0 p1 x0 x1
        for p in "${PASSES[@]}"; do
            args=(--window "$WIN" --cpu-pid "$P" --also-pid "$XVFB_PID" --action "$ACTION" --lead-in "$LEAD_IN"
                  --inputs-out "$OUT/raw/$tag-$p-inputs.tsv" --frames-out "$OUT/raw/$tag-$p-frames.tsv")
            [[ -n "$RECT" ]] && args+=(--rect "$RECT")
            [[ "$first" == 1 && -n "$RESIZE" ]] && args+=(--resize "$RESIZE")
            if [[ "$p" == sustain ]]; then args+=(--rate "$SUSTAIN_RATE" --duration "$SUSTAIN_S")
            else args+=(--rate "${p#lat}" --n "$N"); fi
            # shellcheck disable=SC2206
            [[ -n "$XF_OPTS" ]] && args+=($XF_OPTS)
            b0="$(sys_busy)"; t0="$(date +%s.%N)"; p0="$(ticks "$P")"; x0="$(ticks "$XVFB_PID")"
            DISPLAY="$D" "$BUILD/xframes" "${args[@]}" > "$OUT/raw/$tag-$p.kv" 2> "$OUT/raw/$tag-$p.err" || true
            b1="$(sys_busy)"; t1="$(date +%s.%N)"; p1="$(ticks "$P")"; x1="$(ticks "$XVFB_PID")"
            read -r other wall < <(awk -v o="$other" -v w="$wall" -v b0="$b0" -v b1="$b1" -v p0="$p0" -v p1="$p1" \
                -v x0="$x0" -v x1="$x1" -v t0="$t0" -v t1="$t1" 'BEGIN{d=(b1-b0)-(p1-p0)-(x1-x0); if(d<0)d=0; print o+d, w+(t1-t0)}')
            local xr; xr="$(kv "$OUT/raw/$tag-$p.kv" result)"
            [[ "$xr" == ok ]] || R[result]="${R[result]}+$p:${xr:-failed($(head -c 200 "$OUT/raw/$tag-$p.err" | tr '\n\t' '  '))}"
            local k
            for k in "${PASS_KEYS[@]}"; do R[${p}_$k]="$(kv "$OUT/raw/$tag-$p.kv" "$k")"; done
            # RSS after each pass: growth from pass to pass = memory kept per frame (a leak shows here)
            R[${p}_rss_after_kb]="$(rss_kb "$P")"; R[${p}_xvfb_rss_after_kb]="$(rss_kb "$XVFB_PID")"
            first=0
        done
        R[rss_hwm_after_kb]="$(hwm_kb "$P")"; R[rss_after_kb]="$(rss_kb "$P")"
        R[xvfb_hwm_kb]="$(hwm_kb "$XVFB_PID")"
        # % of all cores used by other processes during the passes (includes xframes itself, a few %)
        R[other_cpu_pct]="$(awk -v o="$other" -v w="$wall" -v n="$(nproc)" -v hz="$(getconf CLK_TCK)" \
            'BEGIN{ if (w>0) printf "%.1f", 100*o/hz/(w*n); else print "NA"}')"
        if [[ "$save" == 1 ]]; then
            local g; g="$(DISPLAY="$D" "$BUILD/xframes" --find --window "$WIN" 2>/dev/null | sed -n 's/^geom=//p' || true)"
            [[ -n "$g" ]] && shot "$D" "$g" "$OUT/after-workload"
        fi
        alive "$P" || R[result]="${R[result]}+died"
    fi
    stop_app
    stop_xvfb
    rm -rf "$TMP"; TMP=""
    local line=() c
    for c in "${COLUMNS_[@]}"; do line+=("${R[$c]:-NA}"); done
    (IFS=$'\t'; echo "${line[*]}") >> "$TSV"
    local msg="  [$tag] result=${R[result]}"
    for p in "${PASSES[@]}"; do
        msg+=" | $p p50=${R[${p}_lat_p50_ms]:-NA} p95=${R[${p}_lat_p95_ms]:-NA} frames=${R[${p}_frames]:-NA}/${R[${p}_inputs]:-NA} us/frame=${R[${p}_cpu_us_per_frame]:-NA}"
    done
    echo "$msg" >&2
}

echo "frame-bench: $NAME: ${CMD[*]}" >&2
W0="$(grep -c '^warmup[0-9]' "$TSV" || true)"; R0="$(grep -c '^run[0-9]' "$TSV" || true)"
for i in $(seq 1 "$WARMUP"); do run_one $((W0 + i)) warmup 0; done
for i in $(seq 1 "$RUNS"); do
    save=0; [[ "$i" == "$RUNS" ]] && save=1
    run_one $((R0 + i)) run "$save"
done
"$PYTHON" - "$OUT/meta.json" "$NAME" "$ACTION" "$RECT" "$RESIZE" "$RATES" "$N" "$SUSTAIN_S" "$SUSTAIN_RATE" \
    "$LEAD_IN" "$XF_OPTS" "$SCREEN" "$NOTE" "${CMD[@]}" <<'EOF'
import json, sys
keys = ["name", "action", "rect", "resize", "rates", "n", "sustain_s", "sustain_rate", "lead_in", "xframes_opts", "screen", "note"]
a = sys.argv[2:]
m = dict(zip(keys, a[:len(keys)]))
m["command"] = a[len(keys):]
json.dump(m, open(sys.argv[1], "w"), indent=1)
EOF
exec "$PYTHON" "$HERE/tools/frames_aggregate.py" --dir "$OUT" --name "$NAME"
