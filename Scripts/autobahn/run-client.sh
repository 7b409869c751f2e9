#!/usr/bin/env bash
# Autobahn|Testsuite fuzzing server against WireKit's client role.
#
#   Scripts/autobahn/run-client.sh [--cases 1,2,3,4,5,6,7,10] [--debug] [run.sh options...]
#
# Builds the `wirekit-autobahn-client` product (release unless --debug), then runs run.sh
# (Python 2.7 venv under .build-testenv/, fuzzing server on a free loopback port) with it.
# Exit status: 0 when every selected case is OK, NON-STRICT, INFORMATIONAL or UNIMPLEMENTED;
# 1 when any case FAILED or was not run; 2 on a bench error.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$HERE/../.."
CONFIG=release
ARGS=()
while [ $# -gt 0 ]; do
    case "$1" in
        --debug) CONFIG=debug; shift ;;
        *) ARGS+=("$1"); shift ;;
    esac
done
echo "run-client.sh: building wirekit-autobahn-client ($CONFIG)" >&2
swift build -c "$CONFIG" --product wirekit-autobahn-client >&2
BIN="$(swift build -c "$CONFIG" --show-bin-path)/wirekit-autobahn-client"
exec "$HERE/run.sh" -a wirekit "${ARGS[@]}" -- "$BIN" {url} {agent}
