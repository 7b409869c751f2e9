#!/usr/bin/env bash
# The flooded app, end to end (release builds): `demo broker` with its defaults, a
# PubSubClient app (`pubsubbench --mode flooded-app`) reading `channel("flood")` and handling one
# publication per 10 ms, and `client-flood.py` (under nice) publishing 10 KiB publications as
# fast as the broker takes them. Prints the app's RSS every second and, last, the app's JSON line
# with its peak RSS (`peak_rss_mib`; the target is < 128 MiB).
#   Scripts/flood/client-flood.sh [SECONDS] [HANDLE_MS]      (defaults: 12, 10)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
seconds="${1:-12}"
handle_ms="${2:-10}"
swift build -c release --package-path "$root" --product demo >&2
swift build -c release --package-path "$root" --product pubsubbench >&2
bin="$(swift build -c release --package-path "$root" --show-bin-path)"
log="$(mktemp)"
"$bin/demo" broker --port 0 >"$log" 2>&1 &
broker=$!
trap 'kill "$broker" 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 100); do grep -q "listening" "$log" && break; sleep 0.1; done
url="$(sed -n 's/^broker listening on \([^ ]*\).*/\1/p' "$log")"
[ -n "$url" ] || { echo "client-flood.sh: the broker did not start" >&2; cat "$log" >&2; exit 1; }
port="$(echo "$url" | sed -n 's/.*:\([0-9]*\)\/.*/\1/p')"
"$bin/pubsubbench" --url "$url" --mode flooded-app --seconds "$seconds" --handle-ms "$handle_ms" &
app=$!
nice -n 10 python3 "$here/client-flood.py" --port "$port" --pid "$app"
status=0
wait "$app" || status=$?
echo "broker: $(grep -c '^disconnect' "$log" || true) disconnections, codes: $(sed -n 's/^disconnect *[^ ]* \([0-9]*\).*/\1/p' "$log" | sort | uniq -c | tr -s ' ' | tr '\n' ';')" >&2
exit "$status"
