/* extra.c: the evaluation. Two of them: a network (tables/nnue.h, trained by
 * tools/train.c) updated move by move, which the search uses; and a handwritten evaluation
 * (material and piece-square tables, mobility, pawn structure, passed pawns, king shelter
 * and danger, piece placement, threats, endgame scaling and mating knowledge, tapered
 * between middlegame and endgame by the material left), whose weights live in one array
 * (tables/hce.h) so that tools/tune.c can fit them all. The search asks it only to mate a
 * bare king; `engine eval` prints it term by term. */
#include "extra.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* A middlegame/endgame pair packed into one int (the Stockfish/Ethereal idiom). */
#define S(mg, eg) ((int)((unsigned)(eg) * 0x10000u + (unsigned)(mg)))

#include "tables/hce.h"
#include "tables/nnue.h"

/* The network's shape, its weights and extra.h must agree, and a half of the output layer must
 * sum in 32 bits (extra.h): a compile error here means they do not. */
typedef char network_matches_layout[NNUE_TABLE_BUCKETS == NNUE_BUCKETS && NNUE_HIDDEN % 16 == 0
                                    && NNUE_HIDDEN <= NNUE_HIDDEN_MAX ? 1 : -1];
typedef char weights_match_shape[sizeof NNUE_HIDDEN_LOW == (size_t)NNUE_INPUTS * NNUE_HIDDEN
                                 && sizeof NNUE_HIDDEN_BIASES == sizeof(int16_t) * NNUE_HIDDEN
                                 && sizeof NNUE_OUTPUT_BIASES == sizeof(int32_t) * NNUE_BUCKETS ? 1 : -1];
typedef char output_half_fits[(long long)NNUE_HIDDEN_MAX * ((NNUE_QA * NNUE_QA) >> NNUE_SQUARE_SHIFT) * 2 * NNUE_QB
                              < (1LL << 31) ? 1 : -1];

/* Where each group of weights starts in HCE_WEIGHTS (the order of tables/hce.h). */
enum {
    W_PIECE_VALUE = 0,                          /* pawn .. queen */
    W_PST = W_PIECE_VALUE + 5,                  /* [type - PAWN][square as drawn] */
    W_MOBILITY_KNIGHT = W_PST + 6 * 64,
    W_MOBILITY_BISHOP = W_MOBILITY_KNIGHT + 9,
    W_MOBILITY_ROOK = W_MOBILITY_BISHOP + 14,
    W_MOBILITY_QUEEN = W_MOBILITY_ROOK + 15,
    W_PAWN_DOUBLED = W_MOBILITY_QUEEN + 28,
    W_PAWN_ISOLATED,
    W_PAWN_BACKWARD,
    W_PAWN_CONNECTED,                           /* by relative rank */
    W_PASSED = W_PAWN_CONNECTED + 8,            /* by relative rank */
    W_PASSED_FREE = W_PASSED + 8,
    W_PASSED_OWN_KING = W_PASSED_FREE + 8,
    W_PASSED_THEIR_KING = W_PASSED_OWN_KING + 8,
    W_PASSED_UNSTOPPABLE = W_PASSED_THEIR_KING + 8,
    W_KING_SHELTER,                             /* [neighbour file][relative rank] */
    W_KING_STORM = W_KING_SHELTER + 16,         /* [blocked][relative rank] */
    W_DANGER_ATTACKER = W_KING_STORM + 16,      /* knight .. queen */
    W_DANGER_ZONE_ATTACK = W_DANGER_ATTACKER + 4,
    W_DANGER_WEAK_SQUARE,
    W_DANGER_SAFE_CHECK,                        /* knight .. queen */
    W_DANGER_NO_QUEEN = W_DANGER_SAFE_CHECK + 4,
    W_DANGER_DEFENDER,
    W_DANGER_BASE,
    W_BISHOP_PAIR,
    W_BISHOP_PAWNS,
    W_ROOK_OPEN,
    W_ROOK_SEMI_OPEN,
    W_OUTPOST,                                  /* knight, bishop */
    W_MINOR_BEHIND_PAWN = W_OUTPOST + 2,
    W_THREAT_BY_PAWN,
    W_THREAT_MINOR_ON_MAJOR,
    W_THREAT_ROOK_ON_QUEEN,
    W_THREAT_HANGING,
    W_THREAT_HANGING_PAWN,
    W_THREAT_PAWN_PUSH,
    W_TEMPO,
    W_NB
};

/* The table and the layout must agree: a compile error here means they do not. */
typedef char weights_match_layout[sizeof HCE_WEIGHTS / sizeof HCE_WEIGHTS[0] == W_NB ? 1 : -1];

static const EvalGroup GROUPS[] = {
    { "piece values: pawn, knight, bishop, rook, queen", W_PIECE_VALUE, 5, 5, 0 },
    { "pawn squares, rank 8 on top", W_PST + 0 * 64, 64, 8, 0 },
    { "knight squares, rank 8 on top", W_PST + 1 * 64, 64, 8, 0 },
    { "bishop squares, rank 8 on top", W_PST + 2 * 64, 64, 8, 0 },
    { "rook squares, rank 8 on top", W_PST + 3 * 64, 64, 8, 0 },
    { "queen squares, rank 8 on top", W_PST + 4 * 64, 64, 8, 0 },
    { "king squares, rank 8 on top", W_PST + 5 * 64, 64, 8, 0 },
    { "knight mobility by safe squares attacked", W_MOBILITY_KNIGHT, 9, 8, 0 },
    { "bishop mobility by safe squares attacked", W_MOBILITY_BISHOP, 14, 8, 0 },
    { "rook mobility by safe squares attacked", W_MOBILITY_ROOK, 15, 8, 0 },
    { "queen mobility by safe squares attacked", W_MOBILITY_QUEEN, 28, 8, 0 },
    { "doubled pawn", W_PAWN_DOUBLED, 1, 1, 0 },
    { "isolated pawn", W_PAWN_ISOLATED, 1, 1, 0 },
    { "backward pawn", W_PAWN_BACKWARD, 1, 1, 0 },
    { "connected pawn (phalanx or defended) by relative rank", W_PAWN_CONNECTED, 8, 8, 0 },
    { "passed pawn by relative rank", W_PASSED, 8, 8, 0 },
    { "passed pawn with a free path by relative rank", W_PASSED_FREE, 8, 8, 0 },
    { "passed pawn: per square from its stop square to its own king, by relative rank", W_PASSED_OWN_KING, 8, 8, 0 },
    { "passed pawn: per square from its stop square to the other king, by relative rank", W_PASSED_THEIR_KING, 8, 8, 0 },
    { "passed pawn the king cannot catch (rule of the square)", W_PASSED_UNSTOPPABLE, 1, 1, 0 },
    { "king shelter: own pawn nearest the king on its file (first row) or a neighbour file, by relative rank (0: none)",
      W_KING_SHELTER, 16, 8, 0 },
    { "pawn storm: enemy pawn nearest the king on its or a neighbour file, free (first row) or blocked, by relative rank (0: none)",
      W_KING_STORM, 16, 8, 0 },
    { "king danger per attacking knight, bishop, rook, queen", W_DANGER_ATTACKER, 4, 4, 1 },
    { "king danger per attack on the king zone", W_DANGER_ZONE_ATTACK, 1, 1, 1 },
    { "king danger per weak square in the king zone", W_DANGER_WEAK_SQUARE, 1, 1, 1 },
    { "king danger per safe check by knight, bishop, rook, queen", W_DANGER_SAFE_CHECK, 4, 4, 1 },
    { "king danger when the attacker has no queen", W_DANGER_NO_QUEEN, 1, 1, 1 },
    { "king danger per defending knight or bishop in the king zone", W_DANGER_DEFENDER, 1, 1, 1 },
    { "king danger, constant", W_DANGER_BASE, 1, 1, 1 },
    { "bishop pair", W_BISHOP_PAIR, 1, 1, 0 },
    { "bishop: per own pawn on its colour", W_BISHOP_PAWNS, 1, 1, 0 },
    { "rook on an open file", W_ROOK_OPEN, 1, 1, 0 },
    { "rook on a semi-open file", W_ROOK_SEMI_OPEN, 1, 1, 0 },
    { "outpost: knight, bishop", W_OUTPOST, 2, 2, 0 },
    { "knight or bishop behind a pawn", W_MINOR_BEHIND_PAWN, 1, 1, 0 },
    { "threat: enemy piece attacked by a pawn", W_THREAT_BY_PAWN, 1, 1, 0 },
    { "threat: enemy rook or queen attacked by a knight or bishop", W_THREAT_MINOR_ON_MAJOR, 1, 1, 0 },
    { "threat: enemy queen attacked by a rook", W_THREAT_ROOK_ON_QUEEN, 1, 1, 0 },
    { "threat: enemy piece attacked and not defended", W_THREAT_HANGING, 1, 1, 0 },
    { "threat: enemy pawn attacked and not defended", W_THREAT_HANGING_PAWN, 1, 1, 0 },
    { "threat: a safe pawn push attacks an enemy piece", W_THREAT_PAWN_PUSH, 1, 1, 0 },
    { "tempo", W_TEMPO, 1, 1, 0 },
};

static const int MOBILITY_FIRST[7] = { 0, 0, W_MOBILITY_KNIGHT, W_MOBILITY_BISHOP, W_MOBILITY_ROOK, W_MOBILITY_QUEEN, 0 };
static const int PHASE_WEIGHT[7] = { 0, 0, 1, 1, 2, 4, 0 };

typedef struct {
    const Board *b;
    EvalFeatures *features;     /* the tuner's record, or NULL */
    uint64_t pawn_attacks[2];
    uint64_t attacked_by[2][7]; /* squares each side attacks with each piece type */
    uint64_t attacks[2];        /* every square each side attacks */
    uint64_t king_zone[2];      /* the squares around each king */
    int king_attackers[2][7];   /* pieces of each side and type that attack the other king's zone */
    int zone_attacks[2];        /* their attacks on the zone's squares */
    int danger[2];              /* packed king danger each side builds against the other king */
    int non_pawn[2];            /* eval_non_pawn_material of each side */
    uint64_t passed[2];         /* each side's passed pawns */
    int score[TERM_NB][2];      /* packed pairs per term and colour */
} EvalInfo;

/* prototypes */
static int pst_weight(int color, int type, int sq);
static inline int mg_of(int s);
static inline int eg_of(int s);
static inline uint64_t bit(int sq);
static inline int relative_rank(int color, int sq);
static inline int distance(int a, int b);
static inline int manhattan(int a, int b);
static inline void note_feature(EvalInfo *ei, int color, int weight, int count);
static inline void add(EvalInfo *ei, int term, int color, int weight, int count);
static inline void add_danger(EvalInfo *ei, int color, int weight, int count);
static uint64_t pawn_attack_set(uint64_t pawns, int color);
static uint64_t forward_ranks(int color, int sq);
HOT_CLONES static void eval_setup(EvalInfo *ei, const Board *b, EvalFeatures *features);
HOT_CLONES static void eval_material(EvalInfo *ei, int color);
HOT_CLONES static void eval_pawns(EvalInfo *ei, int color);
HOT_CLONES static void eval_pieces(EvalInfo *ei, int color);
HOT_CLONES static void eval_shelter(EvalInfo *ei, int color);
HOT_CLONES static void eval_danger(EvalInfo *ei, int color);
HOT_CLONES static void eval_passed(EvalInfo *ei, int color);
HOT_CLONES static void eval_threats(EvalInfo *ei, int color);
HOT_CLONES static void eval_mating(EvalInfo *ei, int color);
static int eval_mating_override(EvalInfo *ei);
HOT_CLONES static int eval_run(const Board *b, EvalTrace *trace, EvalFeatures *features);
static int eval_outside_search(const Board *b, EvalTrace *trace, EvalFeatures *features);
static int endgame_scale(const EvalInfo *ei, int strong);
static int has_bare_king(const Board *b);
static uint64_t hash_bytes(uint64_t h, const void *data, size_t size);
HOT_CLONES static int32_t output_half(const int16_t *restrict values, const int16_t *restrict weights);
static void unpack_hidden(void);
static void accumulator_add(int16_t *values, int input);
HOT_CLONES static void accumulator_move(int16_t *restrict out, const int16_t *restrict in, const int *added, int add_count,
                             const int *removed, int remove_count);

static uint64_t file_set[8];
static uint64_t adjacent_files[8];
static uint64_t front_span[2][64];     /* squares ahead on the same file */
static uint64_t passed_span[2][64];    /* squares ahead on the same and adjacent files */
static int ready;
/* The network's hidden weights [input][hidden], unpacked from the table by eval_init_in into
 * memory its caller gives (the engine's huge page) or eval_init's own. */
static int16_t *hidden_weights;

static const char *const TERM_NAMES[TERM_NB] = {
    "material", "mobility", "pawns", "passed pawns", "king safety", "pieces", "threats", "mating", "tempo"
};

static inline int mg_of(int s) { return (int)(int16_t)(uint16_t)((unsigned)s & 0xffffu); }
static inline int eg_of(int s) { return (int)(int16_t)(uint16_t)(((unsigned)s + 0x8000u) >> 16); }
static inline uint64_t bit(int sq) { return (uint64_t)1 << sq; }
static inline int relative_rank(int color, int sq) { return color == WHITE ? square_rank(sq) : 7 - square_rank(sq); }

static inline int manhattan(int a, int b)
{
    return abs(square_file(a) - square_file(b)) + abs(square_rank(a) - square_rank(b));
}

static inline int distance(int a, int b)
{
    return int_max(abs(square_file(a) - square_file(b)), abs(square_rank(a) - square_rank(b)));
}

/* Notes for the tuner that weight counts `count` times for color. */
static inline void note_feature(EvalInfo *ei, int color, int weight, int count)
{
    EvalFeature *f;
    if (!ei->features || !count || ei->features->length >= EVAL_FEATURES_MAX)
        return;
    f = &ei->features->list[ei->features->length++];
    f->weight = (uint16_t)weight;
    f->color = (uint8_t)color;
    f->count = (int8_t)count;
}

/* Counts weight `count` times for color in term. */
static inline void add(EvalInfo *ei, int term, int color, int weight, int count)
{
    assert(weight >= 0 && weight < W_NB);
    ei->score[term][color] += HCE_WEIGHTS[weight] * count;
    note_feature(ei, color, weight, count);
}

/* Counts a king danger weight for color, the attacker. */
static inline void add_danger(EvalInfo *ei, int color, int weight, int count)
{
    assert(weight >= W_DANGER_ATTACKER && weight <= W_DANGER_BASE);
    ei->danger[color] += HCE_WEIGHTS[weight] * count;
    note_feature(ei, color, weight, count);
}

/* Returns the weight of the piece-square table entry of a piece (colour and type) on sq: the
 * tables are drawn from white's side, so white square sq is entry sq ^ 56, black's is sq. */
static int pst_weight(int color, int type, int sq)
{
    return W_PST + (type - PAWN) * 64 + (color == WHITE ? square_flip(sq) : sq);
}

/* Fills hidden_weights from the table's packed form (tools/train.c, write_hidden_packed):
 * each weight's zigzagged value (0, -1, 1, -2, ... as 0, 1, 2, 3, ...) has its low 8 bits in
 * NNUE_HIDDEN_LOW and, when its bit in NNUE_HIDDEN_MAP is set, 4 more in NNUE_HIDDEN_HIGH,
 * two to a byte. Without branches on the data (docs/engine.md, "Measurements behind the
 * constants"). */
static void unpack_hidden(void)
{
    long i, high = 0;
    for (i = 0; i < NNUE_INPUTS * NNUE_HIDDEN; i++) {
        unsigned more = NNUE_HIDDEN_MAP[i / 8] >> i % 8 & 1u;
        unsigned upper = (unsigned)(NNUE_HIDDEN_HIGH[high / 2] >> high % 2 * 4 & 15) & (0u - more);
        unsigned zigzag = upper << 8 | NNUE_HIDDEN_LOW[i];
        high += more;
        hidden_weights[i] = (int16_t)nnue_unzigzag(zigzag);
    }
}

size_t eval_weights_size(void)
{
    return sizeof(int16_t) * NNUE_INPUTS * NNUE_HIDDEN;
}

int eval_init(void)
{
    void *weights;
    if (ready)
        return 1;
    weights = malloc(eval_weights_size());
    if (!weights)
        return 0;
    eval_init_in(weights);
    return 1;
}

/* Fills the file and span masks, the network's hidden weights (in weights) and the rules'
 * tables (again, it does nothing). */
void eval_init_in(void *weights)
{
    int sq, f, c;
    if (ready)
        return;
    hidden_weights = weights;
    movement_init();
    for (f = 0; f < 8; f++)
        file_set[f] = UINT64_C(0x0101010101010101) << f;
    for (f = 0; f < 8; f++)
        adjacent_files[f] = (f > 0 ? file_set[f - 1] : 0) | (f < 7 ? file_set[f + 1] : 0);
    for (c = WHITE; c <= BLACK; c++) {
        for (sq = 0; sq < 64; sq++) {
            int step = c == WHITE ? 8 : -8, s;
            for (s = sq + step; s >= 0 && s < 64; s += step)
                front_span[c][sq] |= bit(s);
            passed_span[c][sq] = front_span[c][sq];
            if (square_file(sq) > 0)
                passed_span[c][sq] |= front_span[c][sq - 1];
            if (square_file(sq) < 7)
                passed_span[c][sq] |= front_span[c][sq + 1];
        }
    }
    unpack_hidden();
    ready = 1;
}

static uint64_t pawn_attack_set(uint64_t pawns, int color)
{
    uint64_t not_a = ~file_set[0], not_h = ~file_set[7];
    if (color == WHITE)
        return ((pawns & not_a) << 7) | ((pawns & not_h) << 9);
    return ((pawns & not_a) >> 9) | ((pawns & not_h) >> 7);
}

/* Returns the squares on sq's rank and every rank ahead of it, for color. */
static uint64_t forward_ranks(int color, int sq)
{
    int r = square_rank(sq);
    uint64_t from_rank = ~UINT64_C(0) << (8 * r), up_to_rank = ~UINT64_C(0) >> (8 * (7 - r));
    return color == WHITE ? from_rank : up_to_rank;
}

int eval_non_pawn_material(const Board *b, int color)
{
    int type, sum = 0;
    for (type = KNIGHT; type <= QUEEN; type++)
        sum += bit_count(b->pieces[make_piece(color, type)]) * eval_piece_value(type);
    return sum;
}

/* Piece values and piece-square tables, piece by piece. */
HOT_CLONES
static void eval_material(EvalInfo *ei, int color)
{
    int type;
    for (type = PAWN; type <= KING; type++) {
        uint64_t set = ei->b->pieces[make_piece(color, type)];
        if (type != KING)
            add(ei, TERM_MATERIAL, color, W_PIECE_VALUE + type - PAWN, bit_count(set));
        while (set) {
            int sq = bit_first(set);
            set &= set - 1;
            add(ei, TERM_MATERIAL, color, pst_weight(color, type, sq), 1);
        }
    }
}

/* Doubled, isolated, backward and connected pawns; notes the passed ones. */
HOT_CLONES
static void eval_pawns(EvalInfo *ei, int color)
{
    const Board *b = ei->b;
    uint64_t own = b->pieces[make_piece(color, PAWN)], set = own;
    uint64_t theirs = b->pieces[make_piece(!color, PAWN)];
    ei->passed[color] = 0;
    while (set) {
        int sq = bit_first(set), f = square_file(sq), stop = color == WHITE ? sq + 8 : sq - 8;
        uint64_t phalanx = adjacent_files[f] & own & (UINT64_C(0xff) << (8 * square_rank(sq)));
        set &= set - 1;
        if (!(passed_span[color][sq] & theirs))
            ei->passed[color] |= bit(sq);
        if (front_span[color][sq] & own)
            add(ei, TERM_PAWNS, color, W_PAWN_DOUBLED, 1);
        if (phalanx || (ei->pawn_attacks[color] & bit(sq)))
            add(ei, TERM_PAWNS, color, W_PAWN_CONNECTED + relative_rank(color, sq), 1);
        if (!(adjacent_files[f] & own)) {
            add(ei, TERM_PAWNS, color, W_PAWN_ISOLATED, 1);
        } else if (!(passed_span[!color][stop] & adjacent_files[f] & own)
                   && (ei->pawn_attacks[!color] & bit(stop)) && !(front_span[color][sq] & theirs)) {
            /* no neighbour level or behind to support the advance, and the stop square is guarded */
            add(ei, TERM_PAWNS, color, W_PAWN_BACKWARD, 1);
        }
    }
}

/* Mobility, outposts, bishops, rooks on open files; gathers attacks and king danger. */
HOT_CLONES
static void eval_pieces(EvalInfo *ei, int color)
{
    const Board *b = ei->b;
    uint64_t own_pawns = b->pieces[make_piece(color, PAWN)], their_pawns = b->pieces[make_piece(!color, PAWN)];
    uint64_t safe = ~b->occupied[color] & ~ei->pawn_attacks[!color];
    int type;

    for (type = KNIGHT; type <= QUEEN; type++) {
        uint64_t set = b->pieces[make_piece(color, type)];
        while (set) {
            int sq = bit_first(set), f = square_file(sq), r = relative_rank(color, sq);
            uint64_t att = piece_attacks(b, type, color, sq);
            set &= set - 1;
            ei->attacked_by[color][type] |= att;
            add(ei, TERM_MOBILITY, color, MOBILITY_FIRST[type] + bit_count(att & safe), 1);
            if (att & ei->king_zone[!color]) {
                ei->king_attackers[color][type]++;
                ei->zone_attacks[color] += bit_count(att & ei->king_zone[!color]);
            }
            if (type == KNIGHT || type == BISHOP) {
                if (r >= 3 && r <= 5 && (ei->pawn_attacks[color] & bit(sq))
                    && !(passed_span[color][sq] & adjacent_files[f] & their_pawns))
                    add(ei, TERM_PIECES, color, W_OUTPOST + type - KNIGHT, 1);
                if (r < 7 && (own_pawns & bit(color == WHITE ? sq + 8 : sq - 8)))
                    add(ei, TERM_PIECES, color, W_MINOR_BEHIND_PAWN, 1);
            }
            if (type == BISHOP)
                add(ei, TERM_PIECES, color, W_BISHOP_PAWNS, bit_count(own_pawns & ((bit(sq) & DARK_SQUARES) ? DARK_SQUARES : ~DARK_SQUARES)));
            if (type == ROOK && !(file_set[f] & own_pawns))
                add(ei, TERM_PIECES, color, (file_set[f] & their_pawns) ? W_ROOK_SEMI_OPEN : W_ROOK_OPEN, 1);
        }
        ei->attacks[color] |= ei->attacked_by[color][type];
    }
    if (bit_count(b->pieces[make_piece(color, BISHOP)]) >= 2)
        add(ei, TERM_PIECES, color, W_BISHOP_PAIR, 1);
}

/* The pawns in front of color's king: its own shelter and the enemy's storm, on the king's
 * file and its neighbours (the edge files count the b or g file as the third). */
HOT_CLONES
static void eval_shelter(EvalInfo *ei, int color)
{
    const Board *b = ei->b;
    int ksq = b->king_sq[color], center = int_clamp(square_file(ksq), 1, 6), f;
    uint64_t ahead = forward_ranks(color, ksq);
    for (f = center - 1; f <= center + 1; f++) {
        uint64_t own = b->pieces[make_piece(color, PAWN)] & file_set[f] & ahead;
        uint64_t theirs = b->pieces[make_piece(!color, PAWN)] & file_set[f] & ahead;
        int own_rank = own ? relative_rank(color, color == WHITE ? bit_first(own) : bit_last(own)) : 0;
        int their_rank = theirs ? relative_rank(color, color == WHITE ? bit_first(theirs) : bit_last(theirs)) : 0;
        int neighbour = f != square_file(ksq), blocked = own_rank && their_rank == own_rank + 1;
        add(ei, TERM_KING_SAFETY, color, W_KING_SHELTER + 8 * neighbour + own_rank, 1);
        add(ei, TERM_KING_SAFETY, color, W_KING_STORM + 8 * blocked + their_rank, 1);
    }
}

/* The danger color's pieces make for the other king: attackers, attacks on its zone, weak
 * squares there, safe checks, defenders; it costs the defender once two pieces attack (one
 * with the queen on the board). */
HOT_CLONES
static void eval_danger(EvalInfo *ei, int color)
{
    const Board *b = ei->b;
    int them = !color, ksq = b->king_sq[them], type, d;
    int has_queen = b->pieces[make_piece(color, QUEEN)] != 0;
    uint64_t zone = ei->king_zone[them];
    uint64_t defended = ei->pawn_attacks[them] | ei->attacked_by[them][KNIGHT] | ei->attacked_by[them][BISHOP]
                      | ei->attacked_by[them][ROOK];
    uint64_t safe = ~b->occupied[color] & ~ei->attacks[them];
    uint64_t checks[7];
    int attackers = 0;
    for (type = KNIGHT; type <= QUEEN; type++)
        attackers += ei->king_attackers[color][type];
    if (attackers <= 1 - has_queen)
        return;
    for (type = KNIGHT; type <= QUEEN; type++)
        add_danger(ei, color, W_DANGER_ATTACKER + type - KNIGHT, ei->king_attackers[color][type]);
    add_danger(ei, color, W_DANGER_ZONE_ATTACK, ei->zone_attacks[color]);
    checks[KNIGHT] = piece_attacks(b, KNIGHT, them, ksq);
    checks[BISHOP] = piece_attacks(b, BISHOP, them, ksq);
    checks[ROOK] = piece_attacks(b, ROOK, them, ksq);
    checks[QUEEN] = checks[BISHOP] | checks[ROOK];
    add_danger(ei, color, W_DANGER_WEAK_SQUARE, bit_count(zone & ei->attacks[color] & ~defended));
    for (type = KNIGHT; type <= QUEEN; type++)
        add_danger(ei, color, W_DANGER_SAFE_CHECK + type - KNIGHT, bit_count(checks[type] & ei->attacked_by[color][type] & safe));
    add_danger(ei, color, W_DANGER_NO_QUEEN, !has_queen);
    add_danger(ei, color, W_DANGER_DEFENDER,
               bit_count(zone & (b->pieces[make_piece(them, KNIGHT)] | b->pieces[make_piece(them, BISHOP)])));
    add_danger(ei, color, W_DANGER_BASE, 1);
    d = int_max(mg_of(ei->danger[color]), 0);
    ei->score[TERM_KING_SAFETY][them] += S(-(d * d / KING_DANGER_MG_DIVISOR), 0);
    d = int_max(eg_of(ei->danger[color]), 0);
    ei->score[TERM_KING_SAFETY][them] += S(0, -(d / KING_DANGER_EG_DIVISOR));
}

/* Passed pawns: rank, a free path, the kings' distances to the stop square, and the rule of
 * the square when the defender has only pawns left. */
HOT_CLONES
static void eval_passed(EvalInfo *ei, int color)
{
    const Board *b = ei->b;
    uint64_t set = ei->passed[color], all = b->occupied[WHITE] | b->occupied[BLACK];
    int defender_bare = ei->non_pawn[!color] == 0, runner = 0;
    while (set) {
        int sq = bit_first(set), r, stop, promo, to_go, king_dist;
        set &= set - 1;
        r = relative_rank(color, sq);
        stop = color == WHITE ? sq + 8 : sq - 8;
        add(ei, TERM_PASSED, color, W_PASSED + r, 1);
        if (!(front_span[color][sq] & all) && !(front_span[color][sq] & ei->attacks[!color]))
            add(ei, TERM_PASSED, color, W_PASSED_FREE + r, 1);
        add(ei, TERM_PASSED, color, W_PASSED_OWN_KING + r, distance(b->king_sq[color], stop));
        add(ei, TERM_PASSED, color, W_PASSED_THEIR_KING + r, distance(b->king_sq[!color], stop));
        if (!defender_bare || (front_span[color][sq] & all))
            continue;
        promo = make_square(square_file(sq), color == WHITE ? 7 : 0);
        to_go = 7 - (r == 1 ? 2 : r);
        king_dist = distance(b->king_sq[!color], promo) - (b->side != color);
        runner |= to_go < king_dist;
    }
    if (runner)
        add(ei, TERM_PASSED, color, W_PASSED_UNSTOPPABLE, 1);
}

/* Enemy pieces our pawns attack, majors our minors attack, queens our rooks attack, pieces
 * and pawns we attack that they do not defend, and safe pawn pushes that attack a piece. */
HOT_CLONES
static void eval_threats(EvalInfo *ei, int color)
{
    const Board *b = ei->b;
    int them = !color;
    uint64_t pawns = b->pieces[make_piece(them, PAWN)], queens = b->pieces[make_piece(them, QUEEN)];
    uint64_t targets = b->occupied[them] & ~pawns & ~b->pieces[make_piece(them, KING)];
    uint64_t minors = ei->attacked_by[color][KNIGHT] | ei->attacked_by[color][BISHOP];
    uint64_t empty = ~(b->occupied[WHITE] | b->occupied[BLACK]), pushes;
    uint64_t undefended = ei->attacks[color] & ~ei->attacks[them];
    add(ei, TERM_THREATS, color, W_THREAT_BY_PAWN, bit_count(targets & ei->pawn_attacks[color]));
    add(ei, TERM_THREATS, color, W_THREAT_MINOR_ON_MAJOR, bit_count((b->pieces[make_piece(them, ROOK)] | queens) & minors));
    add(ei, TERM_THREATS, color, W_THREAT_ROOK_ON_QUEEN, bit_count(queens & ei->attacked_by[color][ROOK]));
    add(ei, TERM_THREATS, color, W_THREAT_HANGING, bit_count(targets & undefended & ~ei->pawn_attacks[color]));
    add(ei, TERM_THREATS, color, W_THREAT_HANGING_PAWN, bit_count(pawns & undefended));
    pushes = b->pieces[make_piece(color, PAWN)];
    pushes = (color == WHITE ? pushes << 8 : pushes >> 8) & empty;
    pushes &= ~ei->pawn_attacks[them] & (ei->attacks[color] | ~ei->attacks[them]);
    add(ei, TERM_THREATS, color, W_THREAT_PAWN_PUSH, bit_count(pawn_attack_set(pushes, color) & targets));
}

/* The mating bonus against a bare king, in endgame centipawns: a base that puts any such
 * position above the material alone, then so much a step of king distance, a square the
 * bare king cannot go to, a step toward the edge; with bishop and knight, so much a step
 * toward a corner of the bishop's colour and of the knight's distance to the bare king. */
enum {
    MATING_BASE = 200, MATING_KINGS_CLOSE = 15, MATING_ROOM_TAKEN = 20, MATING_EDGE = 30,
    MATING_BN_CORNER = 60, MATING_BN_KNIGHT_CLOSE = 10
};

/* Against a bare king: drive it to the edge (the right corner with bishop and knight)
 * and bring the kings together. Special knowledge, outside the tuned weights. */
HOT_CLONES
static void eval_mating(EvalInfo *ei, int color)
{
    const Board *b = ei->b;
    int weak = !color, wk = b->king_sq[weak], sk = b->king_sq[color], edge, bonus, room;
    uint64_t bishops = b->pieces[make_piece(color, BISHOP)];
    ei->score[TERM_MATING][color] = 0;
    if (b->occupied[weak] != bit(wk) || ei->non_pawn[color] < VALUE_ROOK
        || b->pieces[make_piece(color, PAWN)] != 0)
        return;
    edge = 3 - int_min(square_file(wk), 7 - square_file(wk)) + 3 - int_min(square_rank(wk), 7 - square_rank(wk));
    /* squares the bare king can still go to: fewer is closer to mate */
    room = bit_count(piece_attacks(b, KING, weak, wk) & ~ei->attacks[color]);
    bonus = MATING_KINGS_CLOSE * (7 - distance(wk, sk)) + MATING_ROOM_TAKEN * (8 - room);
    if (bit_count(b->occupied[color]) == 3 && bishops && b->pieces[make_piece(color, KNIGHT)]) {
        /* only a corner of the bishop's colour will do: a1 and h8 are dark */
        int dark = (bishops & DARK_SQUARES) != 0;
        int c1 = dark ? 0 : 7, c2 = dark ? 63 : 56;
        int m1 = manhattan(wk, c1), m2 = manhattan(wk, c2);
        bonus += MATING_BN_CORNER * (14 - int_min(m1, m2))
               + MATING_BN_KNIGHT_CLOSE * (7 - distance(wk, bit_first(b->pieces[make_piece(color, KNIGHT)])));
    } else {
        bonus += MATING_EDGE * edge;
    }
    ei->score[TERM_MATING][color] = S(0, bonus + MATING_BASE);
}

/* Against a bare king only the material and the mating pattern count; returns 1 if so. */
static int eval_mating_override(EvalInfo *ei)
{
    int c, t;
    for (c = WHITE; c <= BLACK; c++)
        if (ei->score[TERM_MATING][c]) {
            int mating = ei->score[TERM_MATING][c] + S(0, ei->non_pawn[c]);
            for (t = 0; t < TERM_NB; t++)
                ei->score[t][WHITE] = ei->score[t][BLACK] = 0;
            ei->score[TERM_MATING][c] = mating;
            return 1;
        }
    return 0;
}

/* Endgame scales (out of SCALE_NORMAL) of drawish material: a minor piece or less ahead
 * without pawns, and opposite-coloured bishops alone or with other pieces. */
enum { SCALE_MINOR_AHEAD = 8, SCALE_OPPOSITE_BISHOPS = 32, SCALE_OPPOSITE_BISHOPS_PIECES = 48 };

/* Returns the endgame scale for the side that is ahead: drawish material gets less. */
static int endgame_scale(const EvalInfo *ei, int strong)
{
    const Board *b = ei->b;
    int weak = !strong, npm_s = ei->non_pawn[strong], npm_w = ei->non_pawn[weak];
    uint64_t sb = b->pieces[make_piece(strong, BISHOP)], wb = b->pieces[make_piece(weak, BISHOP)];
    if (!b->pieces[make_piece(strong, PAWN)] && npm_s - npm_w <= VALUE_BISHOP)
        return npm_s <= VALUE_BISHOP ? 0 : SCALE_MINOR_AHEAD;
    if (!b->pieces[make_piece(strong, PAWN)] && npm_s == 2 * VALUE_KNIGHT && npm_w == 0
        && bit_count(b->pieces[make_piece(strong, KNIGHT)]) == 2)
        return 0;
    if (bit_count(sb) == 1 && bit_count(wb) == 1 && (!(sb & DARK_SQUARES)) != (!(wb & DARK_SQUARES))) {
        /* opposite-coloured bishops */
        return npm_s == VALUE_BISHOP && npm_w == VALUE_BISHOP ? SCALE_OPPOSITE_BISHOPS : SCALE_OPPOSITE_BISHOPS_PIECES;
    }
    return SCALE_NORMAL;
}

const char *eval_term_name(int term)
{
    assert(term >= 0 && term < TERM_NB);
    return TERM_NAMES[term];
}

/* Fills the attack sets every term reads and zeroes the scores. */
HOT_CLONES
static void eval_setup(EvalInfo *ei, const Board *b, EvalFeatures *features)
{
    int c;
    ei->b = b;
    ei->features = features;
    memset(ei->attacked_by, 0, sizeof ei->attacked_by);
    memset(ei->king_attackers, 0, sizeof ei->king_attackers);
    memset(ei->score, 0, sizeof ei->score);
    for (c = WHITE; c <= BLACK; c++) {
        ei->non_pawn[c] = eval_non_pawn_material(b, c);
        ei->pawn_attacks[c] = pawn_attack_set(b->pieces[make_piece(c, PAWN)], c);
        ei->attacked_by[c][PAWN] = ei->pawn_attacks[c];
        ei->attacked_by[c][KING] = piece_attacks(b, KING, c, b->king_sq[c]);
        ei->attacks[c] = ei->pawn_attacks[c] | ei->attacked_by[c][KING];
        ei->king_zone[c] = ei->attacked_by[c][KING] | bit(b->king_sq[c]);
        ei->zone_attacks[c] = 0;
        ei->danger[c] = 0;
    }
}

/* Returns score faded toward a draw as the fifty-move clock runs, so that progress pays. */
static int fade(int score, const Board *b)
{
    return score * (FADE_PLIES - int_min(b->halfmove, FIFTY_MOVE_PLIES)) / FADE_PLIES;
}

/* The evaluation behind eval_position, eval_features and eval_network, of a position that is
 * not a dead draw: its callers rule those out first. */
HOT_CLONES
static int eval_run(const Board *b, EvalTrace *trace, EvalFeatures *features)
{
    EvalInfo ei;
    int c, t, mg, eg, phase = 0, scale, score, type, special;
    unsigned total = 0;

    assert(ready); /* eval_init first */
    if (features) {
        features->length = 0;
        features->halfmove = b->halfmove;
    }
    eval_setup(&ei, b, features);
    for (c = WHITE; c <= BLACK; c++)
        eval_pawns(&ei, c);
    for (c = WHITE; c <= BLACK; c++) {
        eval_material(&ei, c);
        eval_pieces(&ei, c);
    }
    for (c = WHITE; c <= BLACK; c++) {
        eval_shelter(&ei, c);
        eval_danger(&ei, c);
        eval_passed(&ei, c);
        eval_threats(&ei, c);
        eval_mating(&ei, c);
    }
    add(&ei, TERM_TEMPO, b->side, W_TEMPO, 1);
    special = eval_mating_override(&ei);
    /* packed pairs add up as pairs (unsigned: no overflow) while each half stays within 16 bits */
    for (t = 0; t < TERM_NB; t++)
        total += (unsigned)ei.score[t][WHITE] - (unsigned)ei.score[t][BLACK];
    mg = mg_of((int)total);
    eg = eg_of((int)total);
    for (type = KNIGHT; type <= QUEEN; type++)
        phase += PHASE_WEIGHT[type] * bit_count(b->pieces[make_piece(WHITE, type)] | b->pieces[make_piece(BLACK, type)]);
    if (phase > PHASE_MAX)
        phase = PHASE_MAX;
    scale = endgame_scale(&ei, eg > 0 ? WHITE : BLACK);
    score = (mg * phase + eg * (PHASE_MAX - phase) * scale / SCALE_NORMAL) / PHASE_MAX;
    score = fade(score, b);

    if (features) {
        features->phase = phase;
        features->scale = scale;
        features->linear = !special;
    }
    if (trace) {
        for (t = 0; t < TERM_NB; t++)
            for (c = WHITE; c <= BLACK; c++) {
                trace->mg[t][c] = mg_of(ei.score[t][c]);
                trace->eg[t][c] = eg_of(ei.score[t][c]);
            }
        trace->phase = phase;
        trace->scale = scale;
        trace->white_score = score;
    }
    return b->side == WHITE ? score : -score;
}

/* eval_run's answer outside the search, where dead draws (0, every term 0) are not yet ruled out. */
static int eval_outside_search(const Board *b, EvalTrace *trace, EvalFeatures *features)
{
    int t;
    if (!board_insufficient_material(b))
        return eval_run(b, trace, features);
    if (trace) {
        for (t = 0; t < TERM_NB; t++)
            trace->mg[t][0] = trace->mg[t][1] = trace->eg[t][0] = trace->eg[t][1] = 0;
        trace->phase = trace->scale = trace->white_score = 0;
    }
    if (features) {
        features->length = 0;
        features->halfmove = b->halfmove;
        features->phase = features->scale = features->linear = 0;
    }
    return 0;
}

int eval_position(const Board *b, EvalTrace *trace)
{
    return eval_outside_search(b, trace, NULL);
}

int eval_features(const Board *b, EvalFeatures *features)
{
    return eval_outside_search(b, NULL, features);
}

/* ---------------------------------------------------------------- the network */

/* A hidden value times 2^SQUARE_PRESHIFT, squared, is its square times 2^16 >> NNUE_SQUARE_SHIFT
 * (output_half), and still fits in 32 bits unsigned. */
enum { SQUARE_PRESHIFT = (16 - NNUE_SQUARE_SHIFT) / 2 };
typedef char square_preshift_is_exact[(16 - NNUE_SQUARE_SHIFT) % 2 == 0 && (NNUE_QA << SQUARE_PRESHIFT) < 65536 ? 1 : -1];

/* Adds an input's hidden weights to one side's accumulator. */
static void accumulator_add(int16_t *values, int input)
{
    const int16_t *w = hidden_weights + (long)input * NNUE_HIDDEN;
    int j;
    for (j = 0; j < NNUE_HIDDEN; j++)
        values[j] = (int16_t)(values[j] + w[j]);
}

/* Writes into out the accumulator `in` with the inputs added[] on and removed[] off (one or
 * two of each), in one pass over the hidden layer. */
HOT_CLONES
static void accumulator_move(int16_t *restrict out, const int16_t *restrict in, const int *added, int add_count,
                             const int *removed, int remove_count)
{
    const int16_t *restrict a1 = hidden_weights + (long)added[0] * NNUE_HIDDEN;
    const int16_t *restrict r1 = hidden_weights + (long)removed[0] * NNUE_HIDDEN;
    const int16_t *restrict a2 = hidden_weights + (long)added[1] * NNUE_HIDDEN;
    const int16_t *restrict r2 = hidden_weights + (long)removed[1] * NNUE_HIDDEN;
    int j;
    assert(add_count >= 1 && add_count <= 2 && remove_count >= 1 && remove_count <= 2);
    if (add_count == 1 && remove_count == 1)
        for (j = 0; j < NNUE_HIDDEN; j++)
            out[j] = (int16_t)(in[j] + a1[j] - r1[j]);
    else if (add_count == 1)
        for (j = 0; j < NNUE_HIDDEN; j++)
            out[j] = (int16_t)(in[j] + a1[j] - r1[j] - r2[j]);
    else
        for (j = 0; j < NNUE_HIDDEN; j++)
            out[j] = (int16_t)(in[j] + a1[j] + a2[j] - r1[j] - r2[j]);
}

/* Computes side p of acc from the pieces of b. */
static void refresh_side(Accumulator *acc, const Board *b, int p)
{
    int sq, flip = nnue_flip_for_king(b->king_sq[p]);
    assert(ready); /* eval_init first */
    memcpy(acc->side[p], NNUE_HIDDEN_BIASES, sizeof acc->side[p]);
    for (sq = 0; sq < 64; sq++)
        if (b->squares[sq] != EMPTY)
            accumulator_add(acc->side[p], nnue_input(p, b->squares[sq], sq, flip));
}

void nnue_refresh(Accumulator *acc, const Board *b)
{
    refresh_side(acc, b, WHITE);
    refresh_side(acc, b, BLACK);
}

void nnue_rebuild(Accumulator *acc, const Board *b, const NetworkDelta *d)
{
    int p;
    for (p = WHITE; p <= BLACK; p++)
        if (d->rebuild >> p & 1)
            refresh_side(acc, b, p);
}

/* Records a piece put on or taken off a square. */
static void delta_add(NetworkDelta *d, int piece, int sq)
{
    d->add_piece[d->add_count] = (uint8_t)piece;
    d->add_square[d->add_count++] = (uint8_t)sq;
}

static void delta_remove(NetworkDelta *d, int piece, int sq)
{
    d->remove_piece[d->remove_count] = (uint8_t)piece;
    d->remove_square[d->remove_count++] = (uint8_t)sq;
}

void nnue_delta(const Board *b, Move m, NetworkDelta *d)
{
    int from = move_from(m), to = move_to(m), kind = move_kind(m), us = b->side;
    int piece = b->squares[from];
    d->add_count = d->remove_count = 0;
    d->flip[WHITE] = (uint8_t)nnue_flip_for_king(b->king_sq[WHITE]);
    d->flip[BLACK] = (uint8_t)nnue_flip_for_king(b->king_sq[BLACK]);
    d->rebuild = 0;
    if (m == MOVE_NONE)
        return;
    if (piece_type(piece) == KING && nnue_flip_for_king(to) != d->flip[us]) {
        /* castling's destination is the king's too */
        d->flip[us] = (uint8_t)nnue_flip_for_king(to);
        d->rebuild = (uint8_t)(1 << us);
    }
    delta_remove(d, piece, from);
    delta_add(d, kind == KIND_PROMOTION ? make_piece(us, move_promo(m)) : piece, to);
    if (kind == KIND_EN_PASSANT)
        delta_remove(d, make_piece(!us, PAWN), us == WHITE ? to - 8 : to + 8);
    else if (kind == KIND_CASTLE) {
        /* the rook too (in Chess960 the king or the rook may stay put: its two changes cancel) */
        int rook_from, rook_to;
        castle_rook_squares(b, m, &rook_from, &rook_to);
        delta_remove(d, make_piece(us, ROOK), rook_from);
        delta_add(d, make_piece(us, ROOK), rook_to);
    } else if (b->squares[to] != EMPTY)
        delta_remove(d, b->squares[to], to);
}

void nnue_apply(Accumulator *after, const Accumulator *before, const NetworkDelta *d)
{
    int p, i;
    if (d->add_count == 0) {
        *after = *before;
        return;
    }
    for (p = WHITE; p <= BLACK; p++) {
        int added[2] = { 0, 0 }, removed[2] = { 0, 0 };
        if (d->rebuild >> p & 1)
            continue;
        for (i = 0; i < d->add_count; i++)
            added[i] = nnue_input(p, d->add_piece[i], d->add_square[i], d->flip[p]);
        for (i = 0; i < d->remove_count; i++)
            removed[i] = nnue_input(p, d->remove_piece[i], d->remove_square[i], d->flip[p]);
        accumulator_move(after->side[p], before->side[p], added, d->add_count, removed, d->remove_count);
    }
}

/* Returns the sum of the squared clipped hidden values of one half times its output
 * weights: less than NNUE_HIDDEN * 1016 * 2048 (the trainer keeps |weights| below 2 * NNUE_QB).
 * A squared value, (v^2 + 2^7) >> 8, is taken as the rounded high half of (16v)^2: the same
 * number, from 16-bit multiplies. Two passes, so that gcc and clang vectorize each with
 * what the baseline x86-64 and WebAssembly SIMD have (16-bit multiplies, then a
 * multiply-add of 16-bit pairs). */
HOT_CLONES
static int32_t output_half(const int16_t *restrict values, const int16_t *restrict weights)
{
    int16_t squared[NNUE_HIDDEN];
    int32_t sum = 0;
    int j;
    for (j = 0; j < NNUE_HIDDEN; j++) {
        uint16_t v = (uint16_t)int_clamp(values[j], 0, NNUE_QA);
        uint16_t scaled = (uint16_t)(v << SQUARE_PRESHIFT);
        /* the high half of scaled^2, rounded by bit 15 of its low half, which is bit
         * 15 - 2 * SQUARE_PRESHIFT of v^2: so written, both are 16-bit multiplies */
        uint16_t high = (uint16_t)(((uint32_t)scaled * scaled) >> 16);
        uint16_t round = (uint16_t)((uint16_t)((unsigned)v * v) >> (15 - 2 * SQUARE_PRESHIFT) & 1);
        squared[j] = (int16_t)(high + round);
    }
    for (j = 0; j < NNUE_HIDDEN; j++)
        sum += (int32_t)squared[j] * weights[j];
    return sum;
}

int nnue_evaluate(const Accumulator *acc, const Board *b)
{
    int bucket = nnue_bucket(bit_count(b->occupied[WHITE] | b->occupied[BLACK]));
    const int16_t *weights = NNUE_OUTPUT_WEIGHTS + bucket * 2 * NNUE_HIDDEN;
    int64_t sum = (int64_t)output_half(acc->side[b->side], weights) + output_half(acc->side[!b->side], weights + NNUE_HIDDEN);
    int64_t output = sum * (1 << NNUE_SQUARE_SHIFT) / (NNUE_QA * NNUE_QA) + NNUE_OUTPUT_BIASES[bucket];
    int64_t scaled = output * NNUE_SCALE / NNUE_QB;
    return scaled > EVAL_LIMIT ? EVAL_LIMIT : scaled < -EVAL_LIMIT ? -EVAL_LIMIT : (int)scaled;
}

/* Returns 1 if either side has nothing but its king. */
static int has_bare_king(const Board *b)
{
    return bit_count(b->occupied[WHITE]) == 1 || bit_count(b->occupied[BLACK]) == 1;
}

int eval_network(const Board *b, const Accumulator *acc)
{
    if (board_insufficient_material(b))
        return 0;
    if (has_bare_king(b))
        return eval_run(b, NULL, NULL); /* the mating knowledge */
    return fade(nnue_evaluate(acc, b), b);
}

int eval_by_knowledge(const Board *b)
{
    return has_bare_king(b) || board_insufficient_material(b);
}

/* Mixes size bytes of data into the hash h, eight at a time (FNV-1a's shape, Fowler, Noll and
 * Vo, on 64-bit words with a final xor-shift per word). */
static uint64_t hash_bytes(uint64_t h, const void *data, size_t size)
{
    const unsigned char *p = data;
    size_t i;
    for (i = 0; i < size; i += 8) {
        uint64_t word = 0;
        memcpy(&word, p + i, size - i < 8 ? size - i : 8);
        h = (h ^ word) * UINT64_C(0x100000001B3);
        h ^= h >> 29;
    }
    return h;
}

uint64_t eval_signature(void)
{
    uint64_t h = UINT64_C(0xCBF29CE484222325);
    h = hash_bytes(h, NNUE_HIDDEN_LOW, sizeof NNUE_HIDDEN_LOW);
    h = hash_bytes(h, NNUE_HIDDEN_MAP, sizeof NNUE_HIDDEN_MAP);
    h = hash_bytes(h, NNUE_HIDDEN_HIGH, sizeof NNUE_HIDDEN_HIGH);
    h = hash_bytes(h, NNUE_HIDDEN_BIASES, sizeof NNUE_HIDDEN_BIASES);
    h = hash_bytes(h, NNUE_OUTPUT_WEIGHTS, sizeof NNUE_OUTPUT_WEIGHTS);
    h = hash_bytes(h, NNUE_OUTPUT_BIASES, sizeof NNUE_OUTPUT_BIASES);
    return hash_bytes(h, HCE_WEIGHTS, sizeof HCE_WEIGHTS);
}

/* ------------------------------------------------------------ for the tuner */

const EvalGroup *eval_groups(int *count)
{
    *count = (int)(sizeof GROUPS / sizeof GROUPS[0]);
    return GROUPS;
}

int eval_weight_count(void)
{
    return W_NB;
}

const int *eval_weights(void)
{
    return HCE_WEIGHTS;
}

int eval_weight_mg(int weight)
{
    return mg_of(weight);
}

int eval_weight_eg(int weight)
{
    return eg_of(weight);
}
