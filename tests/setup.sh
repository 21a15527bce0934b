#!/bin/sh
# What the tests need besides Python packages: a Chromium for the browser
# tests of `catalyst serve` (tests/test_serve_browser.py). Installs Debian's
# chromium with apt-get when it is missing (with sudo when not root).
# Elsewhere, point CHROMIUM at a Chromium binary before running the tests.
set -eu
browser="${CHROMIUM:-/usr/bin/chromium}"
if [ -x "$browser" ]; then
    exit 0
fi
if [ -n "${CHROMIUM:-}" ]; then
    echo "tests/setup.sh: CHROMIUM is $CHROMIUM, which is not an executable file" >&2
    exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "tests/setup.sh: no Chromium at $browser and no apt-get to install it;" >&2
    echo "install Chromium and set CHROMIUM to its path, then run the tests again" >&2
    exit 1
fi
if [ "$(id -u)" = 0 ]; then
    as_root=""
elif command -v sudo >/dev/null 2>&1; then
    as_root="sudo"
else
    echo "tests/setup.sh: installing chromium needs root: run 'apt-get install -y chromium' as root" >&2
    exit 1
fi
echo "tests/setup.sh: installing chromium for the browser tests" >&2
$as_root apt-get update -qq
DEBIAN_FRONTEND=noninteractive $as_root apt-get install -y -qq chromium >/dev/null
