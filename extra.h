/* extra.h: the static evaluation, in centipawns for the side to move. The network (NNUE),
 * kept up to date move by move in an accumulator, is what the search uses; the hand-written
 * evaluation (tapered middlegame/endgame terms, broken down for `eval`, with the weights and
 * features that tools/tune.c fits) is asked only to mate a bare king. */
#ifndef EXTRA_H
#define EXTRA_H

#include "movement.h"
/* the network's shape (its hidden size, buckets, king mirroring), as tools/train.c wrote it
 * beside its weights (tables/nnue.h, which extra.c alone reads) */
#include "tables/nnue-shape.h"

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
/* Rough piece values for move ordering and exchanges; the king's is above all the rest. */
enum { VALUE_PAWN = 100, VALUE_KNIGHT = 320, VALUE_BISHOP = 330, VALUE_ROOK = 500, VALUE_QUEEN = 950, VALUE_KING = 20000 };

/* King danger enters the score non-linearly: a side whose summed danger features come to
 * d (middlegame) and e (endgame) loses max(d, 0)^2 / KING_DANGER_MG_DIVISOR and
 * max(e, 0) / KING_DANGER_EG_DIVISOR (the shape of Ethereal's king safety). */
enum { KING_DANGER_MG_DIVISOR = 720, KING_DANGER_EG_DIVISOR = 20 };

/* The network (NNUE): 768 inputs, one per piece type, colour and square, seen from each
 * side in turn (its own pieces first, the board flipped for black); a hidden layer of
 * NNUE_HIDDEN per side (its shape's, tables/nnue-shape.h), clipped to [0, 1] and squared
 * (SCReLU); one output, read from one of NNUE_BUCKETS sets of output weights chosen by the
 * number of pieces on the board, the side to move's half first; the output times NNUE_SCALE
 * is the score in centipawns. tools/train.c fits it in floats, tables/nnue.h holds it as int16
 * (the hidden weights packed, unpacked by eval_init): the hidden weights and biases times NNUE_QA
 * (so a clipped hidden value runs from 0 to NNUE_QA), the output weights and biases times
 * NNUE_QB. A squared hidden value is kept to NNUE_QA^2 >> NNUE_SQUARE_SHIFT (1016 steps), so
 * that a half of the output layer sums in 32 bits with up to NNUE_HIDDEN_MAX hidden: the
 * trainer keeps every weight below 2 * NNUE_QB, and 1024 * 1016 * 2048 = 2,130,706,432 < 2^31. */
enum {
    NNUE_INPUTS = 768, NNUE_HIDDEN = NNUE_TABLE_HIDDEN, NNUE_HIDDEN_MAX = 1024, NNUE_BUCKETS = 8,
    NNUE_QA = 510, NNUE_QB = 1024, NNUE_SQUARE_SHIFT = 8, NNUE_SCALE = 400
};

/* The packed table's form of a hidden weight (tools/train.c writes it, extra.c unpacks it):
 * zigzagged, 0, -1, 1, -2, ... as 0, 1, 2, 3, ... */
static inline unsigned nnue_zigzag(int value)
{
    return value < 0 ? 2u * (unsigned)-value - 1 : 2u * (unsigned)value;
}

static inline int nnue_unzigzag(unsigned zigzag)
{
    return zigzag & 1 ? -(int)(zigzag >> 1) - 1 : (int)(zigzag >> 1);
}

/* Returns the output bucket of a position with `pieces` pieces, kings included (2 to 32). */
static inline int nnue_bucket(int pieces)
{
    return int_clamp((pieces - 2) / 4, 0, NNUE_BUCKETS - 1);
}

/* What the evaluation keeps up to date move by move: the network's hidden layer before
 * clipping, from each side's view. */
typedef struct {
    int16_t side[2][NNUE_HIDDEN];
} Accumulator;

/* A network trained with king mirroring (NNUE_TABLE_KING_MIRROR 1) sees each side's board
 * with files a..h reversed while that side's own king stands on files e..h, so that its own
 * king is always on files a..d. NNUE_FILE_FLIP is what reverses a square's file. */
#ifndef NNUE_TABLE_KING_MIRROR
#define NNUE_TABLE_KING_MIRROR 0
#endif
enum { NNUE_KING_MIRROR = NNUE_TABLE_KING_MIRROR, NNUE_FILE_FLIP = 7 };

/* Returns what `perspective` xors into a square's index while its king stands on king_sq:
 * NNUE_FILE_FLIP to reverse the files, or 0. */
static inline int nnue_flip_for_king(int king_sq)
{
    return NNUE_KING_MIRROR && square_file(king_sq) >= 4 ? NNUE_FILE_FLIP : 0;
}

/* Returns the input of a piece (colour and type) on sq, as `perspective` sees the board,
 * its files reversed by flip (nnue_flip_for_king). */
static inline int nnue_input(int perspective, int piece, int sq, int flip)
{
    int theirs = piece_color(piece) != perspective;
    return theirs * 384 + (piece_type(piece) - PAWN) * 64 + ((perspective == WHITE ? sq : square_flip(sq)) ^ flip);
}

/* What a move changes among the network's inputs: at most two pieces put on a square and
 * two taken off (a capture, castling's rook, a promotion). A null move changes nothing.
 * With king mirroring, a king crossing between files d and e turns its side's view: that
 * side's accumulator is rebuilt from the board (bit `side` of rebuild) rather than updated. */
typedef struct {
    uint8_t add_count, remove_count;
    uint8_t add_piece[2], add_square[2];
    uint8_t remove_piece[2], remove_square[2];
    uint8_t flip[2];        /* each side's nnue_flip_for_king once the move is made */
    uint8_t rebuild;        /* bit p: side p's view turns */
} NetworkDelta;

/* Computes acc from the pieces of b (after eval_init). */
void nnue_refresh(Accumulator *acc, const Board *b);
/* Fills d with what the legal move m (or MOVE_NONE) changes in b, before it is made. */
void nnue_delta(const Board *b, Move m, NetworkDelta *d);
/* Computes into `after` the accumulator once the change d is made, from `before`: every side
 * but those of d->rebuild, which nnue_rebuild computes (in either order). */
void nnue_apply(Accumulator *after, const Accumulator *before, const NetworkDelta *d);
/* Computes into acc the sides of d->rebuild from b, the board once d's move is made. */
void nnue_rebuild(Accumulator *acc, const Board *b, const NetworkDelta *d);
/* Returns the network's score of a position of b (its accumulator acc), for the side to move. */
int nnue_evaluate(const Accumulator *acc, const Board *b);
/* Returns the evaluation the search uses, for the side to move: the network's score, with
 * the knowledge the network lacks (dead draws, the fifty-move fade, and eval_position's
 * mating of a bare king); acc is b's accumulator. */
int eval_network(const Board *b, const Accumulator *acc);
/* Returns 1 when eval_network scores b by knowledge rather than by the network (a dead draw,
 * a bare king to mate): a score the search should take as it is, not correct. */
int eval_by_knowledge(const Board *b);

/* Returns the evaluation for the side to move; fills trace when it is not NULL. */
int eval_position(const Board *b, EvalTrace *trace);
/* Returns the printable name of a term. */
const char *eval_term_name(int term);
/* Returns the value of color's pieces other than pawns and the king. */
int eval_non_pawn_material(const Board *b, int color);
/* Returns a rough value of a piece type, for move ordering and exchange evaluation (inline:
 * the search asks at every capture). */
static inline int eval_piece_value(int type)
{
    static const int VALUES[7] = { 0, VALUE_PAWN, VALUE_KNIGHT, VALUE_BISHOP, VALUE_ROOK, VALUE_QUEEN, VALUE_KING };
    return VALUES[type];
}

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

/* Fills the evaluation's tables (the network's hidden weights unpacked into memory of its own,
 * eval_weights_size() bytes kept for the program's life) and the rules' (movement_init): called
 * once, before any other function of this file and before any thread starts (again, it does
 * nothing). Returns 1, or 0 when memory is short (then nothing is filled). */
int eval_init(void);
/* The same, the hidden weights unpacked into `weights`, eval_weights_size() bytes aligned for
 * int16_t and kept for the program's life (the engine gives them a huge page, engine_init);
 * again, it does nothing and leaves `weights` unused. */
void eval_init_in(void *weights);
size_t eval_weights_size(void);

/* Returns a hash of every weight of the evaluation (network and hand-written): two builds
 * with the same signature evaluate alike, so a table one wrote can serve the other. */
uint64_t eval_signature(void);

/* Returns the groups of weights and their number. */
const EvalGroup *eval_groups(int *count);
/* Returns the number of weights and the weights themselves. */
int eval_weight_count(void);
const int *eval_weights(void);
/* Unpacks a weight into its middlegame and endgame halves. */
int eval_weight_mg(int weight);
int eval_weight_eg(int weight);
/* Returns the evaluation for the side to move, as eval_position, and fills features. */
int eval_features(const Board *b, EvalFeatures *features);

#endif
