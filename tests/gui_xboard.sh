#!/usr/bin/env bash
# gui_xboard.sh JIANGJUN OUTDIR - Jiangjun in the real XBoard, headless under Xvfb (ctest gui_xboard,
# labels gui and slow). XBoard plays in match mode, by itself:
#   1. two games of Jiangjun over CECP against Jiangjun over UCCI through uci2wb (colours alternate),
#   2. where fairymax's maxqi is installed, one game of Jiangjun over CECP against maxqi,
# at 40 moves in 6 seconds (XBoard's "level 40 0:06 0": both the CECP and the uci2wb paths of
# moves-to-go; whole seconds, because uci2wb misreads fractional increments). It checks that every
# game ends with a result in the saved PGN and that XBoard's debug log shows no illegal move, no
# engine error, no refused position, no false claim and no engine that failed to start. A
# screenshot of the board in the middle of the first game is saved as OUTDIR/xboard.png.
# Exit 77 (skipped) when xboard, uci2wb, Xvfb or ImageMagick's import are missing
# (Debian: apt-get install -y xboard uci2wb xvfb fairymax imagemagick), 1 instead with
# XQ_GUI_REQUIRED=1 (.ci/run). Nothing here can hang:
# every XBoard run is under timeout, and Xvfb is stopped on exit.
set -u
jiangjun="$(cd "$(dirname "${1:?usage: gui_xboard.sh JIANGJUN OUTDIR}")" && pwd)/$(basename "$1")"
out="${2:?usage: gui_xboard.sh JIANGJUN OUTDIR}"
mkdir -p "$out" && out="$(cd "$out" && pwd)"

XBOARD_TIMEOUT=150    # seconds for one XBoard match (two games take about a minute)
SHOT_AFTER_MOVES=12   # the screenshot waits for this many engine moves of the first game
TC=(-mps 40 -tc 0:06)

find_tool() { command -v "$1" 2>/dev/null || { [ -x "/usr/games/$1" ] && echo "/usr/games/$1"; }; }
xboard="$(find_tool xboard)"; uci2wb="$(find_tool uci2wb)"; xvfb="$(find_tool Xvfb)"
import="$(find_tool import)"; maxqi="$(find_tool maxqi)"
missing=""
[ -n "$xboard" ] || missing="$missing xboard"
[ -n "$uci2wb" ] || missing="$missing uci2wb"
[ -n "$xvfb" ] || missing="$missing xvfb"
[ -n "$import" ] || missing="$missing imagemagick"
if [ -n "$missing" ]; then
    echo "SKIPPED: not installed:$missing (apt-get install -y xboard uci2wb xvfb fairymax imagemagick)"
    [ "${XQ_GUI_REQUIRED:-0}" = 0 ] || exit 1 # CI installed them: a skip there is a failure
    exit 77
fi
[ -x "$jiangjun" ] || { echo "FAIL: no engine at $jiangjun"; exit 1; }

# a display nobody uses
display=""
for n in $(seq 90 140); do
    if [ ! -e "/tmp/.X$n-lock" ] && [ ! -e "/tmp/.X11-unix/X$n" ]; then display=":$n"; break; fi
done
[ -n "$display" ] || { echo "FAIL: no free X display number"; exit 1; }
"$xvfb" "$display" -screen 0 1280x1024x24 -nolisten tcp >"$out/xvfb.log" 2>&1 &
xvfb_pid=$!
shot_pid=""
cleanup() {
    [ -z "$shot_pid" ] || kill "$shot_pid" 2>/dev/null
    kill "$xvfb_pid" 2>/dev/null
    wait "$xvfb_pid" 2>/dev/null
}
trap cleanup EXIT
for _ in $(seq 1 100); do
    [ -e "/tmp/.X11-unix/X${display#:}" ] && break
    kill -0 "$xvfb_pid" 2>/dev/null || { echo "FAIL: Xvfb did not start:"; cat "$out/xvfb.log"; exit 1; }
    sleep 0.1
done
export DISPLAY="$display"
: >"$out/xboardrc" # an empty settings file: no ~/.xboardrc changes the test
rm -f "$out"/*.pgn "$out"/*.debug "$out"/*.stdout "$out/xboard.png"

status=0
fail() { echo "FAIL: $*"; status=1; }

# match NAME GAMES FIRST_NAME FIRST_CMD SECOND_NAME SECOND_CMD: one XBoard match; checks its PGN and log.
match() {
    local name="$1" games="$2" pgn="$out/$1.pgn" log="$out/$1.debug"
    echo "== $name: $3 - $5, $games game(s)"
    local t0=$SECONDS
    timeout -k 5 "$XBOARD_TIMEOUT" "$xboard" -settingsFile "$out/xboardrc" -saveSettingsOnExit false \
        -popupExitMessage false -variant xiangqi -fcp "$4" -fn "$3" -scp "$6" -sn "$5" -mg "$games" "${TC[@]}" \
        -xponder -sgf "$pgn" -debug -nameOfDebugFile "$log" >"$out/$name.stdout" 2>&1
    local rc=$?
    echo "   $((SECONDS - t0)) s, xboard exit status $rc"
    [ "$rc" -ne 124 ] && [ "$rc" -ne 137 ] || fail "$name: XBoard did not finish within $XBOARD_TIMEOUT s"
    [ -s "$pgn" ] || { fail "$name: no PGN saved ($pgn)"; return; }
    paste <(grep -E '^\[White ' "$pgn") <(grep -E '^\[Black ' "$pgn") \
          <(grep -oE '\{[^{}]*\} (1-0|0-1|1/2-1/2|\*)$' "$pgn") | sed 's/^/   /'
    local results
    results=$(grep -cE '^\[Result "(1-0|0-1|1/2-1/2)"\]' "$pgn")
    [ "$results" -eq "$games" ] || fail "$name: $results of $games games ended with a result"
    ! grep -q '^\[Result "\*"\]' "$pgn" || fail "$name: an unfinished game"
    # Jiangjun over CECP (always first): no illegal move, no error, no refused position; nobody's move
    # illegal, no UCI violation (uci2wb's word for a UCCI engine that broke the protocol). The other
    # programs' own "Error (unknown command)" answers (uci2wb to black/white, maxqi to cores) are theirs.
    local bad
    bad=$(grep -E '^[0-9]+ <first : *(Illegal move|Error \(|tellusererror)|llegal move|UCI violation' "$log" | head -5)
    [ -z "$bad" ] || fail "$name: errors in the debug log:"$'\n'"$bad"
    ! grep -qE 'False (win|draw|illegal-move) claim' "$log" "$pgn" || fail "$name: a false claim"
    ! grep -qiE 'exited unexpectedly|Failed to start|no chess program' "$log" "$out/$name.stdout" \
        || fail "$name: an engine failed"
    grep -q '<first : feature done=1' "$log" || fail "$name: Jiangjun (CECP) never finished its features"
}

# the screenshot, taken in the background once the first game is under way
(
    log="$out/cecp-ucci.debug"
    for _ in $(seq 1 300); do
        moves=$(grep -c '<first : move \|<second: move ' "$log" 2>/dev/null)
        [ "${moves:-0}" -ge "$SHOT_AFTER_MOVES" ] && break
        sleep 0.2
    done
    "$import" -display "$display" -window root -trim +repage "$out/xboard.png" >/dev/null 2>&1
) &
shot_pid=$!

# Jiangjun over UCCI behind uci2wb, its output kept: no "info string error" may appear there
cat >"$out/jiangjun-ucci.sh" <<EOF
#!/bin/sh
"$jiangjun" | tee -a "$out/jiangjun-ucci.out"
EOF
chmod +x "$out/jiangjun-ucci.sh"
rm -f "$out/jiangjun-ucci.out"
match cecp-ucci 2 Jiangjun-CECP "$jiangjun" Jiangjun-UCCI "$uci2wb -x $out/jiangjun-ucci.sh"
if grep -q 'info string error\|^nobestmove' "$out/jiangjun-ucci.out" 2>/dev/null; then
    fail "Jiangjun over UCCI answered an error:"$'\n'"$(grep 'info string error\|^nobestmove' "$out/jiangjun-ucci.out" | head -5)"
fi
grep -q '^bestmove ' "$out/jiangjun-ucci.out" 2>/dev/null || fail "Jiangjun over UCCI never moved"
wait "$shot_pid"
shot_pid=""
if [ -s "$out/xboard.png" ]; then
    echo "screenshot: $out/xboard.png"
else
    fail "no screenshot saved"
fi
if [ -n "$maxqi" ]; then
    match cecp-maxqi 1 Jiangjun-CECP "$jiangjun" MaxQi "$maxqi"
else
    echo "== maxqi not installed (apt-get install fairymax): that match is left out"
fi
[ "$status" -eq 0 ] && echo "PASS: XBoard played every game to a result" || echo "see $out for the PGNs and XBoard's debug logs"
exit "$status"
