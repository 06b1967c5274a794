# tests/fakes/first-move.sh, sourced by the fake opponents beside it: with the argument `late`
# a fake plays one legal move before it fails as it does (a forfeit later in the game, where a
# failure before the first move is an error of the match: docs/match.md). Its `position` line
# goes to remember_position, each `go` to first_move_played, which answers that move and
# returns 0 only the first time.
late=${1:-}
position=''

# remember_position REST: keeps the rest of a `position` line (fen FEN ... [moves M...]).
remember_position() { position=$1; }

# first_move_played: with `late`, the first time: answers the knight move of the side to move in
# a game from the start position (g1f3 for white, g8f6 for black) and returns 0; else returns 1.
first_move_played() {
  local words side moves=0 seen=0 word
  [ "$late" = late ] || return 1
  late=''
  read -r -a words <<<"$position"
  for word in "${words[@]}"; do
    [ $seen = 1 ] && moves=$((moves + 1))
    [ "$word" = moves ] && seen=1
  done
  side=${words[2]:-w}   # the FEN's side to move, turned by each move after it
  if [ $((moves % 2)) = 1 ]; then side=$([ "$side" = w ] && echo b || echo w); fi
  if [ "$side" = w ]; then echo "bestmove g1f3"; else echo "bestmove g8f6"; fi
}
