#!/usr/bin/env bash
# Whole-command benchmark of the uriscan binary over ../shared/corpus/:
#   1. uriscan -j1 against ripgrep -j1 -o with a URL regex (same bytes, same run);
#   2. uriscan with all cores against -j1;
#   3. mail mode against --no-mail over the mail archives, one thread;
#   4. peak RSS scanning a generated 2 GiB file (streaming keeps it flat).
# Needs: ../shared/corpus, hyperfine and ripgrep (installed with apt when missing),
# /usr/bin/time. Usage: benches/cli.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-10}
corpus=../shared/corpus
[ -d "$corpus" ] || { echo "benches/cli.sh: $corpus is missing" >&2; exit 1; }
for tool in rg hyperfine; do
    command -v "$tool" >/dev/null || { apt-get update -qq && apt-get install -y -qq ripgrep hyperfine >/dev/null; }
done
cargo build --release -q
bin=target/release/uriscan
regex='(?:https?|ftp|mailto|file|news|urn):[^\s<>"]+'

echo "== environment"
echo "$(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(uname -r)"
echo "corpus: $(du -sb "$corpus" | cut -f1) bytes in $(find "$corpus" -type f | wc -l) files"
cat "$corpus"/* >/dev/null 2>&1 || true; find "$corpus" -type f -exec cat {} + >/dev/null  # warm the page cache

echo "== single thread: uriscan -j1 vs rg -j1 -o"
hyperfine -N --warmup 2 --runs "$runs" --export-markdown /tmp/uriscan-bench-1.md \
    "$bin -j1 --no-filename $corpus" \
    "rg -j1 -o --no-filename '$regex' $corpus"
echo "== threads: uriscan (all cores) vs -j1"
hyperfine -N --warmup 2 --runs "$runs" --export-markdown /tmp/uriscan-bench-2.md \
    "$bin -j1 --no-filename $corpus" \
    "$bin --no-filename $corpus"

echo "== mail mode: $corpus/mail, one thread, mail vs --no-mail (read the min: the machine is shared)"
echo "mail: $(du -sb "$corpus/mail" | cut -f1) bytes"
hyperfine -N --warmup 3 --runs "$((runs * 3))" --export-markdown /tmp/uriscan-bench-3.md \
    "$bin -j1 --no-filename $corpus/mail" \
    "$bin -j1 --no-filename --no-mail $corpus/mail"

echo "== memory: a 2 GiB file"
big=$(mktemp /tmp/uriscan-big.XXXXXX)
trap 'rm -f "$big"' EXIT
files=$(find "$corpus" -type f | sort)
while [ "$(stat -c %s "$big")" -lt $((2 * 1024 * 1024 * 1024)) ]; do
    # shellcheck disable=SC2086
    cat $files >> "$big"
done
/usr/bin/time -f "uriscan on $(stat -c %s "$big") bytes: %e s, peak RSS %M KiB" "$bin" -j1 "$big" > /dev/null
