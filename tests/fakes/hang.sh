#!/usr/bin/env bash
# A fake UCI engine for tests/batch.sh and tests/datagen.sh: answers the handshake, then never
# answers `go`, nor anything after it (it waits in a child process, which the match must kill
# too); with the argument `late`, from its second move (tests/fakes/first-move.sh).
. "$(dirname "$0")/first-move.sh"
while read -r command rest; do
  case $command in
    uci) echo "id name hang"; echo "uciok" ;;
    isready) echo "readyok" ;;
    position) remember_position "$rest" ;;
    go) first_move_played || sleep 1000 ;;
    quit) exit 0 ;;
  esac
done
