#!/usr/bin/env bash
# A fake UCI engine for tests/datagen.sh: alive, but it answers its first `go` only after 6
# seconds (longer than datagen waits before it asks isready), as an engine seems to a datagen
# that was stopped (Ctrl-Z) meanwhile; every later `go` at once, always with score cp 12.
first=1
while read -r command _; do
  case $command in
    uci) echo "id name late"; echo "uciok" ;;
    isready) echo "readyok" ;;
    go)
      if [ $first = 1 ]; then
        first=0
        (sleep 6; echo "info depth 1 score cp 12"; echo "bestmove 0000") &
      else
        echo "info depth 1 score cp 12"; echo "bestmove 0000"
      fi ;;
    quit) exit 0 ;;
  esac
done
