#!/usr/bin/env bash
# Regenerates the README's pictures from the sample sheets in samples/hcs:
#   docs/images/sample.jpg  a sample sheet (001_0.jpg) beside the PGN read from it
#   docs/images/review.jpg  the review page of the samples, its first move clicked
# Run it after a change to the review page or to what the samples read, and commit the images.
#
#   scripts/screenshot_review.sh [OUT_DIR]      (default docs/images)
#
# Needs: the release binary (built if missing; BIN=path for another one), a working recognizer
# (ONNX Runtime as `scoresheet read` finds it), and headless Chromium (Debian: apt-get install
# chromium; CHROMIUM=path for another binary).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-docs/images}
bin=${BIN:-target/release/scoresheet}
chromium=${CHROMIUM:-chromium}
[ -x "$bin" ] || cargo build --release
command -v "$chromium" >/dev/null || { echo "no $chromium (apt-get install chromium)" >&2; exit 1; }
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The README's main command, with the review page.
mkdir -p "$work/review"
"$bin" read samples/hcs --group '^(\d+)_' -o "$work/games.pgn" --review "$work/review"

# shot URL WIDTH HEIGHT FILE: a screenshot of the top of the page at 60 % scale (the file's
# extension picks the format).
shot() {
  "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$work/profile" --hide-scrollbars --force-device-scale-factor=0.6 \
    --window-size="$2,$3" --screenshot="$4" "$1" 2>/dev/null >/dev/null
  test -s "$4" && echo "wrote $4 ($(wc -c < "$4") bytes)"
}

# The sample sheet beside the PGN of its game (the two players' sheets 001_0 and 001_1 read
# together): the tag block whose Source names 001_0.jpg and the move text after it.
pgn=$(awk 'BEGIN { RS = ""; ORS = "\n\n" } take { print; exit } /Source "samples\/hcs\/001_0\.jpg/ { print; take = 1 }' \
  "$work/games.pgn" | sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g')
cat > "$work/sample.html" <<EOF
<!DOCTYPE html><html><head><meta charset="utf-8"><style>
body { margin: 0; padding: 16px; background: #fff; font-family: sans-serif; display: flex; gap: 24px; }
img { width: 560px; border: 1px solid #ccc; }
pre { font-size: 15px; line-height: 1.4; margin: 0; white-space: pre; }
pre.cmd { color: #555; margin-bottom: 14px; }
</style></head><body>
<img src="file://$PWD/samples/hcs/001_0.jpg">
<div><pre class="cmd">$ scoresheet read samples/hcs --group '^(\d+)_'</pre><pre>$pgn</pre></div>
</body></html>
EOF
shot "file://$work/sample.html" 1340 712 "$out/sample.jpg"
shot "file://$work/review/review.html#click" 1600 1400 "$out/review.jpg"
