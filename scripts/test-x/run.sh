#!/bin/sh
# Runs only the X integration tests (they start their own Xvfb and Xorg servers; no $DISPLAY
# needed). Extra arguments go to `swift test`, e.g. --scratch-path .build-x or a narrower
# --filter. Exit status: that of `swift test`.
set -eu
cd "$(dirname "$0")/../.."
scripts/test-x/setup.sh
[ "$(id -u)" -eq 0 ] || echo "scripts/test-x/run.sh: not root: the Xorg + inputtest tests will fail" >&2
exec swift test --filter XServerTests "$@"
