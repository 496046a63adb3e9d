#!/usr/bin/env bash
# Fuzzes the tier-file reader, and every plugin's parser and judge, with libFuzzer (cargo-fuzz, on the stable
# toolchain through RUSTC_BOOTSTRAP=1), RUNS executions each (default 1,000,000), starting from the corpus in
# fuzz/corpus/ seeded with a solved database's files, the bundled samples and maximal generated inputs (`ludus
# gen --preset official`), which random bytes alone would never reach. Usage: fuzz/run.sh [RUNS] [PLUGIN...]
# (the tier-file target runs every time).
set -euo pipefail
cd "$(dirname "$0")"
runs="${1:-1000000}"
shift || true
plugins=("$@")
if [ ${#plugins[@]} -eq 0 ]; then
    plugins=(adjacent-and-consecutive bacterial-tactics connect-four minesweeper-master square-free stack-management)
fi
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
export RUSTC_BOOTSTRAP=1
cargo fuzz build -s none -O parse
cargo fuzz build -s none -O judge
ludus=../target/release/ludus
[ -x "$ludus" ] || (cd .. && cargo build --release)
# The tier-file reader, seeded with two solved databases' files in both of the target's forms: whole files
# (form 0) and header + blocks with the checksums left to the target (form 1).
tier_corpus="corpus/tier_file"
mkdir -p "$tier_corpus"
scratch="$(mktemp -d)"
# Dodgem's files are laid out by rank (format 2), Three Men's Morris's by key (format 1).
"$ludus" db solve dodgem:n=3 --db "$scratch" 2>/dev/null >/dev/null
"$ludus" db solve three-mens-morris --db "$scratch/morris" 2>/dev/null >/dev/null
for file in "$scratch"/*.ludb "$scratch"/morris/*.ludb; do
    seed="$tier_corpus/$(basename "$(dirname "$file")")-$(basename "$file" .ludb)"
    { printf '\0'; cat "$file"; } > "$seed-whole"
    length=$(od -An -tu4 -j8 -N4 "$file" | tr -d ' ')
    {
        printf '\1'
        head -c $((12 + length)) "$file" | tail -c "$length"
        printf '\0'
        tail -c +$((12 + length + 4 + 1)) "$file"
    } > "$seed-fields"
done
rm -r "$scratch"
cargo fuzz build -s none -O tier_file
echo "== tier_file ($runs runs)"
cargo fuzz run -s none -O tier_file "$tier_corpus" -- \
    -runs="$runs" -max_len=65536 -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 2>&1 |
    grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb|==|SUMMARY|Done)" || true
for plugin in "${plugins[@]}"; do
    parse_corpus="corpus/parse/$plugin"
    judge_corpus="corpus/judge/$plugin"
    mkdir -p "$parse_corpus" "$judge_corpus"
    cp "../samples/$plugin/sample.in" "$parse_corpus/sample.in"
    cp "../samples/$plugin/sample.ans" "$judge_corpus/sample.ans"
    for seed in 1 2; do
        "$ludus" gen "$plugin" --preset official --seed "$seed" > "$parse_corpus/official-$seed.in"
        "$ludus" gen "$plugin" --preset small --seed "$seed" > "$parse_corpus/small-$seed.in"
    done
    for target in parse judge; do
        corpus="corpus/$target/$plugin"
        echo "== $target $plugin ($runs runs)"
        # -rss_limit_mb: memory stays bounded; -max_len: room for the maximal generated inputs;
        # -timeout: a single input taking seconds is a finding.
        LUDUS_FUZZ_PLUGIN="$plugin" cargo fuzz run -s none -O "$target" "$corpus" -- \
            -runs="$runs" -max_len=1048576 -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 2>&1 |
            grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb|==|SUMMARY|Done)" || true
    done
done
