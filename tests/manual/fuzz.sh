#!/usr/bin/env bash
# tests/manual/fuzz.sh SECONDS [SCRATCH]: runs the libFuzzer targets tests/fuzz_oneshot,
# tests/fuzz_uci, tests/fuzz_tablefile and tests/fuzz_gamefile (built by `make fuzz`) for SECONDS each, one after the other, from the seed
# corpus in tests/data/fuzz-corpus/NAME/ with tests/data/fuzz-corpus/NAME.dict. The grown corpus goes to
# SCRATCH/NAME/ and any finding (crash-, timeout-, oom-, leak- files) to SCRATCH/NAME-*
# (default SCRATCH /tmp/boxer-fuzz), never into the repository. Prints per target the
# executions and findings; exit status 1 if a target found something.
set -u
seconds=${1:-60}
scratch=${2:-/tmp/boxer-fuzz}
tests=$(cd "$(dirname "$0")/.." && pwd)
status=0
for name in oneshot uci tablefile gamefile; do
  mkdir -p "$scratch/$name"
  log="$scratch/$name.log"; marker="$scratch/.$name.start"
  : >"$marker"
  "$tests/fuzz_$name" -max_total_time="$seconds" -timeout=10 -print_final_stats=1 \
    -dict="$tests/data/fuzz-corpus/$name.dict" -artifact_prefix="$scratch/$name-" \
    "$scratch/$name" "$tests/data/fuzz-corpus/$name" >"$log" 2>&1
  rc=$?
  execs=$(grep -o 'number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')
  found=$(find "$scratch" -maxdepth 1 -name "$name-*" -newer "$marker" | wc -l)
  echo "fuzz_$name: ${seconds} s, ${execs:-?} executions, $found findings, corpus $(ls "$scratch/$name" | wc -l) inputs in $scratch/$name (log $log)"
  if [ $rc -ne 0 ] || [ "$found" -gt 0 ]; then
    status=1
    find "$scratch" -maxdepth 1 -name "$name-*" -newer "$marker" -printf '  finding: %p\n'
    grep -m 5 -E 'ERROR|contract broken|SUMMARY' "$log" | sed 's/^/  /'
  fi
done
exit $status
