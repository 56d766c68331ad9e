#!/bin/sh
# nets/remake-data.sh - makes the deep-label training data (d10 to d15: nets/README.md) again on a
# fresh machine, each with the build that first made it, and checks each file's sha256 against the recorded one.
#
# usage: nets/remake-data.sh OUTDIR [d8] [d10] [d11] [d12] [d13] [d14] [d15] [PREFIX_GAMES]
#   OUTDIR        where the data (dN.bin) and the builds (OUTDIR/src-COMMIT) go
#   d8            d8.bin from ../shared/data/nnue/d8-n7c.bin.xz (no build needed)
#   d10 d11 d12   the sets to make (default: these three); each is one xqgen run of its own build
#   d13 d14 d15   six shard files each, dN.1.bin .. dN.6.bin: shards 1-6 of a 10-shard run of 20,000 games (the
#                 nets trained on them took the six files as they are); each shard's records (after its
#                 1024-byte envelope, which names the build) are checked
#   PREFIX_GAMES  a number: play only the first N games of each (a quick check; the file is then a prefix of
#                 the recorded one, so the sha256 is not checked)
# JOBS=N (default: the number of cores): with 2 or fewer, one `xqgen play -threads JOBS`; with more, N shards
# of one thread each, joined by `xqgen merge` into the same bytes (tools/xqgen/README.md).
set -eu

usage() { echo "usage: $0 OUTDIR [d8] [d10] [d11] [d12] [d13] [d14] [d15] [PREFIX_GAMES]" >&2; exit 2; }
[ $# -ge 1 ] || usage
OUT=$1
shift
REPO=$(cd "$(dirname "$0")/.." && pwd)
JOBS=${JOBS:-$(nproc)}
SETS=""
PREFIX=""
for a in "$@"; do
    case $a in
    d8 | d10 | d11 | d12 | d13 | d14 | d15) SETS="$SETS $a" ;;
    *[!0-9]* | "") usage ;;
    *) PREFIX=$a ;;
    esac
done
[ -n "$SETS" ] || SETS="d10 d11 d12"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

# The recorded sets: name, build commit, games, seed, sha256 of the compact file (nets/README.md).
recipe() {
    case $1 in
    d10) echo "cfd0d1f 9328 10 2958a5d71204b55411f16f353a8a49db630e7258f33fc68c7ed139565234efbb" ;;
    d11) echo "ea5ee92 8740 11 44a944dff741420d1d318ce0dafc494d2728a6e8d05ac9a4cb2627805db4f598" ;;
    d12) echo "bd2f302 9945 12 4e94df75c96a838dd5dddc94949076a940c15726829653d8747a22edf1097f5d" ;;
    d13) echo "d95a339 20000 13 6" ;; # sharded sets: build, games, seed, shards made (of 10): shard_want
    d14) echo "9f99cf1 20000 14 6" ;;
    d15) echo "2e0ebe8 20000 15 6" ;;
    esac
}

# The sharded sets' shards: the sha256 of each one's records (the file less its 1024-byte envelope).
shard_want() {
    case $1.$2 in
    d13.1) echo 159ddc825006a69654be927a4e4fdfcac856d9806847a891fd209766ecd2c7fb ;;
    d13.2) echo 83a1d2a6f1c154e29aec37fd416d296b68e5c7b800ddb222ef763ce08b207f5e ;;
    d13.3) echo b1d307f25d91b58236c0dfe143a475e4874f97d67017b9b7609014db66551c3b ;;
    d13.4) echo 62ede26ed88aec704bca10fb1115b94fee29f1011b30bf27c9b522619c9cb21a ;;
    d13.5) echo 7213f74fe62631d60b988a077133888875a65895f35cf1eb246389894a8f2098 ;;
    d13.6) echo 891dceb7d14c743f00d3d02572ca210871cedd7fb863e287a24dbe896468650b ;;
    d14.1) echo 0e19667424e1eebc7e1c44fa68cd527318e1fbc0f74daaadc7bdcada042227cd ;;
    d14.2) echo f9e1cc40a838060f58c4bec3ba38c2e7361abc64729a5d77df8d1d9bdfb26253 ;;
    d14.3) echo 70deea37736f20f5159a192f4f68ae94879d803483e32ea51900c1fe829a141d ;;
    d14.4) echo bfdf5788de3d6ffaa6c66027aff759df3e314ff1a8ad1c3d93f5b60e63a50205 ;;
    d14.5) echo 11987fa1884bc8b985749ff47fe365412b1d9de7dc988e76fb5dc45818eb7847 ;;
    d14.6) echo b8eaacae4b2739e4d2e6b1d7c249cf5ee278ed75e527931912e220c5159f0b55 ;;
    d15.1) echo d3d72173449525a8914561540548a7c82f1e9f43855fb4a730e1b08f286cbada ;;
    d15.2) echo eb118562ded0ec2240138ae5cd23d0c4451c7b8ae11231bf2d2944f13e2bcf80 ;;
    d15.3) echo a0c8d35e948899633359ca8fb0a69240929b9262f392109494ac7ebf02fd5e76 ;;
    d15.4) echo a231f9ff49e16e7cafa280ac1ed170570e1318cb690efa3f1d459b89be74f442 ;;
    d15.5) echo 5c81d1ae2112735b987df2410d902b7f4c417c256df3f8237dbc095cb622cdac ;;
    d15.6) echo ce55ad9fd3948d9f29fa3c027b4f289706895b2ffab45700dba4458f02487e1a ;;
    esac
}

# Builds xqgen of a commit (its tree exported from this repository, Release, the net of that commit built in).
build_xqgen() {
    src="$OUT/src-$1"
    if [ ! -x "$src/build/tools/xqgen" ]; then
        rm -rf "$src" && mkdir -p "$src"
        git -C "$REPO" archive "$1" | tar -x -C "$src"
        cmake -S "$src" -B "$src/build" -DCMAKE_BUILD_TYPE=Release -DXQ_TESTS=OFF -DXQ_TB_STARTER=OFF >/dev/null
        cmake --build "$src/build" -j "$JOBS" --target xqgen >/dev/null
    fi
    echo "$src/build/tools/xqgen"
}

# Plays one set: one run with JOBS threads, or JOBS shards merged.
play() {
    gen=$1 name=$2 games=$3 seed=$4
    opts="-games $games -nodes 8192 -seed $seed -net nnue -format compact -progress 0"
    if [ "$JOBS" -le 2 ] || [ "$games" -lt "$JOBS" ]; then
        "$gen" play -out "$OUT/$name.bin" $opts -threads "$JOBS" 2>"$OUT/$name.log"
        return
    fi
    i=1
    while [ "$i" -le "$JOBS" ]; do
        "$gen" play -out "$OUT/$name.$i.bin" $opts -threads 1 -shard "$i/$JOBS" 2>"$OUT/$name.$i.log" &
        i=$((i + 1))
    done
    wait
    i=1 shards=""
    while [ "$i" -le "$JOBS" ]; do shards="$shards $OUT/$name.$i.bin"; i=$((i + 1)); done
    "$gen" merge -out "$OUT/$name.bin" $shards
    rm -f $shards
}

# Says whether a file's sha256 (LABEL names it: "d12: PATH sha256") is the recorded one; status 1 if not.
verify() {
    label=$1 got=$2 want=$3 noun=$4
    if [ "$got" = "$want" ]; then
        echo "$label ok"
    else
        echo "$label $got, expected $want: NOT the recorded $noun" >&2
        status=1
    fi
}

# Plays a sharded set's first SHARDS shards of 10 (JOBS at a time, one thread each, or one after another with
# JOBS threads) and checks each one's records.
play_shards() {
    gen=$1 name=$2 games=$3 seed=$4 shards=$5
    opts="-nodes 8192 -seed $seed -net nnue -format compact -progress 0"
    i=1
    while [ "$i" -le "$shards" ]; do
        if [ "$JOBS" -le 2 ]; then
            "$gen" play -out "$OUT/$name.$i.bin" -games "$games" $opts -threads "$JOBS" -shard "$i/10" \
                2>"$OUT/$name.$i.log"
        else
            "$gen" play -out "$OUT/$name.$i.bin" -games "$games" $opts -threads 1 -shard "$i/10" \
                2>"$OUT/$name.$i.log" &
            [ $((i % JOBS)) -ne 0 ] || wait
        fi
        i=$((i + 1))
    done
    wait
    i=1
    while [ "$i" -le "$shards" ]; do
        got=$(tail -c +1025 "$OUT/$name.$i.bin" | sha256sum | cut -d' ' -f1)
        verify "$name: $OUT/$name.$i.bin records sha256" "$got" "$(shard_want "$name" $i)" shard
        i=$((i + 1))
    done
}

status=0
for s in $SETS; do
    if [ "$s" = d8 ]; then
        xz -dc "$REPO/../shared/data/nnue/d8-n7c.bin.xz" >"$OUT/d8.bin"
        want=eb413d332000c9d6201b456d3f92299e9583c907dbbef55be5734d847d11ea88
    else
        set -- $(recipe "$s")
        commit=$1 games=${PREFIX:-$2} seed=$3 want=$4
        echo "$s: building xqgen of $commit" >&2
        gen=$(build_xqgen "$commit")
        # a sharded set's recipe gives the shards made, not a 64-digit sha256; its prefix is one run, as below
        if [ -z "$PREFIX" ] && [ "${#want}" -lt 64 ]; then
            echo "$s: shards 1-$want of 10 of $games games of seed $seed at 8,192 nodes, $JOBS cores" \
                "($(date -u +%H:%M) UTC)" >&2
            play_shards "$gen" "$s" "$games" "$seed" "$want"
            continue
        fi
        echo "$s: $games games of seed $seed at 8,192 nodes, $JOBS cores ($(date -u +%H:%M) UTC)" >&2
        play "$gen" "$s" "$games" "$seed"
    fi
    if [ -n "$PREFIX" ] && [ "$s" != d8 ]; then
        echo "$s: $OUT/$s.bin, the first $PREFIX games (a prefix: sha256 not checked)"
        continue
    fi
    verify "$s: $OUT/$s.bin sha256" "$(sha256sum "$OUT/$s.bin" | cut -d' ' -f1)" "$want" file
done
exit $status
