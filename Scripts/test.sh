#!/usr/bin/env bash
# The whole test suite, from a fresh clone: installs the peers the tests need (a Python venv
# with `websockets`; the Autobahn|Testsuite fuzzing server on Python 2.7), builds with warnings
# treated as failures, runs `swift test` with code coverage and prints line coverage per module,
# builds the DocC reference (Scripts/docs.sh: no warning, every public symbol with an abstract),
# then the Autobahn client conformance run.
#
#   Scripts/test.sh            everything CI runs
#   SKIP_AUTOBAHN=1 Scripts/test.sh   unit + interop tests only
#   SKIP_DOCS=1 Scripts/test.sh       without the DocC build (about 1 min)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
export PUBSUB_TEST_ENV=${PUBSUB_TEST_ENV:-$ROOT/.build-testenv}
mkdir -p "$PUBSUB_TEST_ENV"
T0=$(date +%s)
step() { printf '\n==> %s (+%ss)\n' "$*" "$(( $(date +%s) - T0 ))"; }

step "Python peers (websockets) in $PUBSUB_TEST_ENV/venv"
PY="$PUBSUB_TEST_ENV/venv/bin/python"
if ! "$PY" -c 'import websockets' 2>/dev/null; then
    python3 -m venv "$PUBSUB_TEST_ENV/venv"
    "$PUBSUB_TEST_ENV/venv/bin/pip" install -q --disable-pip-version-check -r Scripts/requirements-test.txt
fi
export WIREKIT_TEST_PYTHON="$PY"
export WIREKIT_REQUIRE_PEERS=1

step "swift build --build-tests --enable-code-coverage (warnings fail the build)"
swift build --build-tests --enable-code-coverage 2>&1 | tee "$PUBSUB_TEST_ENV/build.log"
if grep -E '(^|[^a-z])warning:' "$PUBSUB_TEST_ENV/build.log" | grep -v '^warning: .*unable to' ; then
    echo "test.sh: the build printed warnings (see above)" >&2
    exit 1
fi

step "swift test"
XUNIT="$PUBSUB_TEST_ENV/xunit.xml"
rm -f "$XUNIT"
TEST_RC=0
PROFILES="$(swift build --show-bin-path)/codecov"
rm -rf "$PROFILES"
swift test --skip-build --enable-code-coverage --disable-swift-testing --parallel --num-workers 2 --xunit-output "$XUNIT" || TEST_RC=$?
read -r PASSED FAILED < <(python3 Scripts/xunit-counts.py "$XUNIT")
echo "swift test: $PASSED passed, $FAILED failed"
[ "$TEST_RC" -eq 0 ] && [ "$FAILED" -eq 0 ] && [ "$PASSED" -gt 0 ] || { echo "test.sh: swift test failed" >&2; exit 1; }

step "line coverage per module (llvm-profdata, llvm-cov export from the toolchain)"
# One raw profile per test process (--parallel): merge them, then summarize the test binary.
TOOLS=$(dirname "$(readlink -f "$(command -v swift)")")
"$TOOLS/llvm-profdata" merge -sparse -o "$PUBSUB_TEST_ENV/coverage.profdata" "$PROFILES"/*.profraw
rm -f "$PROFILES"/*.profraw
"$TOOLS/llvm-cov" export -summary-only -instr-profile "$PUBSUB_TEST_ENV/coverage.profdata" \
    "$(swift build --show-bin-path)/pubsub-swiftPackageTests.xctest" > "$PUBSUB_TEST_ENV/coverage.json"
python3 Scripts/coverage.py "$PUBSUB_TEST_ENV/coverage.json" --min WireKit/Core=90 --min PubSubClient/Session=90

if [ -z "${SKIP_DOCS:-}" ]; then
    step "DocC reference (Scripts/docs.sh: warnings are errors, 100 % abstracts)"
    Scripts/docs.sh
fi

if [ -z "${SKIP_AUTOBAHN:-}" ] && [ -x Scripts/autobahn/run-client.sh ]; then
    step "Autobahn|Testsuite fuzzing server against the WireKit client (cases 1-7, 10)"
    # The debug build made above: same verdicts as release for these cases, and no extra compile.
    Scripts/autobahn/run-client.sh --debug --cases 1,2,3,4,5,6,7,10
fi

step "done in $(( $(date +%s) - T0 ))s"
echo "$PASSED passed, $FAILED failed"
