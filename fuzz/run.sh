#!/usr/bin/env bash
# run.sh BUILD_DIR [SECONDS] [TARGET...] - runs the libFuzzer targets of a -DXQ_FUZZ=ON build
# (CC=clang) for SECONDS each (default 60), one after the other on one core, starting from
# fuzz/corpus/TARGET (with the dictionary fuzz/TARGET.dict where there is one). New interesting
# inputs go to a scratch directory, not the repository.
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
status=0
for t in "${targets[@]}"; do
    scratch="$(mktemp -d)"
    log="$artifacts/$t.log"
    echo "== fuzz_$t for ${seconds}s"
    # -timeout: one input taking longer is a hang; -max_len: protocol scripts of a few dozen lines;
    # -dict: fuzz/TARGET.dict where there is one (the protocol's words and legal moves).
    dict=()
    [ ! -f "$here/$t.dict" ] || dict=(-dict="$here/$t.dict")
    if "$build/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout=20 -max_len=4096 -print_final_stats=1 \
        "${dict[@]}" -artifact_prefix="$artifacts/$t-" "$scratch" "$here/corpus/$t" >"$log" 2>&1; then
        grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$log" | sed 's/^/   /'
        echo "   corpus: $(ls "$scratch" | wc -l) new inputs (discarded)"
    else
        status=1
        tail -n 60 "$log"
        echo "fuzz_$t FAILED: see $log and $artifacts/$t-*"
    fi
    rm -rf "$scratch"
done
exit $status
