/* tests/pgn_chessjs.js CHESS_JS FILE.pgn: reads back the PGN that `engine match --pgn` writes
 * with chess.js (CHESS_JS: the directory of the chess.js package), whose rules are written
 * apart from ours: every game loads (each move legal SAN, from the FEN tag when there is one),
 * PlyCount is the number of moves, and the end agrees with TerminationDetails and the result:
 * checkmate (and who mated), stalemate, insufficient material, threefold repetition and the
 * fifty-move rule as chess.js sees them; after a forfeit or the ply limit chess.js sees the
 * game go on. Prints "pgn_chessjs: N games, N moves" and exits 0, or names the first bad game
 * and exits 1. */
'use strict';
const fs = require('fs');

const { Chess } = require(process.argv[2]);
const GAME_MAX_PLIES = 400; /* engine.c: a game still running then is adjudicated a draw */

/* The value of tag `name` in a game's PGN text, or undefined. */
function tag(text, name) {
  const m = new RegExp('^\\[' + name + ' "([^"]*)"\\]$', 'm').exec(text);
  return m ? m[1] : undefined;
}

/* Returns why the end of the game in chess disagrees with its tags, or '' when it agrees. */
function endProblem(chess, result, details) {
  const drawn = result === '1/2-1/2';
  const ends = {
    checkmate: () => chess.isCheckmate() && result === (chess.turn() === 'w' ? '0-1' : '1-0'),
    stalemate: () => chess.isStalemate() && drawn,
    'insufficient material': () => chess.isInsufficientMaterial() && drawn,
    'threefold repetition': () => chess.isThreefoldRepetition() && drawn,
    'fifty-move rule': () => chess.isDrawByFiftyMoves() && drawn,
    'ply limit reached': () => !chess.isGameOver() && chess.history().length >= GAME_MAX_PLIES && drawn,
  };
  const forfeit = /^opponent forfeits: /.test(details);
  if (forfeit) return chess.isGameOver() ? 'the game was over by the rules before the forfeit' : '';
  if (!ends[details]) return 'an end chess.js cannot judge';
  return ends[details]() ? '' : 'chess.js sees another end: ' + JSON.stringify({
    checkmate: chess.isCheckmate(), stalemate: chess.isStalemate(), material: chess.isInsufficientMaterial(),
    repetition: chess.isThreefoldRepetition(), fifty: chess.isDrawByFiftyMoves(), turn: chess.turn() });
}

const games = fs.readFileSync(process.argv[3], 'utf8').split(/\n(?=\[Event )/).filter((g) => g.trim());
let moves = 0;
games.forEach((text, i) => {
  const chess = new Chess();
  const where = 'pgn_chessjs: game ' + (i + 1) + ' (' + tag(text, 'TerminationDetails') + ')';
  try {
    chess.loadPgn(text);
  } catch (error) {
    console.log(where + ': chess.js cannot read it: ' + error.message);
    process.exit(1);
  }
  const plies = chess.history().length;
  const problem = plies !== Number(tag(text, 'PlyCount')) ? plies + ' moves, PlyCount ' + tag(text, 'PlyCount')
    : endProblem(chess, tag(text, 'Result'), tag(text, 'TerminationDetails'));
  if (problem) {
    console.log(where + ': ' + problem);
    process.exit(1);
  }
  moves += plies;
});
console.log('pgn_chessjs: ' + games.length + ' games, ' + moves + ' moves');
process.exit(games.length ? 0 : 1);
