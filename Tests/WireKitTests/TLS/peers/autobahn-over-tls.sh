#!/usr/bin/env bash
# Autobahn|Testsuite client cases through TLS: stunnel4 terminates TLS (the committed test
# certificate) in front of the fuzzing server, and `wirekit-autobahn-client` connects with wss://.
#
#   Tests/WireKitTests/TLS/peers/autobahn-over-tls.sh [--cases 1,2,3,4,5,6,7] [run.sh options...]
#
# The fuzzing server listens on 127.0.0.1:PORT and stunnel on [::1]:PORT (same port, so the
# Host header's port matches what the fuzzing server expects); the client dials wss://[::1]:PORT,
# which the test certificate covers (IP ::1). The client trusts the test CA through
# SSL_CERT_FILE (OpenSSL's default verify paths), so verification stays on.
# Needs stunnel4 (apt-get install stunnel4), what Scripts/autobahn/run.sh needs, and a
# wirekit-autobahn-client whose default transport factory handles wss:// (`.tls()`).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../../../.." && pwd)
CERTS="$ROOT/Tests/WireKitTests/TLSCertificates"
STUNNEL=$(command -v stunnel4 || command -v stunnel || true)
[ -n "$STUNNEL" ] || { echo "autobahn-over-tls.sh: stunnel4 not found (apt-get install stunnel4)" >&2; exit 2; }

CASES=1,2,3,4,5,6,7
ARGS=()
while [ $# -gt 0 ]; do
    case "$1" in
        --cases) CASES=$2; shift 2 ;;
        *) ARGS+=("$1"); shift ;;
    esac
done

PORT=$(python3 -c '
import socket
for _ in range(50):
    a = socket.socket(socket.AF_INET); a.bind(("127.0.0.1", 0)); port = a.getsockname()[1]
    b = socket.socket(socket.AF_INET6)
    try:
        b.bind(("::1", port)); print(port); break
    except OSError:
        pass
    finally:
        a.close(); b.close()
')

WORK=$(mktemp -d)
cat >"$WORK/stunnel.conf" <<CONF
foreground = yes
pid =
debug = 3
socket = l:TCP_NODELAY=1
socket = r:TCP_NODELAY=1
[autobahn]
accept = ::1:$PORT
connect = 127.0.0.1:$PORT
cert = $CERTS/server-chain.pem
key = $CERTS/server-key.pem
CONF
"$STUNNEL" "$WORK/stunnel.conf" >"$WORK/stunnel.log" 2>&1 &
STUNNEL_PID=$!
trap 'kill "$STUNNEL_PID" 2>/dev/null || true; rm -rf "$WORK"' EXIT

echo "autobahn-over-tls.sh: building wirekit-autobahn-client (release)" >&2
(cd "$ROOT" && swift build -c release --product wirekit-autobahn-client >&2)
BIN="$(cd "$ROOT" && swift build -c release --show-bin-path)/wirekit-autobahn-client"

SSL_CERT_FILE="$CERTS/ca.pem" "$ROOT/Scripts/autobahn/run.sh" -p "$PORT" -c "$CASES" -a wirekit-tls \
    "${ARGS[@]}" -- "$BIN" "wss://[::1]:$PORT" {agent}
