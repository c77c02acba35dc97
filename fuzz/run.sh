#!/usr/bin/env bash
# Fuzzes every reader: seeds each target's corpus from tests/fixtures, then
# runs it for RUNS executions (default 1,000,000) at the lowest priority.
#
#   fuzz/run.sh                      # every target, 1,000,000 runs each
#   fuzz/run.sh 20000 workbook_xls   # one target, fewer runs
#
# Needs cargo-fuzz (`cargo install cargo-fuzz`) and a nightly toolchain
# (FUZZ_TOOLCHAIN=+nightly, the default; on a stable toolchain set
# FUZZ_TOOLCHAIN= and RUSTC_BOOTSTRAP=1). A crash leaves its input in
# fuzz/artifacts/TARGET/; make it a fixture with a test.
set -euo pipefail
cd "$(dirname "$0")"
# The stream_results harness imports every clean input into an event
# folder's database: on a memory file system that costs no disk syncs
# (628 executions a second instead of about 60).
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then
  export TMPDIR=/dev/shm
fi
runs=${1:-1000000}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(csv_results stream_results csv_racks csv_scorecard workbook_xlsx workbook_xls workbook_ods roster config_toml event_store)
fi
F=../tests/fixtures
seed() { # TARGET FILE...
  local dir=corpus/$1
  shift
  mkdir -p "$dir"
  for f in "$@"; do
    if [ -f "$f" ]; then cp "$f" "$dir/seed-$(echo "$f" | tr '/' '_')"; fi
  done
}
shopt -s nullglob
seed csv_results $F/good/*.csv $F/bad/*.csv $F/ties/*.csv $F/real-world/*.csv
seed stream_results $(grep -rlis '^session,table,game,seat' $F --include='*.csv')
seed csv_racks $F/racks/*.csv
seed csv_scorecard $F/scorecard/*.csv $F/real-world/*.csv $F/layouts/*.csv
seed workbook_xlsx $F/workbooks/*.xlsx $F/hostile/*.xlsx
seed workbook_xls $F/workbooks/*.xls $F/hostile/*.xls
seed workbook_ods $F/workbooks/*.ods $F/layouts/mixed-folder/*.ods $F/hostile/*.ods
seed roster $F/roster.csv $F/roster/*.csv $F/real-world/*roster*.csv
seed config_toml $(find ../examples $F -name tilerank.toml)
# A real event database: the end-to-end HK fixture imported.
store_seed() {
  local tmp
  tmp=$(mktemp -d)
  local t="cargo run -q --release --manifest-path ../Cargo.toml --"
  $t init "$tmp/ev" --profile hk --name Seed --date 2026-03-28 >/dev/null 2>&1
  $t roster $F/e2e/hk/roster.csv --event "$tmp/ev" >/dev/null 2>&1
  $t import $F/e2e/hk/cards --event "$tmp/ev" >/dev/null 2>&1
  mkdir -p corpus/event_store
  cp "$tmp/ev/tilerank.db" corpus/event_store/seed-e2e-hk.db
  rm -rf "$tmp"
}
if [[ " ${targets[*]} " == *" event_store "* ]]; then store_seed; fi
for t in "${targets[@]}"; do
  echo "== $t: $runs runs"
  nice -n 19 cargo ${FUZZ_TOOLCHAIN-+nightly} fuzz run -s none -O "$t" "corpus/$t" -- \
    -runs="$runs" -max_len=262144 -timeout=30 -rss_limit_mb=1024 -print_final_stats=1
done
