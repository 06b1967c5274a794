#!/usr/bin/env bash
# A fake UCI engine for tests/batch.sh: answers the handshake, then dies from a signal when asked
# for a move (with the argument `late`, for its second move: tests/fakes/first-move.sh).
. "$(dirname "$0")/first-move.sh"
while read -r command rest; do
  case $command in
    uci) echo "id name crash"; echo "uciok" ;;
    isready) echo "readyok" ;;
    position) remember_position "$rest" ;;
    go) first_move_played || kill -SEGV $$ ;;
    quit) exit 0 ;;
  esac
done
