#!/usr/bin/env bash
# Runs every pubsubbench mode (release) against a PubSubBroker in its own process
# (`pubsubbench --serve-broker`), the broker pinned to cpu 1 and the client to cpu 0, each
# mode REPS times (default 3). Prints one JSON line per run.
#   Scripts/bench/pubsub.sh [REPS]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
reps="${1:-3}"
swift build -c release --package-path "$root" --product pubsubbench >&2
bin="$(swift build -c release --package-path "$root" --show-bin-path)"
ulimit -n 20000 || true
log="$(mktemp)"
taskset -c 1 "$bin/pubsubbench" --serve-broker 0 >"$log" 2>&1 &
broker=$!
trap 'kill "$broker" 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 50); do grep -q "listening" "$log" && break; sleep 0.1; done
url="$(sed -n 's/^broker listening on //p' "$log")"
[ -n "$url" ] || { echo "pubsub.sh: the broker did not start" >&2; cat "$log" >&2; exit 1; }
client=(taskset -c 0 "$bin/pubsubbench" --url "$url")
for _ in $(seq "$reps"); do
  "${client[@]}" --mode invoke-rtt --count 20000 --size 32
  "${client[@]}" --mode invoke-pipeline --count 100000 --size 32 --window 100
  "${client[@]}" --mode publish-fanout --count 5000 --size 32 --subscribers 10 --window 10
  "${client[@]}" --mode connections --connections 1000
done
