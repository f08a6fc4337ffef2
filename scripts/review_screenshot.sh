#!/usr/bin/env bash
# Renders a review page in headless Chromium and saves a screenshot, then clicks the first move
# (through Chromium's --dump-dom after a scripted click is not possible without a driver, so the
# click is checked by loading the page with #click, which the page's script honours).
# Usage: scripts/review_screenshot.sh REVIEW.html OUT.png   (needs Debian's chromium)
set -euo pipefail
page=$(realpath "$1")
out=$(realpath -m "$2")
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --user-data-dir="$profile" --hide-scrollbars --window-size=1400,1000 \
  --screenshot="$out" "file://$page#click" 2>/dev/null
test -s "$out" && echo "screenshot: $out"
