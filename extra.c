/* extra.c: the evaluation. Material and piece-square tables (PeSTO), mobility,
 * pawn structure, passed pawns, king safety, piece placement, endgame scaling and
 * mating knowledge, tapered between middlegame and endgame by the material left. */
#include "extra.h"

#include <assert.h>
#include <stdlib.h>

/* A middlegame/endgame pair packed into one int (the Stockfish/Ethereal idiom). */
#define S(mg, eg) ((int)((unsigned)(eg) * 0x10000u + (unsigned)(mg)))

typedef struct {
    const Board *b;
    uint64_t pawn_attacks[2];
    uint64_t attacks[2];        /* every square each side attacks */
    uint64_t king_zone[2];      /* the squares around each king */
    int king_units[2];          /* weighted attacks on the other side's king zone */
    int king_attackers[2];
    int score[TERM_NB][2];      /* packed pairs per term and colour */
} EvalInfo;

/* prototypes */
static void eval_init(void);
static inline int mg_of(int s);
static inline int eg_of(int s);
static inline uint64_t bit(int sq);
static inline int bit_last(uint64_t set);
static inline int relative_rank(int color, int sq);
static inline int distance(int a, int b);
static inline int manhattan(int a, int b);
static uint64_t pawn_attack_set(uint64_t pawns, int color);
static void eval_material(EvalInfo *ei, int color);
static void eval_pawns(EvalInfo *ei, int color);
static void eval_pieces(EvalInfo *ei, int color);
static void eval_king(EvalInfo *ei, int color);
static void eval_passed(EvalInfo *ei, int color);
static void eval_threats(EvalInfo *ei, int color);
static void eval_mating(EvalInfo *ei, int color);
static int non_pawn_material(const Board *b, int color);
static int endgame_scale(const Board *b, int strong);

/* PeSTO piece values and piece-square tables by Ronald Friederich (RofChade),
 * as published on the Chess Programming Wiki, "PeSTO's Evaluation Function".
 * Tables are drawn as a diagram from white's side: rank 8 on top, so the entry of
 * white square sq is [sq ^ 56] and of black square sq is [sq]. */
static const int PIECE_MG[7] = { 0, 82, 337, 365, 477, 1025, 0 };
static const int PIECE_EG[7] = { 0, 94, 281, 297, 512, 936, 0 };
static const int PHASE_WEIGHT[7] = { 0, 0, 1, 1, 2, 4, 0 };

static const int PST_MG[7][64] = {
    { 0 },
    {   0,   0,   0,   0,   0,   0,   0,   0,
       98, 134,  61,  95,  68, 126,  34, -11,
       -6,   7,  26,  31,  65,  56,  25, -20,
      -14,  13,   6,  21,  23,  12,  17, -23,
      -27,  -2,  -5,  12,  17,   6,  10, -25,
      -26,  -4,  -4, -10,   3,   3,  33, -12,
      -35,  -1, -20, -23, -15,  24,  38, -22,
        0,   0,   0,   0,   0,   0,   0,   0 },
    { -167, -89, -34, -49,  61, -97, -15, -107,
       -73, -41,  72,  36,  23,  62,   7,  -17,
       -47,  60,  37,  65,  84, 129,  73,   44,
        -9,  17,  19,  53,  37,  69,  18,   22,
       -13,   4,  16,  13,  28,  19,  21,   -8,
       -23,  -9,  12,  10,  19,  17,  25,  -16,
       -29, -53, -12,  -3,  -1,  18, -14,  -19,
      -105, -21, -58, -33, -17, -28, -19,  -23 },
    { -29,   4, -82, -37, -25, -42,   7,  -8,
      -26,  16, -18, -13,  30,  59,  18, -47,
      -16,  37,  43,  40,  35,  50,  37,  -2,
       -4,   5,  19,  50,  37,  37,   7,  -2,
       -6,  13,  13,  26,  34,  12,  10,   4,
        0,  15,  15,  15,  14,  27,  18,  10,
        4,  15,  16,   0,   7,  21,  33,   1,
      -33,  -3, -14, -21, -13, -12, -39, -21 },
    {  32,  42,  32,  51,  63,   9,  31,  43,
       27,  32,  58,  62,  80,  67,  26,  44,
       -5,  19,  26,  36,  17,  45,  61,  16,
      -24, -11,   7,  26,  24,  35,  -8, -20,
      -36, -26, -12,  -1,   9,  -7,   6, -23,
      -45, -25, -16, -17,   3,   0,  -5, -33,
      -44, -16, -20,  -9,  -1,  11,  -6, -71,
      -19, -13,   1,  17,  16,   7, -37, -26 },
    { -28,   0,  29,  12,  59,  44,  43,  45,
      -24, -39,  -5,   1, -16,  57,  28,  54,
      -13, -17,   7,   8,  29,  56,  47,  57,
      -27, -27, -16, -16,  -1,  17,  -2,   1,
       -9, -26,  -9, -10,  -2,  -4,   3,  -3,
      -14,   2, -11,  -2,  -5,   2,  14,   5,
      -35,  -8,  11,   2,   8,  15,  -3,   1,
       -1, -18,  -9,  10, -15, -25, -31, -50 },
    { -65,  23,  16, -15, -56, -34,   2,  13,
       29,  -1, -20,  -7,  -8,  -4, -38, -29,
       -9,  24,   2, -16, -20,   6,  22, -22,
      -17, -20, -12, -27, -30, -25, -14, -36,
      -49,  -1, -27, -39, -46, -44, -33, -51,
      -14, -14, -22, -46, -44, -30, -15, -27,
        1,   7,  -8, -64, -43, -16,   9,   8,
      -15,  36,  12, -54,   8, -28,  24,  14 },
};

static const int PST_EG[7][64] = {
    { 0 },
    {   0,   0,   0,   0,   0,   0,   0,   0,
      178, 173, 158, 134, 147, 132, 165, 187,
       94, 100,  85,  67,  56,  53,  82,  84,
       32,  24,  13,   5,  -2,   4,  17,  17,
       13,   9,  -3,  -7,  -7,  -8,   3,  -1,
        4,   7,  -6,   1,   0,  -5,  -1,  -8,
       13,   8,   8,  10,  13,   0,   2,  -7,
        0,   0,   0,   0,   0,   0,   0,   0 },
    { -58, -38, -13, -28, -31, -27, -63, -99,
      -25,  -8, -25,  -2,  -9, -25, -24, -52,
      -24, -20,  10,   9,  -1,  -9, -19, -41,
      -17,   3,  22,  22,  22,  11,   8, -18,
      -18,  -6,  16,  25,  16,  17,   4, -18,
      -23,  -3,  -1,  15,  10,  -3, -20, -22,
      -42, -20, -10,  -5,  -2, -20, -23, -44,
      -29, -51, -23, -15, -22, -18, -50, -64 },
    { -14, -21, -11,  -8,  -7,  -9, -17, -24,
       -8,  -4,   7, -12,  -3, -13,  -4, -14,
        2,  -8,   0,  -1,  -2,   6,   0,   4,
       -3,   9,  12,   9,  14,  10,   3,   2,
       -6,   3,  13,  19,   7,  10,  -3,  -9,
      -12,  -3,   8,  10,  13,   3,  -7, -15,
      -14, -18,  -7,  -1,   4,  -9, -15, -27,
      -23,  -9, -23,  -5,  -9, -16,  -5, -17 },
    {  13,  10,  18,  15,  12,  12,   8,   5,
       11,  13,  13,  11,  -3,   3,   8,   3,
        7,   7,   7,   5,   4,  -3,  -5,  -3,
        4,   3,  13,   1,   2,   1,  -1,   2,
        3,   5,   8,   4,  -5,  -6,  -8, -11,
       -4,   0,  -5,  -1,  -7, -12,  -8, -16,
       -6,  -6,   0,   2,  -9,  -9, -11,  -3,
       -9,   2,   3,  -1,  -5, -13,   4, -20 },
    {  -9,  22,  22,  27,  27,  19,  10,  20,
      -17,  20,  32,  41,  58,  25,  30,   0,
      -20,   6,   9,  49,  47,  35,  19,   9,
        3,  22,  24,  45,  57,  40,  57,  36,
      -18,  28,  19,  47,  31,  34,  39,  23,
      -16, -27,  15,   6,   9,  17,  10,   5,
      -22, -23, -30, -16, -16, -23, -36, -32,
      -33, -28, -22, -43,  -5, -32, -20, -41 },
    { -74, -35, -18, -18, -11,  15,   4, -17,
      -12,  17,  14,  17,  17,  38,  23,  11,
       10,  17,  23,  15,  20,  45,  44,  13,
       -8,  22,  24,  27,  26,  33,  26,   3,
      -18,  -4,  21,  24,  27,  23,   9, -11,
      -19,  -3,  11,  21,  23,  16,   7,  -9,
      -27, -11,   4,  13,  14,   4,  -5, -17,
      -53, -34, -21, -11, -28, -14, -24, -43 },
};

/* Mobility per attacked square beyond a typical count, after Fruit 2.1's weights. */
static const int MOBILITY[7] = { 0, 0, S(4, 4), S(5, 5), S(2, 4), S(1, 2), 0 };
static const int MOBILITY_BASE[7] = { 0, 0, 4, 6, 7, 13, 0 };

/* Pawn structure, after Fruit 2.1. */
static const int PAWN_DOUBLED = S(-10, -20);
static const int PAWN_ISOLATED = S(-10, -15);
static const int PAWN_BACKWARD = S(-8, -10);
/* Passed pawns by relative rank; the PeSTO pawn table already pays for advance. */
static const int PASSED[8] = { 0, S(0, 5), S(5, 10), S(10, 20), S(20, 35), S(35, 60), S(60, 100), 0 };
static const int PASSED_FREE[8] = { 0, 0, S(0, 5), S(0, 10), S(5, 20), S(10, 35), S(15, 60), 0 };
static const int PASSED_KING_DIST = 4; /* endgame, per square and rank step */
static const int PASSED_CONNECTED[8] = { 0, 0, S(5, 5), S(8, 10), S(12, 20), S(20, 35), S(30, 50), 0 };
static const int PASSED_UNSTOPPABLE = 500; /* the king cannot catch it (rule of the square) */

/* Pieces. */
static const int BISHOP_PAIR = S(30, 50);
static const int ROOK_OPEN = S(25, 10);
static const int ROOK_SEMI_OPEN = S(10, 5);
static const int OUTPOST[7] = { 0, 0, S(20, 10), S(10, 5), 0, 0, 0 };
static const int TEMPO = S(10, 5);

/* Threats: enemy pieces attacked by a pawn, and enemy pieces attacked but not defended. */
static const int THREAT_BY_PAWN = S(70, 50);
static const int THREAT_HANGING = S(40, 25);

/* King safety: pawn shield per file and weighted attacks on the king zone. */
static const int SHIELD_MISSING = S(-25, 0);
static const int SHIELD_ADVANCED = S(-10, 0);
static const int KING_ATTACK_WEIGHT[7] = { 0, 0, 2, 2, 3, 5, 0 };
static const int KING_DANGER_MAX = 500;

static uint64_t file_set[8];
static uint64_t adjacent_files[8];
static uint64_t front_span[2][64];     /* squares ahead on the same file */
static uint64_t passed_span[2][64];    /* squares ahead on the same and adjacent files */
static int ready;

static const char *const TERM_NAMES[TERM_NB] = {
    "material", "mobility", "pawns", "passed pawns", "king safety", "pieces", "threats", "mating", "tempo"
};

static inline int mg_of(int s) { return (int)(int16_t)(uint16_t)((unsigned)s & 0xffffu); }
static inline int eg_of(int s) { return (int)(int16_t)(uint16_t)(((unsigned)s + 0x8000u) >> 16); }
static inline uint64_t bit(int sq) { return (uint64_t)1 << sq; }
static inline int bit_last(uint64_t set)
{
    while (set & (set - 1))
        set &= set - 1;
    return bit_first(set);
}
static inline int relative_rank(int color, int sq) { return color == WHITE ? square_rank(sq) : 7 - square_rank(sq); }

static inline int manhattan(int a, int b)
{
    return abs(square_file(a) - square_file(b)) + abs(square_rank(a) - square_rank(b));
}

static inline int distance(int a, int b)
{
    int df = abs(square_file(a) - square_file(b)), dr = abs(square_rank(a) - square_rank(b));
    return df > dr ? df : dr;
}

/* Fills the file and span masks once. */
static void eval_init(void)
{
    int sq, f, c;
    if (ready)
        return;
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
    ready = 1;
}

static uint64_t pawn_attack_set(uint64_t pawns, int color)
{
    uint64_t not_a = ~file_set[0], not_h = ~file_set[7];
    if (color == WHITE)
        return ((pawns & not_a) << 7) | ((pawns & not_h) << 9);
    return ((pawns & not_a) >> 9) | ((pawns & not_h) >> 7);
}

int eval_piece_value(int type)
{
    static const int VALUES[7] = { 0, VALUE_PAWN, VALUE_KNIGHT, VALUE_BISHOP, VALUE_ROOK, VALUE_QUEEN, 20000 };
    return VALUES[type];
}

static int non_pawn_material(const Board *b, int color)
{
    int type, sum = 0;
    for (type = KNIGHT; type <= QUEEN; type++)
        sum += bit_count(b->pieces[make_piece(color, type)]) * eval_piece_value(type);
    return sum;
}

static void eval_material(EvalInfo *ei, int color)
{
    int type, sum = 0;
    for (type = PAWN; type <= KING; type++) {
        uint64_t set = ei->b->pieces[make_piece(color, type)];
        while (set) {
            int sq = bit_first(set), idx = color == WHITE ? square_flip(sq) : sq;
            set &= set - 1;
            sum += S(PIECE_MG[type] + PST_MG[type][idx], PIECE_EG[type] + PST_EG[type][idx]);
        }
    }
    ei->score[TERM_MATERIAL][color] = sum;
}

/* Doubled, isolated and backward pawns. */
static void eval_pawns(EvalInfo *ei, int color)
{
    const Board *b = ei->b;
    uint64_t own = b->pieces[make_piece(color, PAWN)], set = own;
    uint64_t theirs = b->pieces[make_piece(!color, PAWN)];
    int sum = 0;
    while (set) {
        int sq = bit_first(set), f = square_file(sq), stop = color == WHITE ? sq + 8 : sq - 8;
        set &= set - 1;
        if (front_span[color][sq] & own)
            sum += PAWN_DOUBLED;
        if (!(adjacent_files[f] & own)) {
            sum += PAWN_ISOLATED;
        } else if (!(passed_span[!color][stop] & adjacent_files[f] & own)
                   && (ei->pawn_attacks[!color] & bit(stop)) && !(front_span[color][sq] & theirs)) {
            /* no neighbour level or behind to support the advance, and the stop square is guarded */
            sum += PAWN_BACKWARD;
        }
    }
    ei->score[TERM_PAWNS][color] = sum;
}

/* Mobility, outposts, bishop pair, rooks on open files; gathers attacks on the enemy king. */
static void eval_pieces(EvalInfo *ei, int color)
{
    const Board *b = ei->b;
    uint64_t own_pawns = b->pieces[make_piece(color, PAWN)], their_pawns = b->pieces[make_piece(!color, PAWN)];
    uint64_t safe = ~b->occupied[color] & ~ei->pawn_attacks[!color];
    int type, mobility = 0, pieces = 0;

    for (type = KNIGHT; type <= QUEEN; type++) {
        uint64_t set = b->pieces[make_piece(color, type)];
        while (set) {
            int sq = bit_first(set), f = square_file(sq);
            uint64_t att = piece_attacks(b, type, color, sq);
            set &= set - 1;
            ei->attacks[color] |= att;
            mobility += MOBILITY[type] * (bit_count(att & safe) - MOBILITY_BASE[type]);
            if (att & ei->king_zone[!color]) {
                ei->king_attackers[color]++;
                ei->king_units[color] += KING_ATTACK_WEIGHT[type] * bit_count(att & ei->king_zone[!color]);
            }
            if ((type == KNIGHT || type == BISHOP) && relative_rank(color, sq) >= 3 && relative_rank(color, sq) <= 5
                && (ei->pawn_attacks[color] & bit(sq)) && !(passed_span[color][sq] & adjacent_files[f] & their_pawns))
                pieces += OUTPOST[type];
            if (type == ROOK && !(file_set[f] & own_pawns))
                pieces += (file_set[f] & their_pawns) ? ROOK_SEMI_OPEN : ROOK_OPEN;
        }
    }
    if (bit_count(b->pieces[make_piece(color, BISHOP)]) >= 2)
        pieces += BISHOP_PAIR;
    ei->score[TERM_MOBILITY][color] = mobility;
    ei->score[TERM_PIECES][color] = pieces;
}

/* Pawn shield in front of the king and the danger from attacks on its zone. */
static void eval_king(EvalInfo *ei, int color)
{
    const Board *b = ei->b;
    int ksq = b->king_sq[color], f, sum = 0, units = ei->king_units[!color];
    uint64_t own_pawns = b->pieces[make_piece(color, PAWN)];
    int center = square_file(ksq) < 1 ? 1 : square_file(ksq) > 6 ? 6 : square_file(ksq);

    for (f = center - 1; f <= center + 1; f++) {
        uint64_t shield = own_pawns & file_set[f] & passed_span[color][ksq];
        if (!shield) {
            sum += SHIELD_MISSING;
        } else {
            int nearest = color == WHITE ? bit_first(shield) : bit_last(shield);
            if (distance(nearest, ksq) > 1)
                sum += SHIELD_ADVANCED;
        }
    }
    if (ei->king_attackers[!color] >= 2 && b->pieces[make_piece(!color, QUEEN)]) {
        int danger = units * units / 4;
        sum += S(-(danger < KING_DANGER_MAX ? danger : KING_DANGER_MAX), 0);
    }
    ei->score[TERM_KING_SAFETY][color] = sum;
}

/* Passed pawns: rank, a free path, connection, the kings' distances in the endgame, and
 * the rule of the square when the defender has only pawns left. */
static void eval_passed(EvalInfo *ei, int color)
{
    const Board *b = ei->b;
    uint64_t own = b->pieces[make_piece(color, PAWN)], set = own, theirs = b->pieces[make_piece(!color, PAWN)];
    uint64_t all = b->occupied[WHITE] | b->occupied[BLACK];
    int sum = 0, defender_bare = non_pawn_material(b, !color) == 0, best_runner = 0;
    while (set) {
        int sq = bit_first(set), r, stop, promo, to_go, king_dist;
        set &= set - 1;
        if (passed_span[color][sq] & theirs)
            continue;
        r = relative_rank(color, sq);
        stop = color == WHITE ? sq + 8 : sq - 8;
        sum += PASSED[r];
        if (!(front_span[color][sq] & all) && !(front_span[color][sq] & ei->attacks[!color]))
            sum += PASSED_FREE[r];
        if (adjacent_files[square_file(sq)] & own & (pawn_attack_set(bit(sq), !color) | pawn_attack_set(bit(stop), !color)))
            sum += PASSED_CONNECTED[r];
        if (r >= 3)
            sum += S(0, PASSED_KING_DIST * (r - 2)
                          * (distance(b->king_sq[!color], stop) * 2 - distance(b->king_sq[color], stop)));
        if (!defender_bare || (front_span[color][sq] & all))
            continue;
        promo = make_square(square_file(sq), color == WHITE ? 7 : 0);
        to_go = 7 - (r == 1 ? 2 : r);
        king_dist = distance(b->king_sq[!color], promo) - (b->side != color);
        if (to_go < king_dist && r > best_runner)
            best_runner = r;
    }
    if (best_runner)
        sum += S(0, PASSED_UNSTOPPABLE + 10 * best_runner);
    ei->score[TERM_PASSED][color] = sum;
}

/* Enemy knights, bishops, rooks and queens that one of our pawns attacks, or that we
 * attack and they do not defend. */
static void eval_threats(EvalInfo *ei, int color)
{
    const Board *b = ei->b;
    int them = !color, sum = 0;
    uint64_t targets = b->occupied[them] & ~b->pieces[make_piece(them, PAWN)] & ~b->pieces[make_piece(them, KING)];
    sum += THREAT_BY_PAWN * bit_count(targets & ei->pawn_attacks[color]);
    sum += THREAT_HANGING * bit_count(targets & ei->attacks[color] & ~ei->attacks[them] & ~ei->pawn_attacks[color]);
    ei->score[TERM_THREATS][color] = sum;
}

/* Against a bare king: drive it to the edge (the right corner with bishop and knight)
 * and bring the kings together. */
static void eval_mating(EvalInfo *ei, int color)
{
    const Board *b = ei->b;
    int weak = !color, wk = b->king_sq[weak], sk = b->king_sq[color], edge, bonus, room;
    uint64_t bishops = b->pieces[make_piece(color, BISHOP)];
    ei->score[TERM_MATING][color] = 0;
    if (b->occupied[weak] != bit(wk) || non_pawn_material(b, color) < VALUE_ROOK
        || b->pieces[make_piece(color, PAWN)] != 0)
        return;
    edge = 3 - (square_file(wk) < 4 ? square_file(wk) : 7 - square_file(wk))
         + 3 - (square_rank(wk) < 4 ? square_rank(wk) : 7 - square_rank(wk));
    /* squares the bare king can still go to: fewer is closer to mate */
    room = bit_count(piece_attacks(b, KING, weak, wk) & ~ei->attacks[color]);
    bonus = 15 * (7 - distance(wk, sk)) + 20 * (8 - room);
    if (bit_count(b->occupied[color]) == 3 && bishops && b->pieces[make_piece(color, KNIGHT)]) {
        /* only a corner of the bishop's colour will do: a1 and h8 are dark */
        int dark = ((square_file(bit_first(bishops)) + square_rank(bit_first(bishops))) & 1) == 0;
        int c1 = dark ? 0 : 7, c2 = dark ? 63 : 56;
        int m1 = manhattan(wk, c1), m2 = manhattan(wk, c2);
        bonus += 60 * (14 - (m1 < m2 ? m1 : m2))
               + 10 * (7 - distance(wk, bit_first(b->pieces[make_piece(color, KNIGHT)])));
    } else {
        bonus += 30 * edge;
    }
    ei->score[TERM_MATING][color] = S(0, bonus + 200);
}

/* Returns the endgame scale for the side that is ahead: drawish material gets less. */
static int endgame_scale(const Board *b, int strong)
{
    int weak = !strong, npm_s = non_pawn_material(b, strong), npm_w = non_pawn_material(b, weak);
    uint64_t sb = b->pieces[make_piece(strong, BISHOP)], wb = b->pieces[make_piece(weak, BISHOP)];
    uint64_t dark = UINT64_C(0xaa55aa55aa55aa55);
    if (!b->pieces[make_piece(strong, PAWN)] && npm_s - npm_w <= VALUE_BISHOP)
        return npm_s <= VALUE_BISHOP ? 0 : 8;
    if (!b->pieces[make_piece(strong, PAWN)] && npm_s == 2 * VALUE_KNIGHT && npm_w == 0
        && bit_count(b->pieces[make_piece(strong, KNIGHT)]) == 2)
        return 0;
    if (bit_count(sb) == 1 && bit_count(wb) == 1 && (!(sb & dark)) != (!(wb & dark))) {
        /* opposite-coloured bishops */
        return npm_s == VALUE_BISHOP && npm_w == VALUE_BISHOP ? 32 : 48;
    }
    return SCALE_NORMAL;
}

int eval_insufficient_material(const Board *b)
{
    uint64_t heavy = 0, minors[2];
    int c;
    for (c = WHITE; c <= BLACK; c++) {
        heavy |= b->pieces[make_piece(c, PAWN)] | b->pieces[make_piece(c, ROOK)] | b->pieces[make_piece(c, QUEEN)];
        minors[c] = b->pieces[make_piece(c, KNIGHT)] | b->pieces[make_piece(c, BISHOP)];
    }
    if (heavy)
        return 0;
    if (bit_count(minors[WHITE] | minors[BLACK]) <= 1)
        return 1;
    /* only bishops, all on squares of one colour */
    if (!(b->pieces[make_piece(WHITE, KNIGHT)] | b->pieces[make_piece(BLACK, KNIGHT)])) {
        uint64_t dark = UINT64_C(0xaa55aa55aa55aa55), all = minors[WHITE] | minors[BLACK];
        return !(all & dark) || !(all & ~dark);
    }
    return 0;
}

const char *eval_term_name(int term)
{
    assert(term >= 0 && term < TERM_NB);
    return TERM_NAMES[term];
}

int eval_position(const Board *b, EvalTrace *trace)
{
    EvalInfo ei;
    int c, t, mg = 0, eg = 0, phase = 0, scale, score, type;

    eval_init();
    if (eval_insufficient_material(b)) {
        if (trace) {
            int i;
            for (i = 0; i < TERM_NB; i++)
                trace->mg[i][0] = trace->mg[i][1] = trace->eg[i][0] = trace->eg[i][1] = 0;
            trace->phase = 0;
            trace->scale = 0;
            trace->white_score = 0;
        }
        return 0;
    }
    ei.b = b;
    for (c = WHITE; c <= BLACK; c++) {
        ei.pawn_attacks[c] = pawn_attack_set(b->pieces[make_piece(c, PAWN)], c);
        ei.attacks[c] = ei.pawn_attacks[c] | piece_attacks(b, KING, c, b->king_sq[c]);
        ei.king_zone[c] = piece_attacks(b, KING, c, b->king_sq[c]) | bit(b->king_sq[c]);
        ei.king_units[c] = ei.king_attackers[c] = 0;
        for (t = 0; t < TERM_NB; t++)
            ei.score[t][c] = 0;
    }
    for (c = WHITE; c <= BLACK; c++) {
        eval_material(&ei, c);
        eval_pawns(&ei, c);
        eval_pieces(&ei, c);
    }
    for (c = WHITE; c <= BLACK; c++) {
        eval_king(&ei, c);
        eval_passed(&ei, c);
        eval_threats(&ei, c);
        eval_mating(&ei, c);
    }
    ei.score[TERM_TEMPO][b->side] = TEMPO;
    for (c = WHITE; c <= BLACK; c++)
        if (ei.score[TERM_MATING][c]) {
            /* against a bare king only the material and the mating pattern count */
            int mating = ei.score[TERM_MATING][c] + S(0, non_pawn_material(b, c));
            for (t = 0; t < TERM_NB; t++)
                ei.score[t][WHITE] = ei.score[t][BLACK] = 0;
            ei.score[TERM_MATING][c] = mating;
            break;
        }
    for (t = 0; t < TERM_NB; t++) {
        mg += mg_of(ei.score[t][WHITE]) - mg_of(ei.score[t][BLACK]);
        eg += eg_of(ei.score[t][WHITE]) - eg_of(ei.score[t][BLACK]);
    }
    for (type = KNIGHT; type <= QUEEN; type++)
        phase += PHASE_WEIGHT[type] * bit_count(b->pieces[make_piece(WHITE, type)] | b->pieces[make_piece(BLACK, type)]);
    if (phase > PHASE_MAX)
        phase = PHASE_MAX;
    scale = endgame_scale(b, eg > 0 ? WHITE : BLACK);
    score = (mg * phase + eg * (PHASE_MAX - phase) * scale / SCALE_NORMAL) / PHASE_MAX;
    /* fade toward a draw as the fifty-move clock runs, so that progress pays */
    score = score * (200 - (b->halfmove < 100 ? b->halfmove : 100)) / 200;

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
