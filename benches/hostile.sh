#!/usr/bin/env bash
# Time and peak RSS of uriscan on every adversarial input of the reliability
# issue (100 MB of `<`, a 200 MB line, 1 GB of NUL, ...), generated on the fly
# by examples/hostile (nothing is written to disk), measured two ways:
#   lib: Scanner::scan_reader in the example itself;
#   bin: the input piped into `uriscan -a -c` (-a: the NUL case is not skipped).
# Usage: benches/hostile.sh [SCALE]   (SCALE 1 = the issue's sizes; 0.1 = a tenth)
# Needs GNU time (/usr/bin/time -v). Prints a Markdown table.
set -euo pipefail
cd "$(dirname "$0")/.."
scale="${1:-1}"
target="${CARGO_TARGET_DIR:-target}"
cargo build --release --quiet --example hostile --bin uriscan
gen="$target/release/examples/hostile"
bin="$target/release/uriscan"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# Prints "SECONDS KIB" from a `time -v` report.
measure() {
    awk -F': ' '
        /Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i] }
        /Maximum resident set size/ { k = $2 }
        END { printf "%.2f %d\n", s, k }' "$1"
}

echo "| case | input | bytes | lib finds | lib s | lib MB/s | lib peak RSS | bin count | bin s | bin MB/s | bin peak RSS |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
"$gen" list --scale "$scale" | while IFS=$'\t' read -r name bytes what; do
    lib_out="$(/usr/bin/time -v -o "$tmp/lib" "$gen" scan "$name" --scale "$scale")"
    finds="$(sed -n 's/.*finds=\([0-9]*\).*/\1/p' <<<"$lib_out")"
    read -r lib_s lib_kb < <(measure "$tmp/lib")
    count="$("$gen" emit "$name" --scale "$scale" | /usr/bin/time -v -o "$tmp/bin" "$bin" -a -c || true)"
    read -r bin_s bin_kb < <(measure "$tmp/bin")
    rate() { awk -v b="$bytes" -v s="$1" 'BEGIN { if (s > 0) printf "%.0f", b / 1e6 / s; else print "-" }'; }
    printf '| %s | %s | %s | %s | %s | %s | %s MiB | %s | %s | %s | %s MiB |\n' \
        "$name" "$what" "$bytes" "$finds" "$lib_s" "$(rate "$lib_s")" "$((lib_kb / 1024))" \
        "${count:-0}" "$bin_s" "$(rate "$bin_s")" "$((bin_kb / 1024))"
done
