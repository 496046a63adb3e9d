#!/usr/bin/env bash
# Runs Ludus' Connect Four solver and the Pons-style reference solver (pons_style.cpp) on the same positions:
# End-Easy (Pons' set, samples/) and the five generated sets (benches/data/connect-four/), one thread each, and
# prints per set the time per position of each, the reference's nodes per position, and whether both solvers
# gave every score of the file. Usage: benches/reference/compare.sh [SET...] (names like begin-hard; default:
# all six). Needs g++ and a release build of ludus (`cargo build --release`).
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p target/reference

# The reference for a board (its size is compiled in): target/reference/pons_style for 7 x 6 ($REFERENCE if set),
# pons_style_WxH else.
reference_for() {
    local width=$1 height=$2 binary=${REFERENCE:-target/reference/pons_style}
    [[ $width == 7 && $height == 6 ]] || binary=target/reference/pons_style_${width}x${height}
    if [[ ! -x $binary || benches/reference/pons_style.cpp -nt $binary ]]; then
        g++ -O3 -march=native -std=c++17 -DWIDTH="$width" -DHEIGHT="$height" -o "$binary" benches/reference/pons_style.cpp
    fi
    echo "$binary"
}
ludus=${LUDUS:-target/release/ludus}
[[ -x $ludus ]] || { echo "build ludus first: cargo build --release" >&2; exit 1; }

file_of() {
    case $1 in
        end-easy) echo samples/connect-four/end-easy.txt ;;
        *) echo "benches/data/connect-four/$1.txt" ;;
    esac
}

sets=("$@")
[[ ${#sets[@]} -gt 0 ]] || sets=(end-easy middle-easy middle-medium begin-easy begin-easy-rated begin-medium begin-hard
        8x5-begin-medium 8x5-begin-hard 9x5-begin-medium 9x5-begin-hard)
printf '| set | positions | ludus: time per position | reference: time per position | reference: nodes per position | ratio | scores |\n'
printf '|---|---|---|---|---|---|---|\n'
for set in "${sets[@]}"; do
    file=$(file_of "$set")
    work=$(mktemp -d)
    # A set of another board starts with Ludus' `size W H` line, which the reference (built for that size) skips.
    read -r word width height < "$file"
    if [[ $word == size ]]; then
        printf 'size %s %s\n' "$width" "$height" > "$work/moves"
        tail -n +2 "$file" > "$work/positions"
    else
        width=7 height=6
        : > "$work/moves"
        cp "$file" "$work/positions"
    fi
    reference=$(reference_for "$width" "$height")
    count=$(grep -c . "$work/positions")
    cut -d' ' -f1 "$work/positions" >> "$work/moves"
    cut -d' ' -f2 "$work/positions" > "$work/scores"
    "$ludus" solve connect-four "$work/moves" --threads 1 --no-limit --stats > "$work/ludus" 2> "$work/stats"
    # Ludus' closing line on standard error: "N cases in S s; ..." (the solving, as the reference times its own).
    ludus_seconds=$(sed -n 's/.* cases in \([0-9.]*\) s.*/\1/p' "$work/stats")
    "$reference" < "$work/positions" > "$work/reference"
    ours_right=$(awk '{print $NF}' "$work/ludus" | diff -q - "$work/scores" > /dev/null && echo yes || echo NO)
    theirs_right=$(grep -q MISMATCH "$work/reference" && echo NO || echo yes)
    # The reference prints its own solve time (table clearing excluded) and nodes on its closing lines.
    reference_seconds=$(awk '/^# total solve time/ {print $5}' "$work/reference")
    nodes=$(awk '/^# total nodes/ {print $7}' "$work/reference")
    printf '| %s | %d | %.4g ms | %.4g ms | %.0f | %.2f | ludus %s, reference %s |\n' "$set" "$count" \
        "$(echo "$ludus_seconds * 1000 / $count" | bc -l)" "$(echo "$reference_seconds * 1000 / $count" | bc -l)" \
        "$nodes" "$(echo "$ludus_seconds / $reference_seconds" | bc -l)" "$ours_right" "$theirs_right"
    rm -r "$work"
done
