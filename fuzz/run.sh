#!/usr/bin/env bash
# run.sh BUILD_DIR [SECONDS] [TARGET...] - runs the libFuzzer targets of a -DXQ_FUZZ=ON build
# (CC=clang) for SECONDS each (default 60), each on one core, as many at once as there are cores
# (XQ_FUZZ_JOBS sets another number; 1: one after the other), starting from fuzz/corpus/TARGET (with
# the dictionary fuzz/TARGET.dict where there is one). New interesting inputs go to a scratch
# directory, not the repository. The reports come in the targets' order once all have finished.
# A crash, leak, timeout or broken check fails the run; its input is saved as
# BUILD_DIR/fuzz-artifacts/TARGET-crash-*: add it to fuzz/corpus/TARGET/ (named crash-*) with the
# fix, so the ctest fuzz_corpus_TARGET replays it from then on.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
build="$(cd "${1:?usage: run.sh BUILD_DIR [SECONDS] [TARGET...]}" && pwd)"
seconds="${2:-60}"
shift $(( $# >= 2 ? 2 : 1 ))
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(fen move protocol rules book)
artifacts="$build/fuzz-artifacts"
mkdir -p "$artifacts"
jobs_max="${XQ_FUZZ_JOBS:-$(nproc)}"
[ "$jobs_max" -ge 1 ] 2>/dev/null || jobs_max=1

# fuzz_one TARGET - fuzzes one target, its log in $artifacts/TARGET.log and its exit status in
# $artifacts/TARGET.status (always returns 0, so a failure is read from the file, not from wait).
fuzz_one() {
    local t="$1" scratch log dict=()
    scratch="$(mktemp -d)"
    log="$artifacts/$t.log"
    # -timeout: one input taking longer is a hang; -max_len: protocol scripts of a few dozen lines;
    # -dict: fuzz/TARGET.dict where there is one (the protocol's words and legal moves).
    [ ! -f "$here/$t.dict" ] || dict=(-dict="$here/$t.dict")
    local rc=0
    "$build/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout=20 -max_len=4096 -print_final_stats=1 \
        "${dict[@]}" -artifact_prefix="$artifacts/$t-" "$scratch" "$here/corpus/$t" >"$log" 2>&1 || rc=$?
    echo "$(ls "$scratch" | wc -l)" >"$artifacts/$t.new"
    echo "$rc" >"$artifacts/$t.status"
    rm -rf "$scratch"
    return 0
}

for t in "${targets[@]}"; do
    rm -f "$artifacts/$t.status" "$artifacts/$t.new"
    while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do
        wait -n || true
    done
    echo "== fuzz_$t for ${seconds}s"
    fuzz_one "$t" &
done
wait || true

status=0
for t in "${targets[@]}"; do
    log="$artifacts/$t.log"
    if [ "$(cat "$artifacts/$t.status" 2>/dev/null || echo missing)" = 0 ]; then
        echo "== fuzz_$t"
        grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$log" | sed 's/^/   /'
        echo "   corpus: $(cat "$artifacts/$t.new") new inputs (discarded)"
    else
        status=1
        tail -n 60 "$log"
        echo "fuzz_$t FAILED: see $log and $artifacts/$t-*"
    fi
done
exit $status
