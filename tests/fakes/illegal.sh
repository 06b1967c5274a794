#!/usr/bin/env bash
# A fake UCI engine for tests/batch.sh: answers the handshake, then plays e2e5, never legal
# for black (it plays black in the first game of a match).
while read -r command _; do
  case $command in
    uci) echo "id name illegal"; echo "uciok" ;;
    isready) echo "readyok" ;;
    go) echo "info depth 1 score cp 0"; echo "bestmove e2e5" ;;
    quit) exit 0 ;;
  esac
done
