#!/usr/bin/env bash
# A fake UCI engine for tests/batch.sh and tests/datagen.sh: answers the handshake, then never
# answers `go`, nor anything after it (it waits in a child process, which the match must kill
# too).
while read -r command _; do
  case $command in
    uci) echo "id name hang"; echo "uciok" ;;
    isready) echo "readyok" ;;
    go) sleep 1000 ;;
    quit) exit 0 ;;
  esac
done
