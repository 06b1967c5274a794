/* movement.h: the rules of chess on an 8x8 mailbox board.
 * Board and Move types, FEN in/out, legal move generation, make/unmake, attack tests,
 * SAN print/parse, perft and the game's status (mate, draws by rule). Knows nothing of
 * search or evaluation. */
#ifndef MOVEMENT_H
#define MOVEMENT_H

#include <assert.h>
#include <stddef.h>
#include <stdint.h>

/* Hot functions marked HOT_CLONES are built twice where the compiler can pick a build as the
 * program loads (GCC or Clang on x86-64 Linux, with glibc's ifunc): for processors of the
 * x86-64-v3 level (popcount; AVX2 for the network's layers) and for any; calls between them
 * stay within one build. Static functions only: Clang wants the mark on every declaration.
 * ENGINE_NO_CLONES builds one: ThreadSanitizer's runtime is not ready when the loader picks. */
#if defined(__GNUC__) && defined(__x86_64__) && defined(__linux__) && defined(__GLIBC__) && !defined(ENGINE_NO_CLONES)
#define HOT_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define HOT_CLONES
#endif

enum { WHITE, BLACK };
enum { EMPTY, PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING };
enum { PIECE_NB = 16, COLOR_SHIFT = 3, TYPE_MASK = 7 };
enum { NO_SQUARE = -1 };
/* Castling rights: bit 2 * colour + (1 for the queen side), so that CASTLE_WK is right 0. */
enum { CASTLE_WK = 1, CASTLE_WQ = 2, CASTLE_BK = 4, CASTLE_BQ = 8, CASTLE_RIGHTS = 4 };
enum { MAX_MOVES = 256, FEN_MAX = 100, SAN_MAX = 12 };

/* A move: from (6 bits) | to (6 bits) | promotion type (3 bits) | kind (2 bits). A castling
 * goes from the king's square to its destination (g- or c-file), as in standard chess; in
 * Chess960 the king may already stand there (from == to), and its kind keeps it off MOVE_NONE. */
typedef uint32_t Move;
enum { MOVE_NONE = 0 };
enum { KIND_NORMAL, KIND_CASTLE, KIND_EN_PASSANT, KIND_PROMOTION };

typedef struct {
    uint8_t squares[64];    /* piece codes, a1 = 0 ... h8 = 63 */
    uint64_t pieces[PIECE_NB]; /* squares of each piece code, kept as piece lists */
    uint64_t occupied[2];   /* squares of each colour */
    int side;               /* WHITE or BLACK to move */
    int castling;           /* CASTLE_* bits */
    int ep_square;          /* en passant target square or NO_SQUARE */
    int halfmove;           /* plies since the last capture or pawn move */
    int fullmove;
    int king_sq[2];
    uint64_t key;           /* Zobrist key, kept incrementally */
    /* Castling, fixed for a game (the rights above say which castlings are still allowed). */
    int chess960;           /* 1 for Chess960: read so (board_from_fen_960), or castling not standard */
    int8_t castle_rook[CASTLE_RIGHTS];     /* the rook of each right, or NO_SQUARE */
    uint8_t castle_keep[64];               /* the rights that survive a move from or to sq */
    uint64_t castle_empty[CASTLE_RIGHTS];  /* what must be empty: the king's and rook's paths */
    uint64_t castle_safe[CASTLE_RIGHTS];   /* what must not be attacked, the rook taken off */
} Board;

typedef struct {
    int captured;
    int castling;
    int ep_square;
    int halfmove;
    uint64_t key;
} Undo;

typedef struct {
    Move moves[MAX_MOVES];
    int count;
} MoveList;

/* What move_from_text() found. */
typedef enum { PARSE_OK, PARSE_MALFORMED, PARSE_ILLEGAL, PARSE_AMBIGUOUS } ParseResult;

/* Which moves a generator returns: all; the noisy ones (captures and promotions; every move
 * when in check); or the quiet ones, the rest (none when in check). */
typedef enum { GEN_ALL, GEN_NOISY, GEN_QUIET } GenKind;

static inline int make_piece(int color, int type) { return type | (color << COLOR_SHIFT); }
static inline int piece_type(int piece) { return piece & TYPE_MASK; }
static inline int piece_color(int piece) { return piece >> COLOR_SHIFT; }
static inline int square_file(int sq) { return sq & 7; }
static inline int square_rank(int sq) { return sq >> 3; }
static inline int make_square(int file, int rank) { return rank * 8 + file; }
/* Flips a square vertically (a1 <-> a8). */
static inline int square_flip(int sq) { return sq ^ 56; }
/* 1 if color has a piece besides its pawns and its king. */
static inline int board_has_pieces(const Board *b, int color)
{
    return (b->occupied[color] & ~b->pieces[make_piece(color, PAWN)] & ~b->pieces[make_piece(color, KING)]) != 0;
}

static inline Move make_move(int from, int to, int promo, int kind)
{
    return (Move)(from | (to << 6) | (promo << 12) | (kind << 15));
}
static inline int move_from(Move m) { return (int)(m & 63); }
static inline int move_to(Move m) { return (int)((m >> 6) & 63); }
static inline int move_promo(Move m) { return (int)((m >> 12) & 7); }
static inline int move_kind(Move m) { return (int)((m >> 15) & 3); }

/* Index of the lowest set bit of a non-empty set. */
static inline int bit_first(uint64_t set)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(set);
#else
    /* De Bruijn multiplication (Leiserson, Prokop, Randall 1998), portable C99. */
    static const int index64[64] = {
        0, 1, 48, 2, 57, 49, 28, 3, 61, 58, 50, 42, 38, 29, 17, 4,
        62, 55, 59, 36, 53, 51, 43, 22, 45, 39, 33, 30, 24, 18, 12, 5,
        63, 47, 56, 27, 60, 41, 37, 16, 54, 35, 52, 21, 44, 32, 23, 11,
        46, 26, 40, 15, 34, 20, 31, 10, 25, 14, 19, 9, 13, 8, 7, 6 };
    return index64[((set & (0 - set)) * UINT64_C(0x03f79d71b4cb0a89)) >> 58];
#endif
}

/* Number of set bits (SWAR: a few instructions, no library call). */
static inline int bit_count(uint64_t set)
{
    set = set - ((set >> 1) & UINT64_C(0x5555555555555555));
    set = (set & UINT64_C(0x3333333333333333)) + ((set >> 2) & UINT64_C(0x3333333333333333));
    set = (set + (set >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
    return (int)((set * UINT64_C(0x0101010101010101)) >> 56);
}

/* ---------------------------------------------------------------- attacks
 * Inline here, so that the evaluation's many calls cost no more than movement.c's own. The
 * tables are movement.c's, filled before the first board exists, and read-only elsewhere. */

/* Ray directions: 0-3 orthogonal (rook), 4-7 diagonal (bishop). N, E, NE and NW run
 * to higher square numbers, S, W, SE and SW to lower ones. */
enum { DIR_N, DIR_S, DIR_E, DIR_W, DIR_NE, DIR_NW, DIR_SE, DIR_SW, DIR_NB };
extern uint64_t knight_set[64];
extern uint64_t king_set[64];
extern uint64_t pawn_attackers[2][64];  /* squares from which a pawn of colour c attacks sq */
extern uint64_t ray_set[64][DIR_NB];    /* squares along direction d from sq, to the edge */

/* Index of the highest set bit of a non-empty set. */
static inline int bit_last(uint64_t set)
{
#if defined(__GNUC__) || defined(__clang__)
    return 63 ^ __builtin_clzll(set);
#else
    /* the set smeared down to bit 0 holds the highest bit's index plus one bits, portable C99 */
    set |= set >> 1;
    set |= set >> 2;
    set |= set >> 4;
    set |= set >> 8;
    set |= set >> 16;
    set |= set >> 32;
    return bit_count(set) - 1;
#endif
}

/* Returns the squares a slider on sq attacks along one line, given the line's rays from sq
 * to lower squares (`down`) and to higher ones (`up`) and the occupied squares occ.
 * Obstruction difference (Michael Hoffmann, chessprogramming.org/Obstruction_Difference):
 * subtracting the nearest blocker below from the blockers above borrows through every
 * square up to the nearest blocker above; a1 stands in below when nothing is there. */
static inline uint64_t line_attacks(uint64_t down, uint64_t up, uint64_t occ)
{
    uint64_t above = up & occ, below = (uint64_t)1 << bit_last((down & occ) | 1);
    return (down | up) & (above ^ (above - below));
}

/* Returns the squares a rook on sq attacks, given the occupied squares occ. */
static inline uint64_t rook_attacks(int sq, uint64_t occ)
{
    return line_attacks(ray_set[sq][DIR_S], ray_set[sq][DIR_N], occ)
         | line_attacks(ray_set[sq][DIR_W], ray_set[sq][DIR_E], occ);
}

/* Returns the squares a bishop on sq attacks, given the occupied squares occ. */
static inline uint64_t bishop_attacks(int sq, uint64_t occ)
{
    return line_attacks(ray_set[sq][DIR_SW], ray_set[sq][DIR_NE], occ)
         | line_attacks(ray_set[sq][DIR_SE], ray_set[sq][DIR_NW], occ);
}

/* Returns the squares a piece of this type and colour on sq attacks, sliders stopping at
 * the squares of occ. */
static inline uint64_t attacks_from(int type, int color, int sq, uint64_t occ)
{
    switch (type) {
    case PAWN:
        /* the squares attacked from sq are those from which the other colour's pawn would be attacked */
        return pawn_attackers[!color][sq];
    case KNIGHT:
        return knight_set[sq];
    case KING:
        return king_set[sq];
    case BISHOP:
        return bishop_attacks(sq, occ);
    case ROOK:
        return rook_attacks(sq, occ);
    default:
        return rook_attacks(sq, occ) | bishop_attacks(sq, occ);
    }
}

/* Returns the squares a piece of this type and colour on sq attacks, given b's occupancy. */
static inline uint64_t piece_attacks(const Board *b, int type, int color, int sq)
{
    return attacks_from(type, color, sq, b->occupied[WHITE] | b->occupied[BLACK]);
}

/* Returns the squares a bishop, rook or queen (type) on sq attacks given the occupied squares. */
static inline uint64_t slider_attacks(int type, int sq, uint64_t occupied)
{
    assert(type == BISHOP || type == ROOK || type == QUEEN);
    return attacks_from(type, WHITE, sq, occupied);
}

/* Parses FEN into b. Returns 1, or 0 with a one-line reason in err. The castling field is
 * KQkq, the rooks in the corners and the king on e1/e8, or Shredder-FEN's and X-FEN's file
 * letters (HAha), or X-FEN's KQkq where they cannot be standard (the outermost rook on that
 * side of a king off the e-file); the board is Chess960 if a right is not standard. */
int board_from_fen(Board *b, const char *fen, char *err, size_t err_size);
/* As board_from_fen; with chess960 set (UCI_Chess960), the board is Chess960 and KQkq name
 * the outermost rook on that side of the king (X-FEN). */
int board_from_fen_960(Board *b, const char *fen, int chess960, char *err, size_t err_size);
/* Writes b as FEN (at least FEN_MAX bytes), castling as X-FEN: KQkq for the outermost rook,
 * else the rook's file (so that a standard position's FEN is the usual one); the file too for
 * a rook off the corner beside a king on the e-file, so that what is written reads back, as
 * standard (board_from_fen), to the same position. */
void board_to_fen(const Board *b, char *out);
/* The start position's FEN. */
#define START_FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
/* Fills b with the start position. */
void board_start(Board *b);
/* Writes the colour-flipped mirror image of b into out (same position, sides swapped). */
void board_mirror(const Board *b, Board *out);
/* Returns 1 if every redundant field of b agrees with the squares. */
int board_is_ok(const Board *b);
/* Recomputes the Zobrist key from scratch. */
uint64_t board_compute_key(const Board *b);
/* Returns the key b will have after m, for fetching its table entry early: exact for a move
 * that is neither castling, en passant, a promotion nor a double push; for those, a near guess
 * (board_make's key is the true one). */
uint64_t board_key_after(const Board *b, Move m);

/* Returns every piece of either colour in `occupied` that attacks sq, sliders seeing
 * through the squares missing from `occupied` (for exchange evaluation). */
uint64_t attackers_to(const Board *b, int sq, uint64_t occupied);
/* Returns 1 if `by` attacks sq. */
int square_attacked(const Board *b, int sq, int by);
/* Returns 1 if the side to move is in check. */
int board_in_check(const Board *b);
/* Fills the rules' tables (attacks, Zobrist keys): called once, before any other function
 * of this file (board_from_fen asserts it) and before any thread starts. */
void movement_init(void);
/* Generates the legal moves of the side to move; returns their number. */
int gen_legal(Board *b, MoveList *list, GenKind kind);
/* Returns 1 if m is a legal move in b (any 32-bit value, e.g. from a hash table, is safe). */
int move_is_legal(Board *b, Move m);
/* For the side to move: the squares from which a piece of each type (PAWN ... KING) would
 * attack the other king, as the board stands, and its pieces that alone stand between
 * one of its sliders and that king (moved off the line, they uncover a check). */
typedef struct {
    uint64_t direct[KING + 1];
    uint64_t discoverers;
} CheckSquares;
/* Fills cs for b's side to move. */
void check_squares(const Board *b, CheckSquares *cs);
/* Returns 1 if the legal move m gives check; cs is b's (check_squares), so that a node asks
 * the question of many moves for the price of a table lookup each. */
int move_checks(Board *b, const CheckSquares *cs, Move m);
/* Returns 1 if m captures something (en passant included; never a castling, also a Chess960
 * one onto its own rook's square). Inline here: the search asks it of every move. */
static inline int move_is_capture(const Board *b, Move m)
{
    return move_kind(m) == KIND_EN_PASSANT || (b->squares[move_to(m)] != EMPTY && move_kind(m) != KIND_CASTLE);
}
/* Returns 1 if m is quiet: neither a capture nor a promotion. */
static inline int move_is_quiet(const Board *b, Move m)
{
    return !move_is_capture(b, m) && move_kind(m) != KIND_PROMOTION;
}
/* Gives the squares the rook of castling m (legal in b, or just made or unmade) goes from and to. */
void castle_rook_squares(const Board *b, Move m, int *from, int *to);

void board_make(Board *b, Move m, Undo *u);
void board_unmake(Board *b, Move m, const Undo *u);
void board_make_null(Board *b, Undo *u);
void board_unmake_null(Board *b, const Undo *u);

/* Writes m (legal in b) in standard algebraic notation, with + and #. */
void move_to_san(Board *b, Move m, char *out);
/* Writes m in coordinate notation (e2e4, e7e8q), a castling as the king's move (e1g1), which
 * in Chess960 may read as a king's move or name no move (g1g1): there, use move_to_coords. */
void move_to_uci(Move m, char *out);
/* Writes m (legal in b) as move_to_uci does, a castling as the king taking its own rook
 * (e1h1, b1a1) when king_takes_rook is set, as UCI_Chess960 wants. */
void move_to_coords(const Board *b, Move m, int king_takes_rook, char *out);
/* Parses SAN (tolerant: no check marks, 0-0, e8Q, exd6e.p., Ng1f3) or coordinates, castling
 * also as the king taking its own rook (e1h1); coordinates that a king's move and a Chess960
 * castling share (b1c1) name the king's move. */
ParseResult move_from_text(Board *b, const char *text, Move *out);

/* Counts the leaf nodes of the legal move tree to depth. */
uint64_t perft(Board *b, int depth);

/* The squares of a1's colour (a1, c1, ..., b2, ...). */
#define DARK_SQUARES UINT64_C(0xaa55aa55aa55aa55)

/* A draw by the fifty-move rule once this many plies have passed without a capture or pawn move. */
enum { FIFTY_MOVE_PLIES = 100 };

/* How a game stands by the rules: play goes on, or how it has ended. */
typedef enum {
    STATUS_PLAY, STATUS_CHECKMATE, STATUS_STALEMATE, STATUS_INSUFFICIENT_MATERIAL,
    STATUS_REPETITION, STATUS_FIFTY_MOVES
} GameStatus;

/* Returns 1 if neither side can possibly mate (K v K, K+minor v K, bishops all on one colour). */
int board_insufficient_material(const Board *b);
/* Returns 1 if b's position stood at least `times` times before in keys, the Zobrist keys of
 * the game's positions in order, b's own last (key_count of them); only the positions since
 * the last capture or pawn move, with the same side to move, are looked at. */
int board_repeated(const Board *b, const uint64_t *keys, int key_count, int times);
/* Returns 1 if the game is drawn by rule whatever comes next: the fifty-move rule, insufficient
 * material, or the position repeated `times` times before (board_repeated). */
int board_drawn_by_rule(const Board *b, const uint64_t *keys, int key_count, int times);
/* Returns how the game stands, the first that holds of: checkmate, stalemate, insufficient
 * material, threefold repetition over keys (as board_repeated; keys may be NULL when the
 * history is unknown), the fifty-move rule, play. */
GameStatus board_status(Board *b, const uint64_t *keys, int key_count);
/* Returns a status's name: "checkmate", "threefold repetition", "fifty-move rule", ... */
const char *game_status_name(GameStatus status);

/* The smaller and the larger of two ints, and value kept within [low, high] (low <= high): the
 * one min, max and clamp of every layer. */
static inline int int_min(int a, int b)
{
    return a < b ? a : b;
}

static inline int int_max(int a, int b)
{
    return a > b ? a : b;
}

static inline int int_clamp(int value, int low, int high)
{
    assert(low <= high);
    return value < low ? low : value > high ? high : value;
}

/* The one pseudo-random generator, here at the bottom of the layers so that every layer above
 * shares it: the rules' Zobrist keys, the engine's choice of a level's move, the front ends'
 * draws (datagen, the match's random mover) and the tools' (tune, train). xorshift64*
 * (Sebastiano Vigna, "An experimental exploration of Marsaglia's xorshift generators,
 * scrambled", 2016): the same numbers on every platform. A state is never 0, which would stay
 * 0: random_seed makes a state from any number. */
uint64_t random_seed(uint64_t seed);
/* Returns the next number of the generator whose state is *state. */
uint64_t random_next(uint64_t *state);

#endif
