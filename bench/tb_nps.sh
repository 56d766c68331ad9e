#!/bin/sh
# bench/tb_nps.sh ENGINE [TBDIR] [FEN]: one UCI search of 3,000,000 nodes (go nodes) from an endgame,
# with the tablebases of TBDIR loaded (EGTBPath) or none; prints the last "info depth" line without its PV.
# Default FEN: KR-KHAA (the rook can take the horse: KR-KAA, in the starter set of build/tb).
E=${1:?usage: bench/tb_nps.sh ENGINE [TBDIR] [FEN]}
D=${2:-}
FEN=${3:-"3aka3/9/4n4/9/9/9/9/4R4/9/3K5 w - - 0 1"}
DONE=$(mktemp)
rm -f "$DONE"
{ echo uci; [ -n "$D" ] && echo "setoption name EGTBPath value $D"; echo "position fen $FEN"
  echo "go nodes 3000000"; while [ ! -f "$DONE" ]; do sleep 0.1; done; echo quit; } |
  "$E" | { last=""; while read -r l; do
    case "$l" in
    "info depth"*) last=$l ;;
    bestmove*) echo "$last" | sed 's/ pv .*//'; touch "$DONE" ;;
    esac
  done; }
rm -f "$DONE"
