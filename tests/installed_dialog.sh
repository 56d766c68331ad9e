#!/usr/bin/env bash
# A UCCI dialog with an installed engine: the handshake names the version, a net that is not built in is
# found by its bare name in the installed share/jiangjun, a search answers a legal move (checked with the
# engine's own perft), and --version agrees. Used by tests/install_prefix.sh and tests/deb_install.sh.
# usage: tests/installed_dialog.sh ENGINE VERSION
set -euo pipefail
engine=$1 version=$2
out=$(mktemp)
trap 'rm -f "$out"' EXIT
cd "$(mktemp -d)" # not the source tree: the net must come from the install
printf 'ucci\nsetoption evalfile net1.nnue\nisready\nposition startpos moves h2e2\ngo depth 6\n' \
    | timeout 60 "$engine" > "$out"
cat "$out"
grep -qx "id name Jiangjun $version" "$out" || { echo "no 'id name Jiangjun $version'"; exit 1; }
grep -qx 'ucciok' "$out" && grep -qx 'readyok' "$out"
grep -q '^info string net loaded: net1.nnue (net1' "$out" || { echo "net1.nnue not found in the install"; exit 1; }
move=$(sed -n 's/^bestmove \([a-i][0-9][a-i][0-9]\).*/\1/p' "$out")
[ -n "$move" ] || { echo "no bestmove"; exit 1; }
fen=$(printf 'position startpos moves h2e2\nd\nquit\n' | "$engine" | sed -n 's/^Fen: //p')
"$engine" perft 1 "$fen" 2>/dev/null | grep -q "^$move: " || { echo "illegal move $move in $fen"; exit 1; }
"$engine" --version | head -1 | grep -qx "Jiangjun $version"
echo "installed engine OK: bestmove $move"
