#!/usr/bin/env bash
# The npm package of the browser build: `npm pack` of the package folder (build-web/npm) makes
# jiangjun-web-VERSION.tgz holding package.json, the engine (jiangjun.js, one file; the threaded engine's
# three files where the build made them), the worker wrapper, the page and web/README.md; `npm install` of
# the tarball (offline: it has no dependencies) into a scratch prefix gives node_modules/jiangjun-web, whose
# JiangjunLines answers a UCCI dialog, the book and the verdicts under node (tests/web_npm_check.js) and,
# with CHROMIUM, whose page passes its self test in headless Chromium served, served with COOP/COEP
# (threads, where the package has them) and from file:// (tests/web_page.js; screenshots
# SCRATCH_DIR/web_npm_page*.png).
# usage: tests/web_npm.sh NPM NODE PACKAGE_DIR SCRATCH_DIR VERSION [CHROMIUM]
set -euo pipefail
npm=$1 node=$2 pkg=$3 scratch=$4 version=$5 chromium=${6:-}
here=$(cd "$(dirname "$0")" && pwd)
files="package.json jiangjun.js jiangjun-worker.js index.html style.css app.js board.js setup.js selftest.js README.md"
if [ -f "$pkg/jiangjun-threads.js" ]; then # built with the threaded engine (XQ_WEB_THREADS)
    files="$files jiangjun-threads.js jiangjun-threads.wasm jiangjun-threads.worker.js"
fi
# shellcheck disable=SC2086 # the file names are words
tgz=$("$here/wasm_npm_pack.sh" "$npm" "$pkg" "$scratch" "jiangjun-web-$version.tgz" $files)
"$npm" install --silent --offline --no-audit --no-fund --prefix "$scratch/prefix" "$tgz"
installed="$scratch/prefix/node_modules/jiangjun-web"
[ -f "$installed/jiangjun.js" ] || { echo "no $installed/jiangjun.js after npm install"; exit 1; }
timeout 300 "$node" "$here/web_npm_check.js" "$installed" "$version"
if [ -n "$chromium" ]; then
    timeout 300 "$node" "$here/web_page.js" "$chromium" "$installed" "$scratch/web_npm_page.png" 120
fi
echo "web npm package OK: $(basename "$tgz"), $(stat -c %s "$tgz") bytes"
