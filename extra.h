/* extra.h: static evaluation. A tapered middlegame/endgame score from the side to
 * move's point of view, in centipawns, with a per-term breakdown for `eval`, and the
 * weights and features that tools/tune.c fits to labelled positions. */
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

enum { PHASE_MAX = 24, SCALE_NORMAL = 64, FADE_PLIES = 200 };
/* No evaluation goes beyond +-EVAL_LIMIT: scores past it belong to mates. */
enum { EVAL_LIMIT = 10000 };
enum { VALUE_PAWN = 100, VALUE_KNIGHT = 320, VALUE_BISHOP = 330, VALUE_ROOK = 500, VALUE_QUEEN = 950 };

/* King danger enters the score non-linearly: a side whose summed danger features come to
 * d (middlegame) and e (endgame) loses max(d, 0)^2 / KING_DANGER_MG_DIVISOR and
 * max(e, 0) / KING_DANGER_EG_DIVISOR (the shape of Ethereal's king safety). */
enum { KING_DANGER_MG_DIVISOR = 720, KING_DANGER_EG_DIVISOR = 20 };

/* The network (NNUE): 768 inputs, one per piece type, colour and square, seen from each
 * side in turn (its own pieces first, the board flipped for black); a hidden layer of
 * NNUE_HIDDEN per side, clipped to [0, 1]; one output, the side to move's half first.
 * Stored as int16: hidden weights times NNUE_QA, output weights times NNUE_QB; the output
 * times NNUE_SCALE is the score in centipawns. tools/train.c fits it, tables/nnue.h holds it. */
enum { NNUE_INPUTS = 768, NNUE_HIDDEN = 256, NNUE_QA = 255, NNUE_QB = 64, NNUE_SCALE = 400 };

/* The hidden layer before clipping, from each side's view, kept up to date move by move. */
typedef struct {
    int16_t side[2][NNUE_HIDDEN];
} Accumulator;

/* Returns the input of a piece (colour and type) on sq, as `perspective` sees the board. */
static inline int nnue_input(int perspective, int piece, int sq)
{
    int theirs = piece_color(piece) != perspective;
    return theirs * 384 + (piece_type(piece) - PAWN) * 64 + (perspective == WHITE ? sq : square_flip(sq));
}

/* Computes acc from the pieces of b. */
void nnue_refresh(Accumulator *acc, const Board *b);
/* Computes into `after` the accumulator of b once the legal move m is made, from `before`,
 * the accumulator of b as it stands. */
void nnue_update(Accumulator *after, const Accumulator *before, const Board *b, Move m);
/* Returns the network's score of a position with accumulator acc, side `side` to move. */
int nnue_evaluate(const Accumulator *acc, int side);
/* Returns the evaluation for the side to move from the network, with the knowledge the
 * network lacks (dead draws, mating a bare king, the fifty-move fade); acc is b's. */
int eval_network(const Board *b, const Accumulator *acc);

/* Returns the evaluation for the side to move; fills trace when it is not NULL. */
int eval_position(const Board *b, EvalTrace *trace);
/* Returns the printable name of a term. */
const char *eval_term_name(int term);
/* Returns the value of color's pieces other than pawns and the king. */
int eval_non_pawn_material(const Board *b, int color);
/* Returns a rough value of a piece type, for move ordering and exchange evaluation. */
int eval_piece_value(int type);

/* The evaluation as the tuner sees it: every weight is a packed middlegame/endgame pair
 * (eval_weight_mg/eg unpack it), and a position's score is a function of how often each
 * weight counts for each side (its features). */
typedef struct {
    const char *name;   /* a short name for the generated table's comments */
    int first, count;   /* the group's weights are first .. first + count - 1 */
    int row;            /* weights per line when written out (8 draws a board) */
    int danger;         /* 1: king danger features (non-linear, see KING_DANGER_*) */
} EvalGroup;

enum { EVAL_FEATURES_MAX = 512 };
typedef struct {
    uint16_t weight;    /* index into the weights */
    uint8_t color;      /* the side it counts for */
    int8_t count;
} EvalFeature;

typedef struct {
    EvalFeature list[EVAL_FEATURES_MAX];
    int length;
    int phase;          /* as in EvalTrace */
    int scale;          /* endgame scale of the side ahead, out of SCALE_NORMAL */
    int halfmove;       /* the fifty-move clock, which fades the score */
    int linear;         /* 0 when special knowledge decides the score (mating, dead draws) */
} EvalFeatures;

/* Returns the groups of weights and their number. */
const EvalGroup *eval_groups(int *count);
/* Returns the number of weights and the weights themselves. */
int eval_weight_count(void);
const int *eval_weights(void);
/* Unpacks a weight into its middlegame and endgame halves. */
int eval_weight_mg(int weight);
int eval_weight_eg(int weight);
/* Packs a middlegame/endgame pair into one weight. */
int eval_weight_pack(int mg, int eg);
/* Returns the evaluation for the side to move, as eval_position, and fills features. */
int eval_features(const Board *b, EvalFeatures *features);

#endif
