#!/usr/bin/env bash
# A scripted UCCI (then UCI) dialog with the Windows build under wine: handshake, isready,
# a timed search, ponder + ponderhit, an illegal position, quit/bye. The moves it prints are
# checked against the native binary's legal move list (`jiangjun perft 1`).
# usage: tests/wine_dialog.sh JIANGJUN_EXE NATIVE_JIANGJUN
set -euo pipefail
exe=$1 native=$2
wine=$(command -v wine64 || command -v wine || ls /usr/lib/wine/wine64 2>/dev/null || true)
[ -n "$wine" ] || { echo "wine not found"; exit 77; }
export WINEDEBUG=-all WINEPREFIX=${WINEPREFIX:-${TMPDIR:-/tmp}/jiangjun-wineprefix}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
start="rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
# Input is paced with sleeps so that each search ends before the next command (wine starts slowly).
{
    echo ucci; echo "setoption usemillisec true"; echo "setoption hashsize 32"; echo isready
    echo "position fen $start moves h2e2"; echo "go time 2000 increment 0 opptime 2000 oppincrement 0"
    sleep 4
    echo "position startpos moves h2e2 h7e7"; echo "go ponder time 1000 increment 0"
    sleep 1; echo ponderhit
    sleep 3
    echo "position fen foobar"; echo "go depth 2"
    echo uci; echo "position startpos"; echo "go wtime 300 btime 300"
    sleep 3
    echo quit
} | timeout 120 "$wine" "$exe" | tr -d '\r' > "$out"
cat "$out"
grep -q '^ucciok$' "$out"
grep -q '^readyok$' "$out"
grep -q '^uciok$' "$out"
grep -q '^nobestmove$' "$out"
grep -q 'info string error: bad FEN' "$out"
# UCCI's scores are bare ("score 12"), UCI's carry "cp": no cp before the switch to UCI, a UCCI score and a
# cp score after it (the last search)
ucci_part=$(sed '/^uciok$/q' "$out") uci_part=$(sed -n '/^uciok$/,$p' "$out")
! grep -qE '^info .*score cp ' <<<"$ucci_part" || { echo "a cp score before uci"; exit 1; }
grep -qE '^info depth .* score -?[0-9]+ ' <<<"$ucci_part" || { echo "no UCCI score"; exit 1; }
grep -qE '^info depth .* score cp -?[0-9]+ ' <<<"$uci_part" || { echo "no cp score after uci"; exit 1; }
mapfile -t best < <(grep -E '^bestmove [a-i][0-9][a-i][0-9]' "$out" | awk '{print $2}')
[ "${#best[@]}" -eq 3 ] || { echo "expected 3 bestmoves, got ${#best[@]}"; exit 1; }
legal() { "$native" perft 1 "$1" 2>/dev/null | grep -q "^$2: "; }
after_h2e2=$(printf 'position startpos moves h2e2\nd\n' | "$native" | sed -n 's/^Fen: //p')
after_h2e2_h7e7=$(printf 'position startpos moves h2e2 h7e7\nd\n' | "$native" | sed -n 's/^Fen: //p')
legal "$after_h2e2" "${best[0]}" || { echo "illegal: ${best[0]}"; exit 1; }
legal "$after_h2e2_h7e7" "${best[1]}" || { echo "illegal: ${best[1]}"; exit 1; }
legal "$start" "${best[2]}" || { echo "illegal: ${best[2]}"; exit 1; }
echo "wine dialog OK"
