#!/usr/bin/env bash
# Autobahn|Testsuite (fuzzing server) conformance bench for WebSocket CLIENTS.
#
#   run.sh [options] [--] CLIENT_COMMAND...
#
# Starts the fuzzing server on a free 127.0.0.1 port with the selected cases, runs the
# client command (an Autobahn echo client: /getCaseCount, /runCase?case=i&agent=A for
# every case echoing each message, then /updateReports?agent=A), stops the server and
# prints a per-section summary (summarise.py). See README.md beside this file.
#
# Placeholders in CLIENT_COMMAND: {url} -> ws://127.0.0.1:PORT   {agent} -> agent name
#                                 {port} -> PORT                 {out}   -> run directory
# The same values are exported as AUTOBAHN_URL, AUTOBAHN_AGENT, AUTOBAHN_PORT, AUTOBAHN_OUT.
# One argument is run with `bash -c` (so it may contain &&, cd, ...); several arguments
# are executed as an argv.
#
# Options:
#   -c, --cases LIST      comma-separated case patterns (default "*"); a bare section
#                         number N means "N.*", e.g. "1,2,3,4,5,6,7,10" or "6.4.*,7.1.5"
#   -x, --exclude LIST    comma-separated patterns to leave out, e.g. "9,12,13"
#       --quick           shorthand for --exclude 12,13 (compression is ~90% of a full run)
#   -a, --agent NAME      agent name the results are filed under (default "client")
#   -o, --out DIR         run directory (default .build-testenv/autobahn-runs/AGENT-YYYYmmdd-HHMMSS)
#   -t, --timeout SECS    kill the client after SECS (default 3600)
#   -p, --port PORT       use this port instead of a free one
#       --lenient-host    accept a Host header without the port (RFC 6455 4.1 wants it;
#                         stock wstest rejects such handshakes with 400)
#       --details         also print the result text of every non-OK case
#       --setup-only      only create/check the venv, then exit
#   -h, --help
#
# Exit status: 0 = every selected case OK/NON-STRICT/INFORMATIONAL/UNIMPLEMENTED,
#              1 = some case FAILED or not run, 2 = bench error (setup, server start).
# Environment: PUBSUB_TEST_ENV (default: the repository's .build-testenv), AUTOBAHN_VENV
# (default $PUBSUB_TEST_ENV/autobahn-venv), AUTOBAHN_PY27 (python2.7 to use).
# Adapted from the shared conformance bench: everything it creates stays under .build-testenv/.
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
TESTENV=${PUBSUB_TEST_ENV:-$ROOT/.build-testenv}
VENV=${AUTOBAHN_VENV:-$TESTENV/autobahn-venv}
TOOLS_VENV=${AUTOBAHN_TOOLS_VENV:-$TESTENV/autobahn-venv-tools}
ABTS_VERSION=25.10.1

CASES="*"; EXCLUDE=""; AGENT="client"; OUT=""; TIMEOUT=3600; PORT=""; LENIENT=""; DETAILS=""; SETUP_ONLY=""

die() { echo "run.sh: $*" >&2; exit 2; }
usage() { sed -n '2,/^set -uo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }

while [ $# -gt 0 ]; do
  case "$1" in
    -c|--cases) CASES=$2; shift 2 ;;
    -x|--exclude) EXCLUDE=$2; shift 2 ;;
    --quick) EXCLUDE=${EXCLUDE:+$EXCLUDE,}12,13; shift ;;
    -a|--agent) AGENT=$2; shift 2 ;;
    -o|--out) OUT=$2; shift 2 ;;
    -t|--timeout) TIMEOUT=$2; shift 2 ;;
    -p|--port) PORT=$2; shift 2 ;;
    --lenient-host) LENIENT="--lenient-host"; shift ;;
    --details) DETAILS="--details"; shift ;;
    --setup-only) SETUP_ONLY=1; shift ;;
    -h|--help) usage; exit 0 ;;
    --) shift; break ;;
    -*) die "unknown option $1 (see --help)" ;;
    *) break ;;
  esac
done
[ -n "$SETUP_ONLY" ] || [ $# -gt 0 ] || { usage; die "no client command given"; }

# ---------------------------------------------------------------- venv (Python 2.7)
# autobahntestsuite (even 25.10.1 on PyPI) is Python 2 code: it needs CPython 2.7 and the
# pinned Twisted 19.10 / autobahn 0.10.9 stack in requirements-py27.txt.
venv_ok() {
  [ -x "$VENV/bin/python" ] &&
    PYTHONWARNINGS=ignore "$VENV/bin/python" -c 'import sys; assert sys.version_info[:2] == (2, 7); import autobahntestsuite.fuzzing, autobahntestsuite._version as v; assert v.__version__ == "'$ABTS_VERSION'"' >/dev/null 2>&1
}

find_py27() {
  local c
  for c in "${AUTOBAHN_PY27:-}" "$(command -v python2.7 2>/dev/null)" "$HOME"/.pyenv/versions/2.7*/bin/python2.7 /usr/bin/python2.7 /usr/local/bin/python2.7; do
    [ -n "$c" ] && [ -x "$c" ] && "$c" -c 'import sys; assert sys.version_info[:2] == (2, 7)' 2>/dev/null && { echo "$c"; return 0; }
  done
  return 1
}

setup_venv() {
  venv_ok && return 0
  local py27
  py27=$(find_py27) || die "CPython 2.7 not found (tried AUTOBAHN_PY27, python2.7 on PATH, ~/.pyenv/versions/2.7*); autobahntestsuite does not run on Python 3"
  echo "run.sh: creating $VENV with $py27 (one-off, ~1 min)" >&2
  if [ -e "$VENV" ]; then
    [ -f "$VENV/pyvenv.cfg" ] || [ -x "$VENV/bin/python" ] || die "$VENV exists and is not a venv; remove it or set AUTOBAHN_VENV"
    rm -rf "$VENV"
  fi
  # virtualenv < 20.22 is the last that can create Python 2.7 environments
  if [ ! -x "$TOOLS_VENV/bin/virtualenv" ]; then
    python3 -m venv "$TOOLS_VENV" && "$TOOLS_VENV/bin/pip" install -q 'virtualenv<20.22' ||
      die "could not install virtualenv into $TOOLS_VENV"
  fi
  mkdir -p "$(dirname "$VENV")"
  "$TOOLS_VENV/bin/virtualenv" -q -p "$py27" "$VENV" || die "virtualenv failed"
  PYTHONWARNINGS=ignore "$VENV/bin/pip" install -q --no-python-version-warning \
      "autobahntestsuite==$ABTS_VERSION" -r "$HERE/requirements-py27.txt" || die "pip install failed"
  venv_ok || die "venv created but autobahntestsuite does not import"
}

setup_venv
if [ -n "$SETUP_ONLY" ]; then echo "run.sh: venv ready: $VENV"; exit 0; fi

# ---------------------------------------------------------------- run directory, spec
[ -n "$OUT" ] || OUT=$TESTENV/autobahn-runs/$(printf '%s' "$AGENT" | tr -c 'A-Za-z0-9_.-' '_')-$(date +%Y%m%d-%H%M%S)
mkdir -p "$OUT" || die "cannot create $OUT"
OUT=$(cd "$OUT" && pwd)
[ ! -e "$OUT/reports/index.json" ] || die "$OUT already holds a report; pick another --out"

if [ -z "$PORT" ]; then
  PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()') || die "no free port"
fi
URL="ws://127.0.0.1:$PORT"

python3 "$HERE/spec.py" server "$OUT/spec.json" "$URL" "$OUT/reports" "$CASES" "$EXCLUDE" || die "bad case selection"

# ---------------------------------------------------------------- fuzzing server
SERVER_PID=""
stop_server() {
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -TERM "$SERVER_PID" 2>/dev/null
    for _ in $(seq 1 600); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$SERVER_PID" 2>/dev/null
    wait "$SERVER_PID" 2>/dev/null
  fi
  SERVER_PID=""
}
trap stop_server EXIT
trap 'stop_server; exit 130' INT TERM

(cd "$OUT" && exec env PYTHONWARNINGS=ignore "$VENV/bin/python" -u "$HERE/fuzzingserver_lo.py" \
   "$OUT/spec.json" "$OUT/cases.json" $LENIENT >"$OUT/server.log" 2>&1) &
SERVER_PID=$!
up=""
for _ in $(seq 1 150); do
  kill -0 "$SERVER_PID" 2>/dev/null || break
  if grep -q "fuzzingserver_lo: listening" "$OUT/server.log" 2>/dev/null &&
     (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then up=1; break; fi
  sleep 0.2
done
[ -n "$up" ] || { cat "$OUT/server.log" >&2; die "fuzzing server did not start on port $PORT"; }
NCASES=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' "$OUT/cases.json")
echo "run.sh: fuzzing server on $URL, $NCASES cases, agent '$AGENT', output $OUT" >&2

# ---------------------------------------------------------------- client
subst() { local s=$1; s=${s//\{url\}/$URL}; s=${s//\{agent\}/$AGENT}; s=${s//\{port\}/$PORT}; s=${s//\{out\}/$OUT}; printf '%s' "$s"; }
export AUTOBAHN_URL=$URL AUTOBAHN_AGENT=$AGENT AUTOBAHN_PORT=$PORT AUTOBAHN_OUT=$OUT
if [ $# -eq 1 ]; then
  CMD=(bash -c "$(subst "$1")")
else
  CMD=(); for a in "$@"; do CMD+=("$(subst "$a")"); done
fi
printf 'run.sh: client:' >&2; printf ' %q' "${CMD[@]}" >&2; echo >&2
T0=$(date +%s)
timeout --kill-after=10 "$TIMEOUT" "${CMD[@]}" > >(tee "$OUT/client.log") 2>&1
CLIENT_RC=$?
T1=$(date +%s)
[ $CLIENT_RC -eq 124 ] && echo "run.sh: client killed after ${TIMEOUT}s timeout" >&2
echo "run.sh: client exited with $CLIENT_RC after $((T1 - T0))s" >&2

SERVER_CPU=$(awk -v hz="$(getconf CLK_TCK)" '{printf "%.0f", ($14 + $15) / hz}' "/proc/$SERVER_PID/stat" 2>/dev/null || echo "?")
stop_server   # writes the reports if the client did not call /updateReports after its last case
trap - EXIT INT TERM
if grep -q "opening handshake from .* refused" "$OUT/server.log"; then
  echo "run.sh: the server refused opening handshakes ($(grep -c 'opening handshake from .* refused' "$OUT/server.log")x), e.g.:" >&2
  grep -m 3 "opening handshake from .* refused" "$OUT/server.log" >&2
fi

# ---------------------------------------------------------------- summary
{
  echo "client: ${CMD[*]}"
  echo "client exit: $CLIENT_RC, wall: $((T1 - T0))s (fuzzing server CPU: ${SERVER_CPU}s), cases selected: $NCASES"
  python3 "$HERE/summarise.py" --agent "$AGENT" --cases "$OUT/cases.json" $DETAILS "$OUT/reports"
} | tee "$OUT/summary.txt"
RC=${PIPESTATUS[0]}
echo "run.sh: HTML report: $OUT/reports/index.html" >&2
[ -f "$OUT/reports/index.json" ] || RC=2
exit $RC
