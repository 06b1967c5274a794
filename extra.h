/* extra.h: static evaluation. A tapered middlegame/endgame score from the side to
 * move's point of view, in centipawns, with a per-term breakdown for `eval`. */
#ifndef EXTRA_H
#define EXTRA_H

#include "movement.h"

/* The evaluation's terms, each kept as a white-minus-black middlegame/endgame pair. */
enum {
    TERM_MATERIAL, TERM_MOBILITY, TERM_PAWNS, TERM_PASSED, TERM_KING_SAFETY,
    TERM_PIECES, TERM_THREATS, TERM_MATING, TERM_TEMPO, TERM_NB
};

typedef struct {
    int mg[TERM_NB][2];  /* per colour */
    int eg[TERM_NB][2];
    int phase;           /* 0 (bare kings) .. PHASE_MAX (all pieces) */
    int scale;           /* endgame scale, out of SCALE_NORMAL */
    int white_score;     /* the final score from white's point of view */
} EvalTrace;

enum { PHASE_MAX = 24, SCALE_NORMAL = 64 };
enum { VALUE_PAWN = 100, VALUE_KNIGHT = 320, VALUE_BISHOP = 330, VALUE_ROOK = 500, VALUE_QUEEN = 950 };

/* Returns the evaluation for the side to move; fills trace when it is not NULL. */
int eval_position(const Board *b, EvalTrace *trace);
/* Returns the printable name of a term. */
const char *eval_term_name(int term);
/* Returns 1 if neither side can possibly mate (K v K, K+minor v K, same-coloured bishops). */
int eval_insufficient_material(const Board *b);
/* Returns a rough value of a piece type, for move ordering and exchange evaluation. */
int eval_piece_value(int type);

#endif
