#!/usr/bin/env bash
# A fake UCI engine for tests/batch.sh: answers the handshake, then dies from a signal
# when asked for a move.
while read -r command _; do
  case $command in
    uci) echo "id name crash"; echo "uciok" ;;
    isready) echo "readyok" ;;
    go) kill -SEGV $$ ;;
    quit) exit 0 ;;
  esac
done
