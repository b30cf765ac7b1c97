#!/usr/bin/env bash
# Renders a self-contained HTML report in headless Chromium (Debian's package): a screenshot,
# and the DOM as it stands after the page's script ran. Fails if Chromium fails, if the page
# logged a script error, or if the page's marker (set by its last script line) is missing.
# Installs Chromium first when it is missing (needs root, as on the CI machine).
#
# usage: scripts/render-html.sh REPORT.html OUT.png [DOM_OUT.html]
set -euo pipefail

if [ $# -lt 2 ] || [ $# -gt 3 ]; then
  echo "usage: $0 REPORT.html OUT.png [DOM_OUT.html]" >&2
  exit 2
fi
report=$(realpath "$1")
png=$2
dom=${3:-}
# Set by HtmlReport's script once the whole page parsed and ran (HtmlReport.RENDERED_MARKER).
marker='data-rendered="yes"'
# How long one Chromium run may take before it counts as hung.
render_timeout=120
window=1280,2000

if ! command -v chromium >/dev/null; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "$0: chromium is not installed and installing it needs root: apt-get install -y chromium" >&2
    exit 1
  fi
  echo "$0: installing chromium" >&2
  apt-get update -q >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >&2
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A fresh profile per run (no state between runs, runs can go side by side); every host name
# resolves to nothing, so a page that tried to load anything would not get it.
flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run
  --disable-background-networking --disable-component-update --disable-sync
  --host-resolver-rules="MAP * ~NOTFOUND" --user-data-dir="$work/profile"
  --enable-logging=stderr --v=0)

# One run does both: the screenshot once the page loaded, and the DOM dump on stdout.
log=$work/chromium.log
rm -f "$png" # a screenshot left from an earlier run must not pass for this one
if ! timeout "$render_timeout" chromium "${flags[@]}" --window-size="$window" --screenshot="$(realpath -m "$png")" \
    --dump-dom "file://$report" >"$work/dom.html" 2>"$log"; then
  echo "$0: chromium failed on $report:" >&2
  tail -20 "$log" >&2
  exit 1
fi

# Console messages are logged as: INFO:CONSOLE:1] "Uncaught ReferenceError: ...", source: file://...
if grep -E 'Uncaught|CONSOLE[^]]*\] "[A-Za-z]*Error' "$log" >&2; then
  echo "$0: the page logged a script error (above)" >&2
  exit 1
fi
if ! grep -q "$marker" "$work/dom.html"; then
  echo "$0: the page's marker $marker is missing from the DOM: its script did not run to the end" >&2
  exit 1
fi
if [ ! -s "$png" ]; then
  echo "$0: chromium wrote no screenshot to $png" >&2
  exit 1
fi
if [ -n "$dom" ]; then
  cp "$work/dom.html" "$dom"
fi
echo "$0: rendered $report to $png ($(stat -c %s "$png") bytes)"
