#!/usr/bin/env bash
# A fake UCI engine for tests/batch.sh: answers the handshake, then plays e2e5, never legal
# (with the argument `late`, from its second move: tests/fakes/first-move.sh).
. "$(dirname "$0")/first-move.sh"
while read -r command rest; do
  case $command in
    uci) echo "id name illegal"; echo "uciok" ;;
    isready) echo "readyok" ;;
    position) remember_position "$rest" ;;
    go) first_move_played || { echo "info depth 1 score cp 0"; echo "bestmove e2e5"; } ;;
    quit) exit 0 ;;
  esac
done
