#!/usr/bin/env bash
# Autobahn|Testsuite fuzzing CLIENT against WireKit's server role.
#
#   Scripts/autobahn/run-server.sh [options]
#
# Builds the `wirekit-autobahn-server` product (an echo server on WebSocketServer; release
# unless --debug), starts it on a free 127.0.0.1 port, runs `wstest -m fuzzingclient` (the
# Python 2.7 venv run.sh builds, under .build-testenv/) against it with the selected cases,
# stops the server and prints the per-section summary (summarise.py).
#
# Options:
#   -c, --cases LIST      comma-separated case patterns (default "*"); a bare section
#                         number N means "N.*", e.g. "1,2,3,4,5,6,7,10" or "6.4.*,7.1.5"
#   -x, --exclude LIST    comma-separated patterns to leave out, e.g. "9,12,13"
#       --quick           shorthand for --exclude 12,13
#       --debug           use the debug build (what CI has built already)
#       --tls             serve wss:// with the committed test certificate
#                         (Tests/WireKitTests/TLSCertificates; the fuzzing client does not verify it)
#   -a, --agent NAME      agent name (default wirekit-server, wirekit-server-tls with --tls)
#   -o, --out DIR         run directory (default .build-testenv/autobahn-runs/AGENT-YYYYmmdd-HHMMSS)
#   -t, --timeout SECS    stop the fuzzing client after SECS (default 3600)
#       --details         also print the result text of every non-OK case
#   -h, --help
#
# Exit status: 0 = every selected case OK/NON-STRICT/INFORMATIONAL/UNIMPLEMENTED,
#              1 = some case FAILED or not run, or the server died, 2 = bench error.
set -uo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
cd "$ROOT"
TESTENV=${PUBSUB_TEST_ENV:-$ROOT/.build-testenv}
VENV=${AUTOBAHN_VENV:-$TESTENV/autobahn-venv}

CASES="*"; EXCLUDE=""; CONFIG=release; TLS=""; AGENT=""; OUT=""; TIMEOUT=3600; DETAILS=""
die() { echo "run-server.sh: $*" >&2; exit 2; }
usage() { sed -n '2,/^set -uo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
  case "$1" in
    -c|--cases) CASES=$2; shift 2 ;;
    -x|--exclude) EXCLUDE=$2; shift 2 ;;
    --quick) EXCLUDE=${EXCLUDE:+$EXCLUDE,}12,13; shift ;;
    --debug) CONFIG=debug; shift ;;
    --tls) TLS=1; shift ;;
    -a|--agent) AGENT=$2; shift 2 ;;
    -o|--out) OUT=$2; shift 2 ;;
    -t|--timeout) TIMEOUT=$2; shift 2 ;;
    --details) DETAILS="--details"; shift ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown option $1 (see --help)" ;;
  esac
done
[ -n "$AGENT" ] || AGENT=wirekit-server${TLS:+-tls}

"$HERE/run.sh" --setup-only >&2 || exit 2
echo "run-server.sh: building wirekit-autobahn-server ($CONFIG)" >&2
swift build -c "$CONFIG" --product wirekit-autobahn-server >&2 || die "build failed"
BIN="$(swift build -c "$CONFIG" --show-bin-path)/wirekit-autobahn-server"

[ -n "$OUT" ] || OUT=$TESTENV/autobahn-runs/$(printf '%s' "$AGENT" | tr -c 'A-Za-z0-9_.-' '_')-$(date +%Y%m%d-%H%M%S)
mkdir -p "$OUT" || die "cannot create $OUT"
OUT=$(cd "$OUT" && pwd)
[ ! -e "$OUT/reports/index.json" ] || die "$OUT already holds a report; pick another --out"

# ---------------------------------------------------------------- echo server
SERVER_ARGS=(--host 127.0.0.1 --port 0)
SCHEME=ws
if [ -n "$TLS" ]; then
  CERTS="$ROOT/Tests/WireKitTests/TLSCertificates"
  SERVER_ARGS+=(--tls-cert "$CERTS/server-chain.pem" --tls-key "$CERTS/server-key.pem")
  SCHEME=wss
fi
SERVER_PID=""
stop_server() {
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -TERM "$SERVER_PID" 2>/dev/null
    for _ in $(seq 1 50); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$SERVER_PID" 2>/dev/null
  fi
  [ -z "$SERVER_PID" ] || wait "$SERVER_PID" 2>/dev/null
  SERVER_PID=""
}
trap stop_server EXIT
trap 'stop_server; exit 130' INT TERM
"$BIN" "${SERVER_ARGS[@]}" >"$OUT/server.log" 2>&1 &
SERVER_PID=$!
PORT=""
for _ in $(seq 1 100); do
  kill -0 "$SERVER_PID" 2>/dev/null || break
  PORT=$(sed -n 's/^wirekit-autobahn-server: listening on .*:\([0-9][0-9]*\)$/\1/p' "$OUT/server.log")
  [ -z "$PORT" ] || break
  sleep 0.1
done
[ -n "$PORT" ] || { cat "$OUT/server.log" >&2; die "wirekit-autobahn-server did not start"; }
URL="$SCHEME://127.0.0.1:$PORT"

python3 "$HERE/spec.py" client "$OUT/spec.json" "$URL" "$OUT/reports" "$CASES" "$EXCLUDE" "$AGENT" || die "bad case selection"

# ---------------------------------------------------------------- fuzzing client
echo "run-server.sh: wirekit-autobahn-server on $URL, agent '$AGENT', output $OUT" >&2
T0=$(date +%s)
(cd "$OUT" && timeout --kill-after=10 -s INT "$TIMEOUT" env PYTHONWARNINGS=ignore \
   "$VENV/bin/python" -u "$HERE/fuzzingclient_lo.py" "$OUT/spec.json" "$OUT/cases.json" >"$OUT/client.log" 2>&1)
CLIENT_RC=$?
T1=$(date +%s)
[ $CLIENT_RC -eq 124 ] && echo "run-server.sh: fuzzing client stopped after ${TIMEOUT}s timeout" >&2
[ -f "$OUT/cases.json" ] || { cat "$OUT/client.log" >&2; die "the fuzzing client did not start"; }
SERVER_ALIVE=1
kill -0 "$SERVER_PID" 2>/dev/null || SERVER_ALIVE=""
SERVER_CPU=$(awk -v hz="$(getconf CLK_TCK)" '{printf "%.1f", ($14 + $15) / hz}' "/proc/$SERVER_PID/stat" 2>/dev/null || echo "?")
stop_server
trap - EXIT INT TERM

# ---------------------------------------------------------------- summary
{
  echo "server: $BIN ${SERVER_ARGS[*]} ($URL)"
  echo "fuzzing client exit: $CLIENT_RC, wall: $((T1 - T0))s (server CPU: ${SERVER_CPU}s), cases selected: $(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' "$OUT/cases.json")"
  [ -n "$SERVER_ALIVE" ] || { echo "run-server.sh: wirekit-autobahn-server DIED during the run:"; tail -20 "$OUT/server.log"; }
  python3 "$HERE/summarise.py" --agent "$AGENT" --cases "$OUT/cases.json" $DETAILS "$OUT/reports"
} | tee "$OUT/summary.txt"
RC=${PIPESTATUS[0]}
echo "run-server.sh: HTML report: $OUT/reports/index.html" >&2
[ -f "$OUT/reports/index.json" ] || RC=2
[ -n "$SERVER_ALIVE" ] || [ "$RC" -ne 0 ] || RC=1
exit $RC
