/* movement.c: the rules. Board set-up from FEN, legal move generation with
 * pins and checks computed up front, make/unmake with an incremental Zobrist key,
 * SAN in and out, perft, and the game's status (checkmate, stalemate, draws by rule). The board is an 8x8 mailbox beside per-piece square sets;
 * slider attacks come from those sets, 5 KB of ray and line masks and a bit scan or two. */
#include "movement.h"

#include <assert.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* prototypes */
static inline void check_board(const Board *b);
static int castling_is_ok(const Board *b);
static void put_piece(Board *b, int piece, int sq);
static void remove_piece(Board *b, int sq);
static void move_piece(Board *b, int from, int to);
static inline uint64_t all_pieces(const Board *b);
static inline int pop_last(uint64_t *set);
static inline uint64_t ray_up(int sq, int d, uint64_t occ);
static inline uint64_t ray_down(int sq, int d, uint64_t occ);
static inline uint64_t ray_attacks(int sq, int d, uint64_t occ);
static int attacked_through(const Board *b, int sq, int by, uint64_t occ);
static int parse_placement(Board *b, const char *s, char *err, size_t err_size);
static int castle_king_to(int right);
static inline uint64_t rank_span(int a, int b);
static int castling_is_standard(const Board *b, int right);
static void castle_setup(Board *b, int chess960);
static int castle_right_of(const Board *b, int c, int xfen, int *right, int *rook);
static int parse_castling(Board *b, const char *s, int chess960, char *err, size_t err_size);
static int parse_ep(Board *b, const char *s, char *err, size_t err_size);
static int parse_counter(const char *s, int min, int *out);
static int check_material(const Board *b, char *err, size_t err_size);
static void drop_unsupported_castling(Board *b, int xfen);
static int castling_fits(const Board *b, int right, int rook);
static char castle_letter(const Board *b, int right);
static char *write_count(char *p, int n);
static int ep_capture_possible(const Board *b, int ep, int side);
static void add_move(MoveList *l, int from, int to, int promo, int kind);
static void add_pawn_move(MoveList *l, int from, int to);
static int ep_is_legal(const Board *b, Move m);
static int pawn_move_fits(const Board *b, Move m, int from, int to);
static void gen_pawns(Board *b, MoveList *l, GenKind kind, uint64_t target, const uint64_t *pin_ray, uint64_t pinned);
static inline void add_ray_moves(MoveList *l, int from, uint64_t to, int d);
static void gen_pieces(const Board *b, MoveList *l, uint64_t target, const uint64_t *pin_ray, uint64_t pinned);
static uint64_t gen_target(const Board *b, GenKind kind);
static void gen_king(const Board *b, MoveList *l, GenKind kind);
static void gen_castling(Board *b, MoveList *l);
static void add_castling(const Board *b, MoveList *l, int right, uint64_t occ);
static void castle_move(Board *b, Move m, int undo);
static uint64_t snipers_of(const Board *b, int color, int sq);
static int find_checks_and_pins(const Board *b, uint64_t *block, uint64_t *pinned, uint64_t *pin_ray);
HOT_CLONES static int count_pawn_moves(Board *b, uint64_t target, const uint64_t *pin_ray, uint64_t pinned);
HOT_CLONES static int count_piece_moves(const Board *b, uint64_t target, const uint64_t *pin_ray, uint64_t pinned);
HOT_CLONES static int count_legal(Board *b);
static int san_piece_letter(int type);
static void normalize_token(const char *text, char *out, size_t size);
static ParseResult parse_coordinate(Board *b, const char *t, Move *out);
static ParseResult parse_san(Board *b, const char *t, Move *out);
static int letter_type(int c);

/* Files and ranks as square sets. */
#define FILE_A UINT64_C(0x0101010101010101)
#define FILE_H (FILE_A << 7)
#define RANK_1 UINT64_C(0xff)
#define RANK_3 (RANK_1 << 16)
#define RANK_6 (RANK_1 << 40)
#define RANK_8 (RANK_1 << 56)

static const int DIR_FILE[DIR_NB] = { 0, 0, 1, -1, 1, -1, 1, -1 };
static const int DIR_RANK[DIR_NB] = { 1, -1, 0, 0, 1, 1, -1, -1 };
static const int DIR_UP[DIR_NB] = { 1, 0, 1, 0, 1, 1, 0, 0 }; /* runs to higher squares */

static int8_t knight_to[64][9];         /* target lists, ended by -1 */
static int8_t king_to[64][9];
uint64_t knight_set[64];                /* these four: movement.h's attacks read them */
uint64_t king_set[64];
uint64_t pawn_attackers[2][64];
uint64_t ray_set[64][DIR_NB];
static uint64_t rook_lines[64];         /* rook attacks from sq on an empty board */
static uint64_t bishop_lines[64];       /* the same for a bishop */

static uint64_t zobrist_piece[PIECE_NB][64];
static uint64_t zobrist_castle[16];
static uint64_t zobrist_ep[8];
static uint64_t zobrist_side;
/* The generator's state the keys are drawn from, in a fixed order (movement_init): the keys
 * are the same in every build, and a table file written by one serves another. */
#define ZOBRIST_STATE UINT64_C(0x9E3779B97F4A7C15)
static int tables_ready;

static const char PIECE_CHARS[] = ".PNBRQK..pnbrqk";

static inline uint64_t bit(int sq) { return (uint64_t)1 << sq; }

/* Returns the occupied squares of both colours. */
static inline uint64_t all_pieces(const Board *b) { return b->occupied[WHITE] | b->occupied[BLACK]; }

static inline int pop_first(uint64_t *set)
{
    int sq = bit_first(*set);
    *set &= *set - 1;
    return sq;
}

/* Removes the highest square from a non-empty set and returns it. */
static inline int pop_last(uint64_t *set)
{
    int sq = bit_last(*set);
    *set ^= bit(sq);
    return sq;
}

/* A state from any seed: the seed times 2^64 over the golden ratio, plus the generator's
 * multiplier; 1 in the one case where that is 0. */
uint64_t random_seed(uint64_t seed)
{
    uint64_t state = seed * UINT64_C(0x9E3779B97F4A7C15) + UINT64_C(0x2545F4914F6CDD1D);
    return state ? state : 1;
}

uint64_t random_next(uint64_t *state)
{
    assert(*state != 0);
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return *state * UINT64_C(0x2545F4914F6CDD1D);
}

/* Fills the geometry and Zobrist tables (again, it does nothing). */
void movement_init(void)
{
    static const int KN_F[8] = { 1, 2, 2, 1, -1, -2, -2, -1 };
    static const int KN_R[8] = { 2, 1, -1, -2, -2, -1, 1, 2 };
    uint64_t zobrist_state = ZOBRIST_STATE;
    int sq, d, i, p;

    if (tables_ready)
        return;
    for (sq = 0; sq < 64; sq++) {
        int f = square_file(sq), r = square_rank(sq), nk = 0, nn = 0;
        for (d = 0; d < DIR_NB; d++) {
            int tf = f + DIR_FILE[d], tr = r + DIR_RANK[d];
            if (tf >= 0 && tf < 8 && tr >= 0 && tr < 8) {
                king_to[sq][nk++] = (int8_t)make_square(tf, tr);
                king_set[sq] |= bit(make_square(tf, tr));
            }
            for (; tf >= 0 && tf < 8 && tr >= 0 && tr < 8; tf += DIR_FILE[d], tr += DIR_RANK[d])
                ray_set[sq][d] |= bit(make_square(tf, tr));
            if (d < DIR_NE)
                rook_lines[sq] |= ray_set[sq][d];
            else
                bishop_lines[sq] |= ray_set[sq][d];
        }
        for (i = 0; i < 8; i++) {
            int tf = f + KN_F[i], tr = r + KN_R[i];
            if (tf >= 0 && tf < 8 && tr >= 0 && tr < 8) {
                knight_to[sq][nn++] = (int8_t)make_square(tf, tr);
                knight_set[sq] |= bit(make_square(tf, tr));
            }
        }
        king_to[sq][nk] = -1;
        knight_to[sq][nn] = -1;
        /* a white pawn attacks sq from one rank below, a black pawn from one above */
        if (r > 0 && f > 0) pawn_attackers[WHITE][sq] |= bit(sq - 9);
        if (r > 0 && f < 7) pawn_attackers[WHITE][sq] |= bit(sq - 7);
        if (r < 7 && f > 0) pawn_attackers[BLACK][sq] |= bit(sq + 7);
        if (r < 7 && f < 7) pawn_attackers[BLACK][sq] |= bit(sq + 9);
    }

    for (p = 0; p < PIECE_NB; p++)
        for (sq = 0; sq < 64; sq++)
            zobrist_piece[p][sq] = random_next(&zobrist_state);
    for (i = 0; i < 16; i++)
        zobrist_castle[i] = i == 0 ? 0 : random_next(&zobrist_state);
    for (i = 0; i < 8; i++)
        zobrist_ep[i] = random_next(&zobrist_state);
    zobrist_side = random_next(&zobrist_state);
    tables_ready = 1;
}

/* ------------------------------------------------------------------ board */

static void put_piece(Board *b, int piece, int sq)
{
    assert(b->squares[sq] == EMPTY);
    b->squares[sq] = (uint8_t)piece;
    b->pieces[piece] |= bit(sq);
    b->occupied[piece_color(piece)] |= bit(sq);
    b->key ^= zobrist_piece[piece][sq];
}

static void remove_piece(Board *b, int sq)
{
    int piece = b->squares[sq];
    assert(piece != EMPTY);
    b->squares[sq] = EMPTY;
    b->pieces[piece] &= ~bit(sq);
    b->occupied[piece_color(piece)] &= ~bit(sq);
    b->key ^= zobrist_piece[piece][sq];
}

static void move_piece(Board *b, int from, int to)
{
    int piece = b->squares[from];
    uint64_t both = bit(from) | bit(to);
    assert(piece != EMPTY && b->squares[to] == EMPTY);
    b->squares[from] = EMPTY;
    b->squares[to] = (uint8_t)piece;
    b->pieces[piece] ^= both;
    b->occupied[piece_color(piece)] ^= both;
    b->key ^= zobrist_piece[piece][from] ^ zobrist_piece[piece][to];
}

uint64_t board_compute_key(const Board *b)
{
    uint64_t key = 0;
    int sq;
    for (sq = 0; sq < 64; sq++)
        if (b->squares[sq] != EMPTY)
            key ^= zobrist_piece[b->squares[sq]][sq];
    key ^= zobrist_castle[b->castling];
    if (b->ep_square != NO_SQUARE)
        key ^= zobrist_ep[square_file(b->ep_square)];
    if (b->side == BLACK)
        key ^= zobrist_side;
    return key;
}

/* Asserts board_is_ok after make and unmake. It recomputes the whole board, which slows the
 * search twentyfold, so only debug builds (ENGINE_DEBUG, set by `make debug`) run it: a plain
 * `cc -O2` build without -DNDEBUG stays a release build. */
static inline void check_board(const Board *b)
{
#ifdef ENGINE_DEBUG
    assert(board_is_ok(b));
#else
    (void)b;
#endif
}

int board_is_ok(const Board *b)
{
    uint64_t occ[2] = { 0, 0 };
    int sq, p;
    if (b->side != WHITE && b->side != BLACK)
        return 0;
    for (p = 0; p < PIECE_NB; p++) {
        uint64_t set = 0;
        for (sq = 0; sq < 64; sq++)
            if (b->squares[sq] == p && p != EMPTY)
                set |= bit(sq);
        if (set != (p == EMPTY ? 0 : b->pieces[p]) && p != EMPTY)
            return 0;
        if (p != EMPTY && set)
            occ[piece_color(p)] |= set;
    }
    if (occ[WHITE] != b->occupied[WHITE] || occ[BLACK] != b->occupied[BLACK])
        return 0;
    if (b->squares[b->king_sq[WHITE]] != make_piece(WHITE, KING)
        || b->squares[b->king_sq[BLACK]] != make_piece(BLACK, KING))
        return 0;
    if (bit_count(b->pieces[make_piece(WHITE, KING)]) != 1
        || bit_count(b->pieces[make_piece(BLACK, KING)]) != 1)
        return 0;
    return castling_is_ok(b) && b->key == board_compute_key(b);
}

/* Returns 1 if each castling right has its king and rook on their first rank, the rook on the
 * right's side, and castle_setup's masks agree (a right not standard only on a Chess960 board). */
static int castling_is_ok(const Board *b)
{
    Board fresh = *b;
    int right, sq;
    if ((b->castling & ~15) || (b->chess960 != 0 && b->chess960 != 1))
        return 0;
    castle_setup(&fresh, b->chess960);
    if (fresh.chess960 != b->chess960)
        return 0;
    for (right = 0; right < CASTLE_RIGHTS; right++) {
        int color = right >> 1, king = b->king_sq[color], rook = b->castle_rook[right];
        if (!(b->castling & (1 << right)))
            continue;
        if (rook < 0 || rook > 63 || b->squares[rook] != make_piece(color, ROOK)
            || square_rank(king) != (color == WHITE ? 0 : 7) || square_rank(rook) != square_rank(king)
            || (right & 1) != (square_file(rook) < square_file(king))
            || fresh.castle_empty[right] != b->castle_empty[right] || fresh.castle_safe[right] != b->castle_safe[right])
            return 0;
    }
    for (sq = 0; sq < 64; sq++)
        if ((fresh.castle_keep[sq] ^ b->castle_keep[sq]) & b->castling)
            return 0;
    return 1;
}

void board_start(Board *b)
{
    char err[80];
    int ok = board_from_fen(b, START_FEN, err, sizeof err);
    assert(ok);
    (void)ok;
}

void board_mirror(const Board *b, Board *out)
{
    int sq, right;
    assert(tables_ready);
    memset(out, 0, sizeof *out);
    for (sq = 0; sq < 64; sq++) {
        int p = b->squares[sq];
        if (p != EMPTY)
            put_piece(out, make_piece(!piece_color(p), piece_type(p)), square_flip(sq));
    }
    out->side = !b->side;
    out->castling = ((b->castling & 3) << 2) | ((b->castling >> 2) & 3);
    out->ep_square = b->ep_square == NO_SQUARE ? NO_SQUARE : square_flip(b->ep_square);
    out->halfmove = b->halfmove;
    out->fullmove = b->fullmove;
    out->king_sq[WHITE] = square_flip(b->king_sq[BLACK]);
    out->king_sq[BLACK] = square_flip(b->king_sq[WHITE]);
    /* right ^ 2: the same side's right of the other colour */
    for (right = 0; right < CASTLE_RIGHTS; right++)
        out->castle_rook[right] = (int8_t)(b->castle_rook[right ^ 2] == NO_SQUARE ? NO_SQUARE : square_flip(b->castle_rook[right ^ 2]));
    castle_setup(out, b->chess960);
    out->key = board_compute_key(out);
}

/* --------------------------------------------------------------- castling
 * Right i (bit i of castling: 2 * colour, plus 1 on the queen side) castles the king, on its
 * first rank, with the rook on castle_rook[i]. The king goes to the g- or c-file and the rook
 * beside it on the inner side (f or d), as in chess; in Chess960 they start anywhere on that
 * rank, and either may already stand on its destination (FIDE Laws, Chess960 rules). */

/* Returns the square the king goes to when castling by right. */
static int castle_king_to(int right)
{
    return make_square(right & 1 ? 2 : 6, right >> 1 == WHITE ? 0 : 7);
}

/* Returns the squares of one rank from a to b, both included. */
static inline uint64_t rank_span(int a, int b)
{
    int low = int_min(a, b), high = int_max(a, b);
    return (bit(high) - bit(low)) | bit(high);
}

/* Returns 1 if right's king stands on the e-file and its rook in the corner, as in chess. */
static int castling_is_standard(const Board *b, int right)
{
    return square_file(b->king_sq[right >> 1]) == 4 && square_file(b->castle_rook[right]) == (right & 1 ? 0 : 7);
}

/* Fills castling's masks from the rights, their rooks and the kings: the rights a move from or
 * to each square keeps, the squares that must be empty (the king's and the rook's paths, but
 * for themselves) and those the king passes, which must not be attacked. The board is Chess960
 * if chess960 says so or a right is not standard. */
static void castle_setup(Board *b, int chess960)
{
    int right, sq;
    for (sq = 0; sq < 64; sq++)
        b->castle_keep[sq] = 15;
    b->chess960 = chess960;
    for (right = 0; right < CASTLE_RIGHTS; right++) {
        int king = b->king_sq[right >> 1], rook = b->castle_rook[right], king_dest = castle_king_to(right);
        int rook_dest = right & 1 ? king_dest + 1 : king_dest - 1;
        b->castle_empty[right] = b->castle_safe[right] = 0;
        if (!(b->castling & (1 << right)))
            continue;
        b->castle_keep[king] &= (uint8_t)~(1 << right);
        b->castle_keep[rook] &= (uint8_t)~(1 << right);
        b->castle_empty[right] = (rank_span(king, king_dest) | rank_span(rook, rook_dest)) & ~bit(king) & ~bit(rook);
        /* the king's own square too when a piece beyond the rook could see it once the rook
         * has gone: the rook must not be shielding its king */
        b->castle_safe[right] = rank_span(king, king_dest) & ~bit(king);
        if (square_file(rook) != 0 && square_file(rook) != 7)
            b->castle_safe[right] |= bit(king);
        b->chess960 |= !castling_is_standard(b, right);
    }
}

void castle_rook_squares(const Board *b, Move m, int *from, int *to)
{
    int king_dest = move_to(m), queenside = square_file(king_dest) == 2;
    assert(move_kind(m) == KIND_CASTLE);
    *from = b->castle_rook[2 * (square_rank(king_dest) != 0) + queenside];
    *to = queenside ? king_dest + 1 : king_dest - 1;
    assert(*from != NO_SQUARE);
}

/* Moves the king and rook of castling m, either perhaps standing still (the rook off first,
 * as the king may go to its square); with undo set, takes them back. */
static void castle_move(Board *b, Move m, int undo)
{
    int king[2], rook[2], piece; /* [0] before the castling, [1] after */
    king[0] = move_from(m);
    king[1] = move_to(m);
    castle_rook_squares(b, m, &rook[0], &rook[1]);
    piece = b->squares[rook[undo]];
    remove_piece(b, rook[undo]);
    if (king[0] != king[1])
        move_piece(b, king[undo], king[!undo]);
    put_piece(b, piece, rook[!undo]);
}

/* ------------------------------------------------------------------- FEN */

static int parse_placement(Board *b, const char *s, char *err, size_t err_size)
{
    int rank = 7, file = 0, prev_digit = 0;
    for (; *s; s++) {
        const char *hit = strchr(PIECE_CHARS, *s);
        if (*s == '/') {
            if (rank == 0) {
                snprintf(err, err_size, "the piece placement has more than 8 ranks");
                return 0;
            }
            if (file != 8) {
                snprintf(err, err_size, "rank %d of the piece placement has %d squares, not 8", rank + 1, file);
                return 0;
            }
            rank--;
            file = 0;
        } else if (*s >= '1' && *s <= '8' && !prev_digit) {
            file += *s - '0';
        } else if (*s >= '1' && *s <= '8') {
            snprintf(err, err_size, "two digits in a row in rank %d of the piece placement", rank + 1);
            return 0;
        } else if (hit && *s != '.' && file < 8) {
            put_piece(b, (int)(hit - PIECE_CHARS), make_square(file, rank));
            file++;
        } else if (hit && *s != '.') {
            file = 9;
        } else {
            snprintf(err, err_size, "unexpected character '%c' in the piece placement", *s);
            return 0;
        }
        prev_digit = *s >= '1' && *s <= '8';
        if (file > 8) {
            snprintf(err, err_size, "rank %d of the piece placement has more than 8 squares", rank + 1);
            return 0;
        }
    }
    if (rank != 0) {
        snprintf(err, err_size, "the piece placement has %d ranks, not 8", 8 - rank);
        return 0;
    }
    if (file != 8) {
        snprintf(err, err_size, "rank 1 of the piece placement has %d squares, not 8", file);
        return 0;
    }
    return 1;
}

/* Finds the right that the castling field's character c names and its rook's square: K, Q,
 * k and q the rook in the corner, or with xfen the outermost rook on that side of the king
 * (X-FEN); a file letter (Shredder-FEN, X-FEN) the rook on that file of the first rank, on
 * the king's side that the file is on. Returns 0 if c names no right. */
static int castle_right_of(const Board *b, int c, int xfen, int *right, int *rook)
{
    int color = islower(c) ? BLACK : WHITE, upper = toupper(c), king_file = square_file(b->king_sq[color]);
    int back = color == WHITE ? 0 : 7, file;
    if (upper == 'K' || upper == 'Q') {
        int step = upper == 'Q' ? 1 : -1;
        *right = 2 * color + (upper == 'Q');
        file = upper == 'Q' ? 0 : 7;
        while (xfen && file != king_file && b->squares[make_square(file, back)] != make_piece(color, ROOK))
            file += step;
        *rook = make_square(file, back);
        return 1;
    }
    if (upper < 'A' || upper > 'H')
        return 0;
    file = upper - 'A';
    *right = 2 * color + (file < king_file);
    *rook = make_square(file, back);
    return 1;
}

/* Reads the castling field: KQkq for the rooks in the corners, a king on e1 or e8; as X-FEN
 * with a file letter in the field, on a Chess960 board, or when a K, Q, k or q names a king
 * off the e-file (a Chess960 position written in X-FEN, as GUIs and our match's PGN write
 * them). Rights without their king or rook are dropped: a king on e1 with no rook in its
 * corner has lost that right, as in standard chess. */
static int parse_castling(Board *b, const char *s, int chess960, char *err, size_t err_size)
{
    int xfen = chess960, right, rook;
    const char *c;
    if (strcmp(s, "-") == 0)
        return 1;
    for (c = s; *c; c++) {
        xfen |= (*c >= 'A' && *c <= 'H') || (*c >= 'a' && *c <= 'h');
        if (castle_right_of(b, (unsigned char)*c, 0, &right, &rook))
            xfen |= square_file(b->king_sq[right >> 1]) != 4;
    }
    for (; *s; s++) {
        if (!castle_right_of(b, (unsigned char)*s, xfen, &right, &rook)) {
            snprintf(err, err_size, "unexpected character '%c' in the castling field", *s);
            return 0;
        }
        if (b->castling & (1 << right)) {
            snprintf(err, err_size, "castling right '%c' given twice", *s);
            return 0;
        }
        b->castling |= 1 << right;
        b->castle_rook[right] = (int8_t)rook;
    }
    drop_unsupported_castling(b, xfen);
    return 1;
}

/* Returns 1 if right can castle the king with the rook on rook: the king on the first rank, the
 * rook on it on the right's side of the king (any file with X-FEN, the corner without). */
static int castling_fits(const Board *b, int right, int rook)
{
    int color = right >> 1, king = b->king_sq[color];
    return square_rank(king) == (color == WHITE ? 0 : 7) && b->squares[rook] == make_piece(color, ROOK)
           && (right & 1 ? square_file(rook) < square_file(king) : square_file(rook) > square_file(king));
}

/* Returns 1 if a pawn of `side` stands next to the pawn that just passed ep. */
static int ep_capture_possible(const Board *b, int ep, int side)
{
    int pusher = side == WHITE ? ep - 8 : ep + 8; /* the pawn that moved two squares */
    int own_pawn = make_piece(side, PAWN);
    int f = square_file(pusher);
    return (f > 0 && b->squares[pusher - 1] == own_pawn)
        || (f < 7 && b->squares[pusher + 1] == own_pawn);
}

static int parse_ep(Board *b, const char *s, char *err, size_t err_size)
{
    int sq, behind, from;
    if (strcmp(s, "-") == 0)
        return 1;
    if (strlen(s) != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8') {
        snprintf(err, err_size, "en passant field '%s' is not '-' or a square", s);
        return 0;
    }
    sq = make_square(s[0] - 'a', s[1] - '1');
    if (square_rank(sq) != (b->side == WHITE ? 5 : 2)) {
        snprintf(err, err_size, "en passant square %s is not on the %s rank", s, b->side == WHITE ? "6th" : "3rd");
        return 0;
    }
    behind = b->side == WHITE ? sq - 8 : sq + 8;
    from = b->side == WHITE ? sq + 8 : sq - 8;
    /* keep it only if the double push happened and a capture is possible, as Stockfish does */
    if (b->squares[behind] == make_piece(!b->side, PAWN) && b->squares[sq] == EMPTY
        && b->squares[from] == EMPTY && ep_capture_possible(b, sq, b->side))
        b->ep_square = sq;
    return 1;
}

/* Parses a non-negative decimal counter of at most 6 digits, at least min. */
static int parse_counter(const char *s, int min, int *out)
{
    int value = 0, n = 0;
    for (; *s; s++, n++) {
        if (!isdigit((unsigned char)*s) || n >= 6)
            return 0;
        value = value * 10 + (*s - '0');
    }
    if (n == 0 || value < min)
        return 0;
    *out = value;
    return 1;
}

/* Rejects piece counts that no game can reach (more than 16 men, 8 pawns, or promotions). */
static int check_material(const Board *b, char *err, size_t err_size)
{
    static const char *NAMES[2] = { "white", "black" };
    int c;
    for (c = WHITE; c <= BLACK; c++) {
        int pawns = bit_count(b->pieces[make_piece(c, PAWN)]);
        int extra = 0, kings = bit_count(b->pieces[make_piece(c, KING)]);
        int n = bit_count(b->pieces[make_piece(c, KNIGHT)]), bi = bit_count(b->pieces[make_piece(c, BISHOP)]);
        int r = bit_count(b->pieces[make_piece(c, ROOK)]), q = bit_count(b->pieces[make_piece(c, QUEEN)]);
        if (kings != 1) {
            snprintf(err, err_size, "%s has %d kings, not 1", NAMES[c], kings);
            return 0;
        }
        if (bit_count(b->occupied[c]) > 16 || pawns > 8) {
            snprintf(err, err_size, "%s has too many pieces (%d men, %d pawns)", NAMES[c], bit_count(b->occupied[c]), pawns);
            return 0;
        }
        extra = int_max(n - 2, 0) + int_max(bi - 2, 0) + int_max(r - 2, 0) + int_max(q - 1, 0);
        if (extra > 8 - pawns) {
            snprintf(err, err_size, "%s has more promoted pieces than missing pawns", NAMES[c]);
            return 0;
        }
    }
    if ((b->pieces[make_piece(WHITE, PAWN)] | b->pieces[make_piece(BLACK, PAWN)]) & UINT64_C(0xff000000000000ff)) {
        snprintf(err, err_size, "a pawn stands on the first or last rank");
        return 0;
    }
    return 1;
}

/* Drops castling rights whose king is not on its first rank (on e1 or e8 unless xfen), or
 * whose rook is not there on the right's side of the king. */
static void drop_unsupported_castling(Board *b, int xfen)
{
    int right;
    for (right = 0; right < CASTLE_RIGHTS; right++) {
        int color = right >> 1, king = b->king_sq[color], rook = b->castle_rook[right];
        if (!(b->castling & (1 << right)))
            continue;
        if (!castling_fits(b, right, rook) || (!xfen && square_file(king) != 4)) {
            b->castling &= ~(1 << right);
            b->castle_rook[right] = NO_SQUARE;
        }
    }
}

/* Returns the castling field's character for right: K, Q, k or q when its rook is the
 * outermost on its side of the king (X-FEN), else the rook's file letter. The letter too when
 * the king stands on the e-file and the rook is not in the corner: a field of K, Q, k and q
 * alone with the kings on the e-file reads as standard chess's, whose K and Q name the corners,
 * and every FEN written must read back as the same position (board_from_fen, chess960 0). */
static char castle_letter(const Board *b, int right)
{
    int color = right >> 1, rook = b->castle_rook[right], step = right & 1 ? -1 : 1, file;
    int corner = right & 1 ? 0 : 7, outermost = 1;
    char c;
    for (file = square_file(rook) + step; file >= 0 && file < 8; file += step)
        outermost &= b->squares[make_square(file, square_rank(rook))] != make_piece(color, ROOK);
    if (outermost && (square_file(rook) == corner || square_file(b->king_sq[color]) != 4))
        c = right & 1 ? 'Q' : 'K';
    else
        c = (char)('A' + square_file(rook));
    return color == WHITE ? c : (char)tolower(c);
}

int board_from_fen(Board *b, const char *fen, char *err, size_t err_size)
{
    return board_from_fen_960(b, fen, 0, err, err_size);
}

int board_from_fen_960(Board *b, const char *fen, int chess960, char *err, size_t err_size)
{
    char buf[256], *field[7];
    int n = 0, sq;
    char *p;

    assert(tables_ready); /* movement_init first */
    memset(b, 0, sizeof *b);
    b->ep_square = NO_SQUARE;
    for (sq = 0; sq < CASTLE_RIGHTS; sq++)
        b->castle_rook[sq] = NO_SQUARE;
    if (strlen(fen) >= sizeof buf) {
        snprintf(err, err_size, "FEN is too long (%u characters)", (unsigned)strlen(fen));
        return 0;
    }
    strcpy(buf, fen);
    for (p = buf; *p;) {
        while (*p == ' ' || *p == '\t')
            *p++ = '\0';
        if (!*p)
            break;
        if (n == 7)
            break;
        field[n++] = p;
        while (*p && *p != ' ' && *p != '\t')
            p++;
    }
    if (n < 4 || n > 6) {
        snprintf(err, err_size, "FEN has %d fields, expected 4 to 6", n);
        return 0;
    }
    if (!parse_placement(b, field[0], err, err_size) || !check_material(b, err, err_size))
        return 0;
    for (sq = 0; sq < 64; sq++)
        if (piece_type(b->squares[sq]) == KING)
            b->king_sq[piece_color(b->squares[sq])] = sq;
    if (strcmp(field[1], "w") != 0 && strcmp(field[1], "b") != 0) {
        snprintf(err, err_size, "side to move '%s' is not 'w' or 'b'", field[1]);
        return 0;
    }
    b->side = field[1][0] == 'w' ? WHITE : BLACK;
    if (!parse_castling(b, field[2], chess960, err, err_size) || !parse_ep(b, field[3], err, err_size))
        return 0;
    castle_setup(b, chess960 != 0);
    b->fullmove = 1;
    if (n >= 5 && !parse_counter(field[4], 0, &b->halfmove)) {
        snprintf(err, err_size, "halfmove clock '%s' is not a number from 0 to 999999", field[4]);
        return 0;
    }
    if (n >= 6 && !parse_counter(field[5], 1, &b->fullmove)) {
        snprintf(err, err_size, "fullmove number '%s' is not a number from 1 to 999999", field[5]);
        return 0;
    }
    if (square_attacked(b, b->king_sq[!b->side], b->side)) {
        snprintf(err, err_size, "the side not to move is in check");
        return 0;
    }
    b->key = board_compute_key(b);
    return 1;
}

void board_to_fen(const Board *b, char *out)
{
    int rank, file, right;
    char *p = out;
    for (rank = 7; rank >= 0; rank--) {
        /* the rank's pieces from its occupied squares, each run of empty ones a digit */
        uint64_t row = all_pieces(b) >> (8 * rank) & 0xff;
        for (file = 0; row; row &= row - 1) {
            int next = bit_first(row);
            if (next > file)
                *p++ = (char)('0' + next - file);
            *p++ = PIECE_CHARS[b->squares[make_square(next, rank)]];
            file = next + 1;
        }
        if (file < 8)
            *p++ = (char)('0' + 8 - file);
        if (rank)
            *p++ = '/';
    }
    *p++ = ' ';
    *p++ = b->side == WHITE ? 'w' : 'b';
    *p++ = ' ';
    if (!b->castling)
        *p++ = '-';
    for (right = 0; right < CASTLE_RIGHTS; right++)
        if (b->castling & (1 << right))
            *p++ = castle_letter(b, right);
    *p++ = ' ';
    if (b->ep_square == NO_SQUARE) {
        *p++ = '-';
    } else {
        *p++ = (char)('a' + square_file(b->ep_square));
        *p++ = (char)('1' + square_rank(b->ep_square));
    }
    *p++ = ' ';
    p = write_count(p, b->halfmove);
    *p++ = ' ';
    *write_count(p, b->fullmove) = '\0';
}

/* Writes n (0 or more) in decimal at p, without a '\0'; returns the end. sprintf's "%d" would
 * do, at several times the cost: a trainer writes a FEN for every position of a file of records. */
static char *write_count(char *p, int n)
{
    char digits[12];
    int count = 0;
    unsigned value = (unsigned)n;
    do
        digits[count++] = (char)('0' + value % 10);
    while ((value /= 10) > 0);
    while (count > 0)
        *p++ = digits[--count];
    return p;
}

/* --------------------------------------------------------------- attacks */

/* Returns the squares of direction d (one running to higher squares) from sq up to and
 * including the first in occ. Classical approach (chessprogramming.org/Classical_Approach):
 * the nearest blocker is the lowest set bit; h8, whose rays that way are empty, stands in
 * when there is none. */
static inline uint64_t ray_up(int sq, int d, uint64_t occ)
{
    return ray_set[sq][d] ^ ray_set[bit_first((ray_set[sq][d] & occ) | bit(63))][d];
}

/* As ray_up for a direction running to lower squares: the nearest blocker is the highest
 * set bit, and a1 stands in when there is none. */
static inline uint64_t ray_down(int sq, int d, uint64_t occ)
{
    return ray_set[sq][d] ^ ray_set[bit_last((ray_set[sq][d] & occ) | bit(0))][d];
}

/* Returns the squares of direction d from sq up to and including the first in occ. */
static inline uint64_t ray_attacks(int sq, int d, uint64_t occ)
{
    return DIR_UP[d] ? ray_up(sq, d, occ) : ray_down(sq, d, occ);
}

uint64_t attackers_to(const Board *b, int sq, uint64_t occupied)
{
    uint64_t queens = b->pieces[make_piece(WHITE, QUEEN)] | b->pieces[make_piece(BLACK, QUEEN)];
    uint64_t rooks = b->pieces[make_piece(WHITE, ROOK)] | b->pieces[make_piece(BLACK, ROOK)] | queens;
    uint64_t bishops = b->pieces[make_piece(WHITE, BISHOP)] | b->pieces[make_piece(BLACK, BISHOP)] | queens;
    uint64_t set = (pawn_attackers[WHITE][sq] & b->pieces[make_piece(WHITE, PAWN)])
                 | (pawn_attackers[BLACK][sq] & b->pieces[make_piece(BLACK, PAWN)])
                 | (knight_set[sq] & (b->pieces[make_piece(WHITE, KNIGHT)] | b->pieces[make_piece(BLACK, KNIGHT)]))
                 | (king_set[sq] & (b->pieces[make_piece(WHITE, KING)] | b->pieces[make_piece(BLACK, KING)]))
                 | (rook_attacks(sq, occupied) & rooks)
                 | (bishop_attacks(sq, occupied) & bishops);
    return set & occupied;
}

/* Returns 1 if `by` attacks sq, its sliders seeing through the squares missing from occ. */
static int attacked_through(const Board *b, int sq, int by, uint64_t occ)
{
    uint64_t queens = b->pieces[make_piece(by, QUEEN)];
    uint64_t rooks = (b->pieces[make_piece(by, ROOK)] | queens) & rook_lines[sq];
    uint64_t bishops = (b->pieces[make_piece(by, BISHOP)] | queens) & bishop_lines[sq];
    if (pawn_attackers[by][sq] & b->pieces[make_piece(by, PAWN)])
        return 1;
    if (knight_set[sq] & b->pieces[make_piece(by, KNIGHT)])
        return 1;
    if (king_set[sq] & b->pieces[make_piece(by, KING)])
        return 1;
    /* only sliders already on one of sq's lines need their attacks worked out */
    return (rooks && (rook_attacks(sq, occ) & rooks))
        || (bishops && (bishop_attacks(sq, occ) & bishops));
}

int square_attacked(const Board *b, int sq, int by)
{
    return attacked_through(b, sq, by, all_pieces(b));
}

int board_in_check(const Board *b)
{
    return square_attacked(b, b->king_sq[b->side], !b->side);
}

/* ------------------------------------------------------- move generation */

static inline void add_move(MoveList *l, int from, int to, int promo, int kind)
{
    assert(l->count < MAX_MOVES);
    l->moves[l->count++] = make_move(from, to, promo, kind);
}

/* Adds a pawn move to `to`, expanded into the four promotions on the last rank. */
static void add_pawn_move(MoveList *l, int from, int to)
{
    int r = square_rank(to);
    if (r == 0 || r == 7) {
        add_move(l, from, to, QUEEN, KIND_PROMOTION);
        add_move(l, from, to, KNIGHT, KIND_PROMOTION);
        add_move(l, from, to, ROOK, KIND_PROMOTION);
        add_move(l, from, to, BISHOP, KIND_PROMOTION);
    } else {
        add_move(l, from, to, 0, KIND_NORMAL);
    }
}

/* En passant can expose the king along a rank through both pawns: test it on a copy. */
static int ep_is_legal(const Board *b, Move m)
{
    Board copy = *b;
    Undo u;
    board_make(&copy, m, &u);
    return !square_attacked(&copy, copy.king_sq[b->side], !b->side);
}

/* Returns color's sliders on the lines through sq that each can move along (rooks and
 * queens on its rank and file, bishops and queens on its diagonals). */
static uint64_t snipers_of(const Board *b, int color, int sq)
{
    uint64_t queens = b->pieces[make_piece(color, QUEEN)];
    return (rook_lines[sq] & (b->pieces[make_piece(color, ROOK)] | queens))
         | (bishop_lines[sq] & (b->pieces[make_piece(color, BISHOP)] | queens));
}

/* Finds checkers and pins against the side to move. Returns the number of checkers;
 * block gets the squares that stop a single check, pin_ray the line of each pinned piece. */
static int find_checks_and_pins(const Board *b, uint64_t *block, uint64_t *pinned, uint64_t *pin_ray)
{
    int us = b->side, them = !us, ksq = b->king_sq[us], d, checks = 0;
    uint64_t occ = all_pieces(b);
    uint64_t knights = knight_set[ksq] & b->pieces[make_piece(them, KNIGHT)];
    uint64_t pawns = pawn_attackers[them][ksq] & b->pieces[make_piece(them, PAWN)];
    uint64_t snipers = snipers_of(b, them, ksq);

    *block = knights | pawns;
    *pinned = 0;
    checks = (knights != 0) + (pawns != 0);
    for (d = 0; snipers; d++) {
        uint64_t sliders = snipers & ray_set[ksq][d], line, first;
        if (!sliders)
            continue;
        snipers ^= sliders;
        line = ray_attacks(ksq, d, occ);
        first = line & occ;
        if (first & sliders) {
            *block |= line;
            checks++;
        } else if (first & b->occupied[us]) {
            /* look through our piece: the next piece along, if a slider of theirs, pins it */
            line = ray_attacks(ksq, d, occ ^ first);
            if (line & sliders) {
                *pinned |= first;
                pin_ray[bit_first(first)] = line;
            }
        }
    }
    return checks;
}

static void gen_pawns(Board *b, MoveList *l, GenKind kind, uint64_t target, const uint64_t *pin_ray, uint64_t pinned)
{
    int us = b->side, up = us == WHITE ? 8 : -8;
    int start_rank = us == WHITE ? 1 : 6, last_rank = us == WHITE ? 7 : 0;
    uint64_t pawns = b->pieces[make_piece(us, PAWN)], enemies = b->occupied[!us];

    while (pawns) {
        int from = pop_first(&pawns), to = from + up, f = square_file(from);
        uint64_t allowed = (pinned & bit(from)) ? target & pin_ray[from] : target;
        if (b->squares[to] == EMPTY) {
            if ((kind == GEN_ALL || (kind == GEN_NOISY) == (square_rank(to) == last_rank)) && (allowed & bit(to)))
                add_pawn_move(l, from, to);
            if (kind != GEN_NOISY && square_rank(from) == start_rank && b->squares[to + up] == EMPTY
                && (allowed & bit(to + up)))
                add_move(l, from, to + up, 0, KIND_NORMAL);
        }
        if (kind == GEN_QUIET)
            continue;
        if (f > 0 && (enemies & allowed & bit(to - 1)))
            add_pawn_move(l, from, to - 1);
        if (f < 7 && (enemies & allowed & bit(to + 1)))
            add_pawn_move(l, from, to + 1);
        if (b->ep_square != NO_SQUARE && square_rank(b->ep_square) == square_rank(to)
            && abs(square_file(b->ep_square) - f) == 1) {
            Move m = make_move(from, b->ep_square, 0, KIND_EN_PASSANT);
            if (ep_is_legal(b, m))
                l->moves[l->count++] = m;
        }
    }
}

/* Adds the moves from `from` to the squares of `to`, all along direction d, nearest first. */
static inline void add_ray_moves(MoveList *l, int from, uint64_t to, int d)
{
    while (to)
        add_move(l, from, DIR_UP[d] ? pop_first(&to) : pop_last(&to), 0, KIND_NORMAL);
}

static void gen_pieces(const Board *b, MoveList *l, uint64_t target, const uint64_t *pin_ray, uint64_t pinned)
{
    int us = b->side, type;
    uint64_t occ = all_pieces(b);
    uint64_t set = b->pieces[make_piece(us, KNIGHT)] & ~pinned; /* a pinned knight never moves */
    while (set) {
        int from = pop_first(&set);
        const int8_t *t;
        for (t = knight_to[from]; *t >= 0; t++)
            if (target & bit(*t))
                add_move(l, from, *t, 0, KIND_NORMAL);
    }
    for (type = BISHOP; type <= QUEEN; type++) {
        set = b->pieces[make_piece(us, type)];
        while (set) {
            int from = pop_first(&set);
            uint64_t to = (pinned & bit(from)) ? target & pin_ray[from] : target;
            to &= (type != BISHOP ? rook_attacks(from, occ) : 0) | (type != ROOK ? bishop_attacks(from, occ) : 0);
            /* ray by ray in direction order, nearest square first, as the moves have always been listed */
            if (to && type != BISHOP) {
                add_ray_moves(l, from, to & ray_set[from][DIR_N], DIR_N);
                add_ray_moves(l, from, to & ray_set[from][DIR_S], DIR_S);
                add_ray_moves(l, from, to & ray_set[from][DIR_E], DIR_E);
                add_ray_moves(l, from, to & ray_set[from][DIR_W], DIR_W);
            }
            if (to && type != ROOK) {
                add_ray_moves(l, from, to & ray_set[from][DIR_NE], DIR_NE);
                add_ray_moves(l, from, to & ray_set[from][DIR_NW], DIR_NW);
                add_ray_moves(l, from, to & ray_set[from][DIR_SE], DIR_SE);
                add_ray_moves(l, from, to & ray_set[from][DIR_SW], DIR_SW);
            }
        }
    }
}

/* The squares a piece of the side to move may go to for moves of this kind: any but its own
 * pieces', the other side's, or the empty ones. */
static uint64_t gen_target(const Board *b, GenKind kind)
{
    return kind == GEN_ALL ? ~b->occupied[b->side] : kind == GEN_NOISY ? b->occupied[!b->side] : ~all_pieces(b);
}

static void gen_king(const Board *b, MoveList *l, GenKind kind)
{
    int us = b->side, ksq = b->king_sq[us];
    uint64_t target = gen_target(b, kind);
    uint64_t occ = all_pieces(b) ^ bit(ksq); /* sliders see through the king's square */
    const int8_t *t;
    for (t = king_to[ksq]; *t >= 0; t++)
        if ((target & bit(*t)) && !attacked_through(b, *t, !us, occ))
            add_move(l, ksq, *t, 0, KIND_NORMAL);
}

/* Adds the castlings of the side to move, not in check: the king's and rook's paths empty
 * but for themselves, and no square the king passes attacked, seen with the rook gone so that
 * it hides no attack (Stockfish's test of a Chess960 rook shielding its king). */
static void gen_castling(Board *b, MoveList *l)
{
    int us = b->side, right = 2 * us;
    uint64_t occ = all_pieces(b);
    if ((b->castling & (1 << right)) && !(b->castle_empty[right] & occ))
        add_castling(b, l, right, occ);
    if ((b->castling & (2 << right)) && !(b->castle_empty[right + 1] & occ))
        add_castling(b, l, right + 1, occ);
}

/* Adds the castling by right, its paths empty, if no square the king passes is attacked. */
static void add_castling(const Board *b, MoveList *l, int right, uint64_t occ)
{
    uint64_t safe = b->castle_safe[right], without_rook = occ ^ bit(b->castle_rook[right]);
    int them = !b->side;
    for (; safe; safe &= safe - 1)
        if (attacked_through(b, bit_first(safe), them, without_rook))
            return;
    add_move(l, b->king_sq[b->side], castle_king_to(right), 0, KIND_CASTLE);
}

int gen_legal(Board *b, MoveList *list, GenKind kind)
{
    uint64_t block, pinned, pin_ray[64], target;
    int checks = find_checks_and_pins(b, &block, &pinned, pin_ray);

    list->count = 0;
    if (checks && kind == GEN_QUIET)
        return 0; /* in check, the noisy moves are every evasion */
    if (checks >= 2) {
        gen_king(b, list, GEN_ALL);
        return list->count;
    }
    if (checks == 1)
        kind = GEN_ALL;
    target = gen_target(b, kind);
    if (checks == 1)
        target &= block;
    gen_pawns(b, list, kind, checks ? block : ~b->occupied[b->side], pin_ray, pinned);
    gen_pieces(b, list, target, pin_ray, pinned);
    gen_king(b, list, kind);
    if (kind != GEN_NOISY && !checks)
        gen_castling(b, list);
    return list->count;
}

/* Returns 1 if a pawn of the side to move may go from `from` to `to` by m's kind. */
static int pawn_move_fits(const Board *b, Move m, int from, int to)
{
    int us = b->side, up = us == WHITE ? 8 : -8, last = square_rank(to) == (us == WHITE ? 7 : 0);
    if (last != (move_kind(m) == KIND_PROMOTION))
        return 0;
    if (move_kind(m) == KIND_PROMOTION ? move_promo(m) < KNIGHT || move_promo(m) > QUEEN : move_promo(m) != 0)
        return 0;
    if (to == from + up)
        return b->squares[to] == EMPTY;
    if (to == from + 2 * up)
        return square_rank(from) == (us == WHITE ? 1 : 6) && b->squares[from + up] == EMPTY && b->squares[to] == EMPTY;
    return (pawn_attackers[!us][from] & bit(to)) && (b->occupied[!us] & bit(to));
}

int move_is_legal(Board *b, Move m)
{
    MoveList list;
    int from = move_from(m), to = move_to(m), piece = b->squares[from], i, legal;
    Undo u;
    if (m == MOVE_NONE || (m >> 17) != 0 || piece == EMPTY || piece_color(piece) != b->side)
        return 0;
    if (move_kind(m) == KIND_CASTLE || move_kind(m) == KIND_EN_PASSANT) {
        /* rare: compare with the full list (a Chess960 castling may go to its own rook's square) */
        gen_legal(b, &list, GEN_ALL);
        for (i = 0; i < list.count; i++)
            if (list.moves[i] == m)
                return 1;
        return 0;
    }
    if (b->occupied[b->side] & bit(to))
        return 0;
    if (piece_type(piece) == PAWN ? !pawn_move_fits(b, m, from, to)
        : move_kind(m) != KIND_NORMAL || move_promo(m) != 0
          || !(piece_attacks(b, piece_type(piece), b->side, from) & bit(to)))
        return 0;
    if (piece_type(b->squares[to]) == KING)
        return 0;
    board_make(b, m, &u);
    legal = !square_attacked(b, b->king_sq[!b->side], b->side);
    board_unmake(b, m, &u);
    return legal;
}

void check_squares(const Board *b, CheckSquares *cs)
{
    int us = b->side, king = b->king_sq[!us], d;
    uint64_t occ = all_pieces(b), snipers = snipers_of(b, us, king);
    cs->direct[EMPTY] = cs->direct[KING] = 0; /* a king never attacks the other */
    cs->direct[PAWN] = pawn_attackers[us][king];
    cs->direct[KNIGHT] = knight_set[king];
    cs->direct[BISHOP] = bishop_attacks(king, occ);
    cs->direct[ROOK] = rook_attacks(king, occ);
    cs->direct[QUEEN] = cs->direct[BISHOP] | cs->direct[ROOK];
    cs->discoverers = 0;
    for (d = 0; snipers; d++) {
        uint64_t sliders = snipers & ray_set[king][d], first;
        if (!sliders)
            continue;
        snipers ^= sliders;
        /* the first piece from the king is ours, and behind it one of these sliders */
        first = ray_attacks(king, d, occ) & occ;
        if ((first & b->occupied[us]) && (ray_attacks(king, d, occ ^ first) & sliders))
            cs->discoverers |= first;
    }
}

int move_checks(Board *b, const CheckSquares *cs, Move m)
{
    int from = move_from(m), to = move_to(m), us = b->side, king = b->king_sq[!us];
    uint64_t occ, sliders;
    if (move_kind(m) != KIND_NORMAL) {
        /* castling, en passant and promotions (rare) are made and unmade */
        Undo u;
        int check;
        board_make(b, m, &u);
        check = board_in_check(b);
        board_unmake(b, m, &u);
        return check;
    }
    /* a direct check. cs was found with the piece still on from, which can stand between to
     * and the king only on a line the piece slides along; then either the piece gave check
     * already (it cannot: the side to move gives none) or a third piece blocks both */
    if (cs->direct[piece_type(b->squares[from])] & bit(to))
        return 1;
    /* a discovered check: one of our other sliders sees the king once from is empty, if
     * the piece leaves the line */
    if (!(cs->discoverers & bit(from)))
        return 0;
    occ = (all_pieces(b) & ~bit(from)) | bit(to);
    sliders = b->pieces[make_piece(us, QUEEN)] & ~bit(from);
    if (bishop_lines[king] & bit(from))
        return (bishop_attacks(king, occ) & (sliders | b->pieces[make_piece(us, BISHOP)]) & ~bit(from) & ~bit(to)) != 0;
    if (rook_lines[king] & bit(from))
        return (rook_attacks(king, occ) & (sliders | b->pieces[make_piece(us, ROOK)]) & ~bit(from) & ~bit(to)) != 0;
    return 0;
}

/* ------------------------------------------------------------ make/unmake */

uint64_t board_key_after(const Board *b, Move m)
{
    int from = move_from(m), to = move_to(m), piece = b->squares[from], captured = b->squares[to];
    uint64_t key = b->key ^ zobrist_side ^ zobrist_piece[piece][from] ^ zobrist_piece[piece][to];
    if (captured != EMPTY && move_kind(m) != KIND_CASTLE)
        key ^= zobrist_piece[captured][to];
    if (b->ep_square != NO_SQUARE)
        key ^= zobrist_ep[square_file(b->ep_square)];
    return key ^ zobrist_castle[b->castling] ^ zobrist_castle[b->castling & b->castle_keep[from] & b->castle_keep[to]];
}

void board_make(Board *b, Move m, Undo *u)
{
    int from = move_from(m), to = move_to(m), kind = move_kind(m), us = b->side;
    int piece = b->squares[from];

    u->captured = kind == KIND_EN_PASSANT ? make_piece(!us, PAWN) : kind == KIND_CASTLE ? EMPTY : b->squares[to];
    u->castling = b->castling;
    u->ep_square = b->ep_square;
    u->halfmove = b->halfmove;
    u->key = b->key;

    b->key ^= zobrist_castle[b->castling];
    if (b->ep_square != NO_SQUARE)
        b->key ^= zobrist_ep[square_file(b->ep_square)];
    b->ep_square = NO_SQUARE;
    b->halfmove++;

    if (kind == KIND_EN_PASSANT)
        remove_piece(b, us == WHITE ? to - 8 : to + 8);
    else if (u->captured != EMPTY)
        remove_piece(b, to);
    if (u->captured != EMPTY)
        b->halfmove = 0;
    if (kind == KIND_CASTLE)
        castle_move(b, m, 0);
    else
        move_piece(b, from, to);

    if (piece_type(piece) == PAWN) {
        b->halfmove = 0;
        if (kind == KIND_PROMOTION) {
            remove_piece(b, to);
            put_piece(b, make_piece(us, move_promo(m)), to);
        } else if ((from ^ to) == 16 && ep_capture_possible(b, (from + to) / 2, !us)) {
            b->ep_square = (from + to) / 2;
            b->key ^= zobrist_ep[square_file(b->ep_square)];
        }
    } else if (piece_type(piece) == KING) {
        b->king_sq[us] = to;
    }
    b->castling &= b->castle_keep[from] & b->castle_keep[to];
    b->key ^= zobrist_castle[b->castling] ^ zobrist_side;
    if (us == BLACK)
        b->fullmove++;
    b->side = !us;
    check_board(b);
}

void board_unmake(Board *b, Move m, const Undo *u)
{
    int from = move_from(m), to = move_to(m), kind = move_kind(m), us = !b->side;

    b->side = us;
    if (us == BLACK)
        b->fullmove--;
    if (kind == KIND_PROMOTION) {
        remove_piece(b, to);
        put_piece(b, make_piece(us, PAWN), to);
    }
    if (kind == KIND_CASTLE)
        castle_move(b, m, 1);
    else
        move_piece(b, to, from);
    if (piece_type(b->squares[from]) == KING)
        b->king_sq[us] = from;
    if (kind == KIND_EN_PASSANT)
        put_piece(b, u->captured, us == WHITE ? to - 8 : to + 8);
    else if (u->captured != EMPTY)
        put_piece(b, u->captured, to);
    b->castling = u->castling;
    b->ep_square = u->ep_square;
    b->halfmove = u->halfmove;
    b->key = u->key;
    check_board(b);
}

void board_make_null(Board *b, Undo *u)
{
    u->captured = EMPTY;
    u->castling = b->castling;
    u->ep_square = b->ep_square;
    u->halfmove = b->halfmove;
    u->key = b->key;
    if (b->ep_square != NO_SQUARE)
        b->key ^= zobrist_ep[square_file(b->ep_square)];
    b->ep_square = NO_SQUARE;
    b->key ^= zobrist_side;
    b->halfmove++;
    b->side = !b->side;
}

void board_unmake_null(Board *b, const Undo *u)
{
    b->side = !b->side;
    b->ep_square = u->ep_square;
    b->halfmove = u->halfmove;
    b->key = u->key;
}

/* ------------------------------------------------------------------- SAN */

static int san_piece_letter(int type)
{
    return " PNBRQK"[type];
}

void move_to_san(Board *b, Move m, char *out)
{
    int from = move_from(m), to = move_to(m), type = piece_type(b->squares[from]);
    MoveList list;
    Undo u;
    char *p = out;
    int i;

    if (move_kind(m) == KIND_CASTLE) {
        strcpy(p, square_file(to) == 6 ? "O-O" : "O-O-O");
        p += strlen(p);
    } else {
        if (type == PAWN) {
            if (move_is_capture(b, m))
                *p++ = (char)('a' + square_file(from));
        } else {
            int others = 0, same_file = 0, same_rank = 0;
            *p++ = (char)san_piece_letter(type);
            gen_legal(b, &list, GEN_ALL);
            for (i = 0; i < list.count; i++) {
                int f2 = move_from(list.moves[i]);
                if (move_to(list.moves[i]) != to || f2 == from || piece_type(b->squares[f2]) != type)
                    continue;
                others++;
                same_file += square_file(f2) == square_file(from);
                same_rank += square_rank(f2) == square_rank(from);
            }
            if (others && (!same_file || same_rank))
                *p++ = (char)('a' + square_file(from));
            if (others && same_file)
                *p++ = (char)('1' + square_rank(from));
        }
        if (move_is_capture(b, m))
            *p++ = 'x';
        *p++ = (char)('a' + square_file(to));
        *p++ = (char)('1' + square_rank(to));
        if (move_kind(m) == KIND_PROMOTION) {
            *p++ = '=';
            *p++ = (char)san_piece_letter(move_promo(m));
        }
    }
    board_make(b, m, &u);
    if (board_in_check(b))
        *p++ = gen_legal(b, &list, GEN_ALL) ? '+' : '#';
    board_unmake(b, m, &u);
    *p = '\0';
}

void move_to_uci(Move m, char *out)
{
    out[0] = (char)('a' + square_file(move_from(m)));
    out[1] = (char)('1' + square_rank(move_from(m)));
    out[2] = (char)('a' + square_file(move_to(m)));
    out[3] = (char)('1' + square_rank(move_to(m)));
    out[4] = move_kind(m) == KIND_PROMOTION ? "  nbrq "[move_promo(m)] : '\0';
    out[5] = '\0';
}

void move_to_coords(const Board *b, Move m, int king_takes_rook, char *out)
{
    int rook_from, rook_to;
    if (move_kind(m) == KIND_CASTLE && king_takes_rook) {
        castle_rook_squares(b, m, &rook_from, &rook_to);
        m = make_move(move_from(m), rook_from, 0, KIND_NORMAL);
    }
    move_to_uci(m, out);
}

/* Returns the piece type for a SAN letter (either case), or EMPTY. */
static int letter_type(int c)
{
    switch (toupper(c)) {
    case 'N': return KNIGHT;
    case 'B': return BISHOP;
    case 'R': return ROOK;
    case 'Q': return QUEEN;
    case 'K': return KING;
    default: return EMPTY;
    }
}

/* Copies text without check marks, annotations, "e.p." and the separators - and =. */
static void normalize_token(const char *text, char *out, size_t size)
{
    size_t n = 0, len = strlen(text);
    if (len >= 4 && strcmp(text + len - 4, "e.p.") == 0)
        len -= 4;
    else if (len >= 2 && strcmp(text + len - 2, "ep") == 0 && len > 4)
        len -= 2;
    while (len > 0 && strchr("+#!?", text[len - 1]))
        len--;
    for (; len > 0 && n + 1 < size; text++, len--)
        if (*text != '=' && *text != '-' && *text != ':')
            out[n++] = *text == '0' ? 'O' : *text;
    out[n] = '\0';
}

/* Coordinate form: e2e4, e7e8q (also e2-e4, already normalized); a castling as the king taking
 * its own rook, or going to its destination when no king's move does. */
static ParseResult parse_coordinate(Board *b, const char *t, Move *out)
{
    MoveList list;
    Move takes_rook = MOVE_NONE, to_destination = MOVE_NONE;
    int from, to, promo = EMPTY, i;
    size_t len = strlen(t);
    if ((len != 4 && len != 5) || t[0] < 'a' || t[0] > 'h' || t[1] < '1' || t[1] > '8'
        || t[2] < 'a' || t[2] > 'h' || t[3] < '1' || t[3] > '8')
        return PARSE_MALFORMED;
    if (len == 5 && ((promo = letter_type(t[4])) == EMPTY || promo == KING))
        return PARSE_MALFORMED;
    from = make_square(t[0] - 'a', t[1] - '1');
    to = make_square(t[2] - 'a', t[3] - '1');
    gen_legal(b, &list, GEN_ALL);
    for (i = 0; i < list.count; i++) {
        Move m = list.moves[i];
        int rook_from, rook_to;
        if (move_from(m) != from || move_promo(m) != promo)
            continue;
        if (move_kind(m) != KIND_CASTLE && move_to(m) == to) {
            *out = m;
            return PARSE_OK;
        }
        if (move_kind(m) != KIND_CASTLE)
            continue;
        castle_rook_squares(b, m, &rook_from, &rook_to);
        if (rook_from == to)
            takes_rook = m;
        else if (move_to(m) == to)
            to_destination = m;
    }
    if (takes_rook == MOVE_NONE && to_destination == MOVE_NONE)
        return PARSE_ILLEGAL;
    *out = takes_rook != MOVE_NONE ? takes_rook : to_destination;
    return PARSE_OK;
}

/* SAN body without marks: [piece][file][rank][x]square[promotion], or OO / OOO. */
static ParseResult parse_san(Board *b, const char *t, Move *out)
{
    MoveList list;
    char body[16];
    size_t len = strlen(t), n = 0;
    int type = PAWN, promo = EMPTY, to, from_file = -1, from_rank = -1, found = 0, i;
    const char *s = t;

    if (strcmp(t, "OO") == 0 || strcmp(t, "OOO") == 0 || strcmp(t, "oo") == 0 || strcmp(t, "ooo") == 0) {
        gen_legal(b, &list, GEN_ALL);
        for (i = 0; i < list.count; i++) {
            Move m = list.moves[i];
            if (move_kind(m) == KIND_CASTLE && (square_file(move_to(m)) == 6) == (len == 2)) {
                *out = m;
                return PARSE_OK;
            }
        }
        return PARSE_ILLEGAL;
    }
    if (len >= 2 && strchr("NBRQK", s[0])) {
        type = letter_type(s[0]);
        s++;
    } else if (len >= 3 && strchr("nrqk", s[0])) {
        type = letter_type(s[0]);
        s++;
    }
    for (; *s && n + 1 < sizeof body; s++)
        if (*s != 'x' && *s != 'X')
            body[n++] = *s;
    body[n] = '\0';
    if (n >= 3 && letter_type(body[n - 1]) != EMPTY && isdigit((unsigned char)body[n - 2])) {
        promo = letter_type(body[n - 1]);
        body[--n] = '\0';
        if (type != PAWN || promo == KING)
            return PARSE_MALFORMED;
    }
    if (n < 2 || n > 4 || body[n - 2] < 'a' || body[n - 2] > 'h' || body[n - 1] < '1' || body[n - 1] > '8')
        return PARSE_MALFORMED;
    to = make_square(body[n - 2] - 'a', body[n - 1] - '1');
    for (i = 0; i < (int)n - 2; i++) {
        if (body[i] >= 'a' && body[i] <= 'h' && from_file < 0 && from_rank < 0)
            from_file = body[i] - 'a';
        else if (body[i] >= '1' && body[i] <= '8' && from_rank < 0)
            from_rank = body[i] - '1';
        else
            return PARSE_MALFORMED;
    }
    gen_legal(b, &list, GEN_ALL);
    for (i = 0; i < list.count; i++) {
        Move m = list.moves[i];
        int from = move_from(m);
        if (move_to(m) != to || piece_type(b->squares[from]) != type || move_promo(m) != promo
            || move_kind(m) == KIND_CASTLE)
            continue;
        if ((from_file >= 0 && square_file(from) != from_file) || (from_rank >= 0 && square_rank(from) != from_rank))
            continue;
        *out = m;
        found++;
    }
    return found == 1 ? PARSE_OK : found ? PARSE_AMBIGUOUS : PARSE_ILLEGAL;
}

ParseResult move_from_text(Board *b, const char *text, Move *out)
{
    char t[32];
    ParseResult r;
    if (strlen(text) >= sizeof t)
        return PARSE_MALFORMED;
    normalize_token(text, t, sizeof t);
    r = parse_coordinate(b, t, out);
    if (r != PARSE_MALFORMED)
        return r;
    return parse_san(b, t, out);
}

/* ----------------------------------------------------------------- perft */

/* The number of pawn moves gen_pawns would list (GEN_ALL), counted by sets when no pawn is
 * pinned and no en passant capture is on, else by listing them. */
HOT_CLONES
static int count_pawn_moves(Board *b, uint64_t target, const uint64_t *pin_ray, uint64_t pinned)
{
    int us = b->side;
    uint64_t pawns = b->pieces[make_piece(us, PAWN)], empty = ~all_pieces(b), enemies = b->occupied[!us] & target;
    uint64_t last = us == WHITE ? RANK_8 : RANK_1, third = us == WHITE ? RANK_3 : RANK_6;
    uint64_t push, twice, left, right;
    if ((pawns & pinned) || b->ep_square != NO_SQUARE) {
        MoveList list;
        list.count = 0;
        gen_pawns(b, &list, GEN_ALL, target, pin_ray, pinned);
        return list.count;
    }
    push = (us == WHITE ? pawns << 8 : pawns >> 8) & empty;
    twice = (us == WHITE ? (push & third) << 8 : (push & third) >> 8) & empty & target;
    push &= target;
    left = (us == WHITE ? (pawns & ~FILE_A) << 7 : (pawns & ~FILE_A) >> 9) & enemies;
    right = (us == WHITE ? (pawns & ~FILE_H) << 9 : (pawns & ~FILE_H) >> 7) & enemies;
    return bit_count(push & ~last) + bit_count(left & ~last) + bit_count(right & ~last) + bit_count(twice)
         + 4 * (bit_count(push & last) + bit_count(left & last) + bit_count(right & last));
}

/* The number of knight, bishop, rook and queen moves gen_pieces would list. */
HOT_CLONES
static int count_piece_moves(const Board *b, uint64_t target, const uint64_t *pin_ray, uint64_t pinned)
{
    int us = b->side, type, count = 0;
    uint64_t occ = all_pieces(b);
    uint64_t set = b->pieces[make_piece(us, KNIGHT)] & ~pinned;
    while (set)
        count += bit_count(knight_set[pop_first(&set)] & target);
    for (type = BISHOP; type <= QUEEN; type++) {
        set = b->pieces[make_piece(us, type)];
        while (set) {
            int from = pop_first(&set);
            uint64_t to = (pinned & bit(from)) ? target & pin_ray[from] : target;
            count += bit_count(to & attacks_from(type, us, from, occ));
        }
    }
    return count;
}

/* The number of legal moves: gen_legal's count (GEN_ALL), with the pawns' and pieces' moves
 * counted rather than listed (perft's last ply). */
HOT_CLONES
static int count_legal(Board *b)
{
    uint64_t block, pinned, pin_ray[64], target = ~b->occupied[b->side];
    int checks = find_checks_and_pins(b, &block, &pinned, pin_ray);
    MoveList others;
    others.count = 0;
    gen_king(b, &others, GEN_ALL);
    if (checks >= 2)
        return others.count;
    if (checks == 1)
        target &= block;
    else
        gen_castling(b, &others);
    return others.count + count_pawn_moves(b, target, pin_ray, pinned) + count_piece_moves(b, target, pin_ray, pinned);
}

uint64_t perft(Board *b, int depth)
{
    MoveList list;
    uint64_t nodes = 0;
    int i;
    if (depth <= 0)
        return 1;
    if (depth == 1)
        return (uint64_t)count_legal(b);
    gen_legal(b, &list, GEN_ALL);
    for (i = 0; i < list.count; i++) {
        Undo u;
        board_make(b, list.moves[i], &u);
        nodes += perft(b, depth - 1);
        board_unmake(b, list.moves[i], &u);
    }
    return nodes;
}

/* ----------------------------------------------------------- game status */

int board_insufficient_material(const Board *b)
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
        uint64_t all = minors[WHITE] | minors[BLACK];
        return !(all & DARK_SQUARES) || !(all & ~DARK_SQUARES);
    }
    return 0;
}

int board_repeated(const Board *b, const uint64_t *keys, int key_count, int times)
{
    int i, stop = key_count - 1 - b->halfmove, seen = 0;
    if (stop < 0)
        stop = 0;
    for (i = key_count - 3; i >= stop; i -= 2)
        if (keys[i] == b->key && ++seen >= times)
            return 1;
    return 0;
}

int board_drawn_by_rule(const Board *b, const uint64_t *keys, int key_count, int times)
{
    return b->halfmove >= FIFTY_MOVE_PLIES || board_insufficient_material(b)
           || board_repeated(b, keys, key_count, times);
}

GameStatus board_status(Board *b, const uint64_t *keys, int key_count)
{
    MoveList list;
    if (gen_legal(b, &list, GEN_ALL) == 0)
        return board_in_check(b) ? STATUS_CHECKMATE : STATUS_STALEMATE;
    if (board_insufficient_material(b))
        return STATUS_INSUFFICIENT_MATERIAL;
    if (keys && board_repeated(b, keys, key_count, 2))
        return STATUS_REPETITION;
    if (b->halfmove >= FIFTY_MOVE_PLIES)
        return STATUS_FIFTY_MOVES;
    return STATUS_PLAY;
}

const char *game_status_name(GameStatus status)
{
    static const char *const NAMES[] = {
        "play", "checkmate", "stalemate", "insufficient material", "threefold repetition", "fifty-move rule"
    };
    assert(status >= STATUS_PLAY && status <= STATUS_FIFTY_MOVES);
    return NAMES[status];
}
