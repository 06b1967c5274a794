# tests/tally.sh, sourced by tests/run-all.sh and tests/web.sh: adds up the closing lines of
# test programs. A program's closing line is the last line it prints, "N passed, N failed" or
# "N passed, N failed, N skipped" (a skipped group counts as the checks it holds, tests/README.md).

tally_pass=0; tally_fail=0; tally_skip=0

# tally NAME STATUS LOG: adds the closing line of the output in LOG to the totals. A program
# whose last line is not a closing line (one a child printed earlier does not count), whose
# line counts nothing at all ("0 passed, 0 failed": it ran no check, so it tested nothing), or
# that ended with a status other than 0 while its line counts no failure, counts one failure more.
tally() {
  local name=$1 status=$2 last pass fail skip
  last=$(tail -n 1 "$3")
  if [[ $last =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed(,\ ([0-9]+)\ skipped)?$ ]]; then
    pass=${BASH_REMATCH[1]}; fail=${BASH_REMATCH[2]}; skip=${BASH_REMATCH[4]:-0}
  else
    echo "FAIL $name: its last line is not 'N passed, N failed[, N skipped]' but '$last'"
    pass=0; fail=1; skip=0
  fi
  if [ $((pass + fail + skip)) -eq 0 ]; then
    echo "FAIL $name: its line '$last' counts no check: it ran nothing"
    fail=1
  fi
  if [ "$status" -ne 0 ] && [ "$fail" -eq 0 ]; then
    echo "FAIL $name ended with status $status"
    fail=1
  fi
  tally_pass=$((tally_pass + pass)); tally_fail=$((tally_fail + fail)); tally_skip=$((tally_skip + skip))
}

# tally_skipped N WHY: counts N skipped checks and says why.
tally_skipped() {
  echo "skip: $2"
  tally_skip=$((tally_skip + $1))
}

# tally_line: the closing line of the totals.
tally_line() {
  echo "$tally_pass passed, $tally_fail failed, $tally_skip skipped"
}
