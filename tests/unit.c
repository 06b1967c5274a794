/* tests/unit.c: the rules and evaluation tests. Perft over tests/data/perft.epd and, read
 * as Chess960, tests/data/perft960.epd (counts up to a node cap), FEN and SAN round trips,
 * tolerant SAN input, Chess960 castling, the game's status, evaluation symmetry.
 * Usage: unit [PERFT_NODE_CAP] [EPD] [EPD960]. Ends with "N passed, N failed". */
#include "../extra.h"
#include "../movement.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int passed, failed;
static int chess960; /* 1 while the positions come from the Chess960 suite */

static void check(int ok, const char *what, const char *detail)
{
    if (ok) {
        passed++;
    } else {
        failed++;
        printf("FAIL %s: %s\n", what, detail);
    }
}

/* Parses fen into b as a standard or, while chess960 is set, a Chess960 position. */
static int load_fen(Board *b, const char *fen, char *err, size_t err_size)
{
    return board_from_fen_960(b, fen, chess960, err, err_size);
}

/* Splits an EPD line "FEN ;D1 n ;D2 n" into the FEN and its counts. */
static int parse_epd(char *line, char **fen, unsigned long long counts[16])
{
    char *semi = strchr(line, ';'), *p;
    int n = 0;
    memset(counts, 0, 16 * sizeof counts[0]);
    if (!semi)
        return 0;
    *semi = '\0';
    *fen = line;
    for (p = semi + 1; p && *p;) {
        int depth;
        unsigned long long count;
        if (sscanf(p, " D%d %llu", &depth, &count) == 2 && depth > 0 && depth < 16) {
            counts[depth] = count;
            n++;
        }
        p = strchr(p, ';');
        if (p)
            p++;
    }
    return n;
}

static void test_perft_position(const char *fen, const unsigned long long counts[16], unsigned long long cap)
{
    Board b;
    char err[200], detail[400];
    int d;
    if (!load_fen(&b, fen, err, sizeof err)) {
        snprintf(detail, sizeof detail, "%s: %s", fen, err);
        check(0, "perft FEN", detail);
        return;
    }
    for (d = 1; d < 16; d++) {
        unsigned long long got;
        if (!counts[d] || counts[d] > cap)
            continue;
        got = perft(&b, d);
        snprintf(detail, sizeof detail, "%s depth %d: expected %llu, got %llu", fen, d, counts[d], got);
        check(got == counts[d], "perft", detail);
    }
}

/* A FEN as tests/data/perft.epd writes it (written apart from our code, each in the form
 * board_to_fen writes) comes back as the same text; the mirror's mirror is the board again.
 * test_fen_validation checks the FENs that come back in another form. */
static void test_fen_round_trip(const char *fen)
{
    Board b, m, mm;
    char err[200], out[FEN_MAX], detail[400];
    if (!load_fen(&b, fen, err, sizeof err)) {
        check(0, "FEN round trip: the FEN is refused", fen);
        return;
    }
    board_to_fen(&b, out);
    snprintf(detail, sizeof detail, "'%s' came back as '%s'", fen, out);
    check(strcmp(out, fen) == 0, "FEN round trip", detail);
    check(board_is_ok(&b), "board_is_ok after FEN", fen);
    board_mirror(&b, &m);
    board_mirror(&m, &mm);
    board_to_fen(&mm, out);
    check(strcmp(out, fen) == 0 && board_is_ok(&m), "mirror twice", fen);
}

/* Every legal move printed in SAN parses back to itself, also without check marks
 * and in coordinates; the SAN is unique among the position's moves. */
static void test_san_round_trip(const char *fen)
{
    Board b;
    MoveList list;
    char err[200], san[SAN_MAX], sans[MAX_MOVES][SAN_MAX], detail[400];
    int i, j, ok_all = 1, unique = 1;
    if (!load_fen(&b, fen, err, sizeof err))
        return;
    gen_legal(&b, &list, GEN_ALL);
    for (i = 0; i < list.count; i++) {
        Move m = list.moves[i], back = MOVE_NONE;
        char stripped[SAN_MAX], uci[6];
        size_t len;
        move_to_san(&b, m, san);
        strcpy(sans[i], san);
        if (move_from_text(&b, san, &back) != PARSE_OK || back != m) {
            snprintf(detail, sizeof detail, "%s: %s", fen, san);
            check(0, "SAN round trip", detail);
            ok_all = 0;
        }
        strcpy(stripped, san);
        len = strlen(stripped);
        while (len && (stripped[len - 1] == '+' || stripped[len - 1] == '#'))
            stripped[--len] = '\0';
        back = MOVE_NONE;
        if (move_from_text(&b, stripped, &back) != PARSE_OK || back != m) {
            snprintf(detail, sizeof detail, "%s: %s", fen, stripped);
            check(0, "SAN without marks", detail);
            ok_all = 0;
        }
        /* castling as the king taking its rook always, as the king's move off a Chess960 board */
        move_to_coords(&b, m, 1, uci);
        back = MOVE_NONE;
        if (move_from_text(&b, uci, &back) != PARSE_OK || back != m) {
            snprintf(detail, sizeof detail, "%s: %s", fen, uci);
            check(0, "coordinate move", detail);
            ok_all = 0;
        }
        move_to_uci(m, uci);
        back = MOVE_NONE;
        if (!b.chess960 && (move_from_text(&b, uci, &back) != PARSE_OK || back != m)) {
            snprintf(detail, sizeof detail, "%s: %s", fen, uci);
            check(0, "coordinate move", detail);
            ok_all = 0;
        }
    }
    for (i = 0; i < list.count; i++)
        for (j = i + 1; j < list.count; j++)
            if (strcmp(sans[i], sans[j]) == 0)
                unique = 0;
    check(unique, "SAN unique", fen);
    check(ok_all, "SAN position", fen);
}

/* move_is_legal() accepts exactly the generated moves among every encodable move. */
static void test_move_validation(const char *fen)
{
    Board b;
    MoveList list;
    char err[200];
    int from, to, kind, promo, i, agree = 1;
    if (!load_fen(&b, fen, err, sizeof err))
        return;
    gen_legal(&b, &list, GEN_ALL);
    for (from = 0; from < 64; from++)
        for (to = 0; to < 64; to++)
            for (kind = KIND_NORMAL; kind <= KIND_PROMOTION; kind++)
                for (promo = 0; promo <= QUEEN; promo++) {
                    Move m = make_move(from, to, promo, kind);
                    int listed = 0;
                    for (i = 0; i < list.count; i++)
                        listed |= list.moves[i] == m;
                    if (move_is_legal(&b, m) != listed)
                        agree = 0;
                }
    check(agree, "move_is_legal agrees with the generator", fen);
}

/* move_checks() agrees with making the move and asking board_in_check(), for every
 * legal move of the position and of each position a legal move leads to. */
static int gives_check_agrees(Board *b, int depth)
{
    MoveList list;
    CheckSquares cs;
    int i, agree = 1;
    gen_legal(b, &list, GEN_ALL);
    check_squares(b, &cs);
    for (i = 0; i < list.count; i++) {
        Undo u;
        int predicted = move_checks(b, &cs, list.moves[i]);
        board_make(b, list.moves[i], &u);
        if (predicted != board_in_check(b))
            agree = 0;
        if (depth > 1)
            agree &= gives_check_agrees(b, depth - 1);
        board_unmake(b, list.moves[i], &u);
    }
    return agree;
}

/* The noisy moves and the quiet ones, generated apart, are the legal moves, each once: the
 * noisy ones the captures and promotions (every move when in check), the quiet ones the rest,
 * in the position and in each position a legal move leads to. */
static int move_kinds_agree(Board *b, int depth)
{
    MoveList all, noisy, quiet;
    int i, j, agree;
    gen_legal(b, &all, GEN_ALL);
    gen_legal(b, &noisy, GEN_NOISY);
    gen_legal(b, &quiet, GEN_QUIET);
    agree = noisy.count + quiet.count == all.count;
    for (i = 0; agree && i < all.count; i++) {
        Move m = all.moves[i];
        int in_noisy = 0, in_quiet = 0, noisy_kind = board_in_check(b) || !move_is_quiet(b, m);
        for (j = 0; j < noisy.count; j++)
            in_noisy += noisy.moves[j] == m;
        for (j = 0; j < quiet.count; j++)
            in_quiet += quiet.moves[j] == m;
        agree = in_noisy == noisy_kind && in_quiet == !noisy_kind;
    }
    for (i = 0; agree && depth > 1 && i < all.count; i++) {
        Undo u;
        board_make(b, all.moves[i], &u);
        agree = move_kinds_agree(b, depth - 1);
        board_unmake(b, all.moves[i], &u);
    }
    return agree;
}

/* board_key_after() gives the key board_make() makes for every move but castling, en passant,
 * promotions and double pushes (where it only guesses), in the position and in each position a
 * legal move leads to. */
static int key_after_agrees(Board *b, int depth)
{
    MoveList list;
    int i, agree = 1;
    gen_legal(b, &list, GEN_ALL);
    for (i = 0; i < list.count; i++) {
        Move m = list.moves[i];
        int guess = move_kind(m) != KIND_NORMAL
                    || (piece_type(b->squares[move_from(m)]) == PAWN && (move_from(m) ^ move_to(m)) == 16);
        uint64_t predicted = board_key_after(b, m);
        Undo u;
        board_make(b, m, &u);
        if (!guess && predicted != b->key)
            agree = 0;
        if (depth > 1)
            agree &= key_after_agrees(b, depth - 1);
        board_unmake(b, m, &u);
    }
    return agree;
}

/* Checks that agrees holds in fen's position and in each position two plies on. */
static void check_tree(const char *fen, int (*agrees)(Board *b, int depth), const char *what)
{
    Board b;
    char err[200];
    if (!load_fen(&b, fen, err, sizeof err))
        return;
    check(agrees(&b, 2), what, fen);
}

static void test_eval_symmetry(const char *fen)
{
    static Accumulator acc, mirrored_acc;
    Board b, m;
    char err[200], detail[400];
    int e1, e2;
    if (!load_fen(&b, fen, err, sizeof err))
        return;
    board_mirror(&b, &m);
    e1 = eval_position(&b, NULL);
    e2 = eval_position(&m, NULL);
    snprintf(detail, sizeof detail, "%s: %d vs mirrored %d", fen, e1, e2);
    check(e1 == e2, "eval symmetry", detail);
    nnue_refresh(&acc, &b);
    nnue_refresh(&mirrored_acc, &m);
    e1 = eval_network(&b, &acc);
    e2 = eval_network(&m, &mirrored_acc);
    snprintf(detail, sizeof detail, "%s: network %d vs mirrored %d", fen, e1, e2);
    check(e1 == e2, "network symmetry", detail);
}

/* Walks the move tree to depth, updating the network's accumulator move by move as the
 * search does; returns 0 at the first position where it differs from a fresh refresh. */
static int accumulators_agree(Board *b, const Accumulator *acc, int depth, char *where, size_t size)
{
    static Accumulator stack[8], fresh;
    MoveList list;
    int i;
    if (depth == 0)
        return 1;
    gen_legal(b, &list, GEN_ALL);
    for (i = 0; i < list.count; i++) {
        Accumulator *child = &stack[depth];
        NetworkDelta delta;
        Undo u;
        nnue_delta(b, list.moves[i], &delta);
        nnue_apply(child, acc, &delta);
        board_make(b, list.moves[i], &u);
        nnue_rebuild(child, b, &delta);
        nnue_refresh(&fresh, b);
        if (memcmp(&fresh, child, sizeof fresh) != 0 || !accumulators_agree(b, child, depth - 1, where, size)) {
            if (!where[0])
                board_to_fen(b, where);
            board_unmake(b, list.moves[i], &u);
            return 0;
        }
        board_unmake(b, list.moves[i], &u);
        nnue_refresh(&fresh, b);
        if (memcmp(&fresh, acc, sizeof fresh) != 0) {
            board_to_fen(b, where);
            return 0;
        }
    }
    return 1;
}

/* The incremental accumulators equal a full refresh after every make and unmake. */
static void test_accumulators(const char *fen, int depth)
{
    static Accumulator root;
    Board b;
    char err[200], where[FEN_MAX] = "", detail[400];
    if (!load_fen(&b, fen, err, sizeof err))
        return;
    nnue_refresh(&root, &b);
    snprintf(detail, sizeof detail, "%s (depth %d)", fen, depth);
    check(accumulators_agree(&b, &root, depth, where, sizeof where), "network accumulators follow make/unmake", detail);
    if (where[0])
        printf("  first difference after reaching %s\n", where);
}

/* A token in a position parses to the expected SAN, or is refused as want says ("illegal",
 * "malformed", "ambiguous"). */
static void expect_parse(const char *fen, const char *token, const char *want)
{
    static const char *const REFUSALS[] = { "", "malformed", "illegal", "ambiguous" }; /* ParseResult's order */
    Board b;
    Move m = MOVE_NONE;
    char err[200], got[SAN_MAX] = "", detail[400];
    ParseResult r;
    board_from_fen(&b, fen, err, sizeof err);
    r = move_from_text(&b, token, &m);
    if (r == PARSE_OK)
        move_to_san(&b, m, got);
    else
        snprintf(got, sizeof got, "%s", REFUSALS[r]);
    snprintf(detail, sizeof detail, "'%s' in %s: %s, expected %s", token, fen, got, want);
    check(strcmp(got, want) == 0, "tolerant parse", detail);
}

/* Move text in the forms players and programs write: SAN with or without its check mark,
 * coordinates, 0-0, e8Q, e.p.; and what is refused. */
static void test_tolerant_forms(void)
{
    static const struct { const char *fen, *token, *want; } CASES[] = {
        { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "e4", "e4" },
        { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "e2e4", "e4" },
        { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "e2-e4", "e4" },
        { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "Ng1f3", "Nf3" },
        { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "Ngf3", "Nf3" },
        { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "g1f3", "Nf3" },
        { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "Nf3+", "Nf3" },
        { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "e5", "illegal" },
        { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "Qh5", "illegal" },
        { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "hello", "malformed" },
        { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "", "malformed" },
        { "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "O-O", "O-O" },
        { "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "0-0", "O-O" },
        { "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "O-O-O", "O-O-O" },
        { "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "0-0-0", "O-O-O" },
        { "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", "O-O" },
        { "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1", "O-O-O" },
        { "8/4P1k1/8/8/8/8/8/4K3 w - - 0 1", "e8=Q", "e8=Q" },
        { "8/4P1k1/8/8/8/8/8/4K3 w - - 0 1", "e8Q", "e8=Q" },
        { "8/4P1k1/8/8/8/8/8/4K3 w - - 0 1", "e8=N", "e8=N+" },
        { "8/4P1k1/8/8/8/8/8/4K3 w - - 0 1", "e7e8q", "e8=Q" },
        { "8/4P1k1/8/8/8/8/8/4K3 w - - 0 1", "e7e8n", "e8=N+" },
        { "8/4P1k1/8/8/8/8/8/4K3 w - - 0 1", "e8", "illegal" },
        { "8/4P1k1/8/8/8/8/8/4K3 w - - 0 1", "e8=K", "malformed" },
        { "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "exd6", "exd6" },
        { "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "exd6e.p.", "exd6" },
        { "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "exd6 e.p.", "malformed" },
        { "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6", "exd6" },
        { "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "Nd2", "ambiguous" },
        { "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "Nbd2", "Nbd2" },
        { "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "Nfd2", "Nfd2" },
    };
    size_t i;
    for (i = 0; i < sizeof CASES / sizeof CASES[0]; i++)
        expect_parse(CASES[i].fen, CASES[i].token, CASES[i].want);
}

/* SAN output in positions with known notation (file, rank and square disambiguation, mate). */
static void test_san_output(void)
{
    static const struct { const char *fen, *uci, *san; } CASES[] = {
        { "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "d1d8", "Rd8#" },
        { "4k3/8/8/8/8/8/8/R4RK1 w - - 0 1", "a1d1", "Rad1" },
        { "4k3/8/8/8/R7/8/8/R3K3 w Q - 0 1", "a1a2", "R1a2" },
        { "4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1", "a1b2", "Qa1b2" },
        { "5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", "O-O+" },
        { "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3", "d4e3", "dxe3" },
        { "7k/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q", "a8=Q+" },
    };
    size_t i;
    for (i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        Board b;
        Move m = MOVE_NONE;
        char err[200], san[SAN_MAX] = "", detail[300];
        board_from_fen(&b, CASES[i].fen, err, sizeof err);
        if (move_from_text(&b, CASES[i].uci, &m) == PARSE_OK)
            move_to_san(&b, m, san);
        snprintf(detail, sizeof detail, "%s %s: got '%s', expected '%s'", CASES[i].fen, CASES[i].uci, san, CASES[i].san);
        check(strcmp(san, CASES[i].san) == 0, "SAN output", detail);
    }
}

/* FENs that must be refused, and FENs that are accepted with something dropped or defaulted. */
static void test_fen_validation(void)
{
    static const char *const BAD[] = {
        "", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1", "rnbqkbnr/ppppXppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqK - 0 1", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KXkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e4 0 1", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 x", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
        "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKKNR w kq - 0 1",
        "Pnbqkbnr/1ppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQk - 0 1", "4k3/8/8/8/8/8/8/4K2p w - - 0 1",
        "4k3/8/8/8/8/8/4R3/4K3 w - - 0 1", "4k3/8/8/8/8/8/8/44K3 w - - 0 1",
        "4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1", "QQQQk3/QQQQQQQQ/8/8/8/8/8/4K3 b - - 0 1",
    };
    static const struct { const char *in, *out; } FIXED[] = {
        { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" },
        { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 5", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 5 1" },
        { "4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1", "4k3/8/8/8/8/8/8/4K3 w - - 0 1" },
        { "r3k3/8/8/8/8/8/8/4K2R w KQkq - 0 1", "r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1" },
        { "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1" },
        { "  4k3/8/8/8/8/8/8/4K3   w  -  -  0  1 ", "4k3/8/8/8/8/8/8/4K3 w - - 0 1" },
    };
    size_t i;
    for (i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        Board b;
        char err[200] = "", detail[400];
        int ok = board_from_fen(&b, BAD[i], err, sizeof err);
        snprintf(detail, sizeof detail, "'%s' was accepted", BAD[i]);
        check(!ok && err[0] != '\0', "bad FEN refused", detail);
    }
    for (i = 0; i < sizeof FIXED / sizeof FIXED[0]; i++) {
        Board b;
        char err[200] = "", out[FEN_MAX] = "", detail[400];
        int ok = board_from_fen(&b, FIXED[i].in, err, sizeof err);
        if (ok)
            board_to_fen(&b, out);
        snprintf(detail, sizeof detail, "'%s' gave '%s' %s", FIXED[i].in, out, err);
        check(ok && strcmp(out, FIXED[i].out) == 0, "FEN normalized", detail);
    }
}

/* Insufficient material and the mating term's sign. */
static void test_eval_knowledge(void)
{
    static const char *const DRAWN[] = {
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "4k3/8/8/8/8/8/8/3NK3 w - - 0 1",
        "4k3/8/8/8/8/8/8/3BK3 b - - 0 1", "4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1",
    };
    Board b;
    char err[200];
    size_t i;
    for (i = 0; i < sizeof DRAWN / sizeof DRAWN[0]; i++) {
        board_from_fen(&b, DRAWN[i], err, sizeof err);
        check(board_insufficient_material(&b) && eval_position(&b, NULL) == 0, "insufficient material", DRAWN[i]);
    }
    board_from_fen(&b, "4kb2/8/8/8/8/8/8/3BK3 w - - 0 1", err, sizeof err);
    check(!board_insufficient_material(&b), "opposite bishops are not insufficient", "KB v KB");
    board_from_fen(&b, "8/8/8/8/8/8/1k6/4K2R w - - 0 1", err, sizeof err);
    {
        int edge, center;
        edge = eval_position(&b, NULL);
        board_from_fen(&b, "8/8/8/3k4/8/8/8/4K2R w - - 0 1", err, sizeof err);
        center = eval_position(&b, NULL);
        check(edge > center && center > 300, "mating: a king near the edge is worth more", "KR v K");
    }
}

/* The game's status: mate, stalemate and the draws by rule, in board_status's order. */
static void test_game_status(void)
{
    static const struct { const char *fen; GameStatus status; } CASES[] = {
        { "6k1/5ppp/8/8/8/8/5PPP/3r2K1 w - - 0 1", STATUS_CHECKMATE },
        { "6k1/5ppp/8/8/8/8/5PPP/3r2K1 w - - 100 80", STATUS_CHECKMATE }, /* mate before fifty moves */
        { "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", STATUS_STALEMATE },
        { "4k3/8/8/8/8/8/8/3NK3 w - - 0 1", STATUS_INSUFFICIENT_MATERIAL },
        { "4k3/8/8/8/8/8/8/R3K3 w - - 100 80", STATUS_FIFTY_MOVES },
        { "4k3/8/8/8/8/8/8/R3K3 w - - 99 80", STATUS_PLAY },
    };
    static const char *const SHUFFLE[] = { "Nf3", "Nf6", "Ng1", "Ng8" };
    uint64_t keys[16];
    Board b;
    char err[200];
    size_t i;
    for (i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        board_from_fen(&b, CASES[i].fen, err, sizeof err);
        check(board_status(&b, NULL, 0) == CASES[i].status, game_status_name(CASES[i].status), CASES[i].fen);
    }
    /* knights out and back twice: the start position stands a second, then a third time */
    board_start(&b);
    keys[0] = b.key;
    for (i = 0; i < 8; i++) {
        Move m;
        Undo u;
        move_from_text(&b, SHUFFLE[i % 4], &m);
        board_make(&b, m, &u);
        keys[i + 1] = b.key;
        if (i == 3)
            check(board_repeated(&b, keys, 5, 1) && !board_repeated(&b, keys, 5, 2)
                  && board_drawn_by_rule(&b, keys, 5, 1) && board_status(&b, keys, 5) == STATUS_PLAY,
                  "a second time is a repetition, not yet the rule's", "start");
    }
    check(board_status(&b, keys, 9) == STATUS_REPETITION, "threefold repetition", "start");
    check(board_status(&b, NULL, 0) == STATUS_PLAY, "no history, no repetition", "start");
}

/* Returns 1 if out, the FEN written for b, reads back as standard (chess960 0) to b's castling
 * rights with b's rooks and b's key. */
static int fen_reads_back(const Board *b, const char *out)
{
    Board back;
    char err[200];
    int right, same = board_from_fen(&back, out, err, sizeof err) && back.castling == b->castling && back.key == b->key;
    for (right = 0; same && right < CASTLE_RIGHTS; right++)
        same = back.castle_rook[right] == b->castle_rook[right];
    return same;
}

/* FEN in, FEN out: Shredder-FEN and X-FEN castling fields, read as standard (chess960 0) or
 * Chess960 (1); written as X-FEN, KQkq for the outermost rooks, which standard FENs keep, but a
 * file letter for a rook off the corner beside a king on the e-file. What is written reads back,
 * as standard, to the same rights with the same rooks. */
static void test_chess960_fen(void)
{
    static const struct { const char *in; int chess960; const char *out; int is_960; } CASES[] = {
        { "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", 0,
          "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9", 1 },
        { "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9", 1,
          "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9", 1 },
        /* KQkq that cannot be standard (the king off the e-file) is X-FEN: the outermost rooks */
        { "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9", 0,
          "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9", 1 },
        /* a right whose king and rook are nowhere to castle is dropped, as in standard chess */
        { "rnbqkbnr/pppppppp/8/8/8/4K3/PPPPPPPP/RNBQ1BNR w KQkq - 0 1", 0,
          "rnbqkbnr/pppppppp/8/8/8/4K3/PPPPPPPP/RNBQ1BNR w kq - 0 1", 0 },
        { "1nbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0,
          "1nbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQk - 0 1", 0 },
        { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", 0,
          "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0 },
        { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 1,
          "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 1 },
        /* an inner rook is named by its file; K names the outer one */
        { "rr2k2r/8/8/8/8/8/8/RR2K2R w HBhb - 0 1", 0, "rr2k2r/8/8/8/8/8/8/RR2K2R w KBkb - 0 1", 1 },
        { "rr2k2r/8/8/8/8/8/8/RR2K2R w KBkb - 0 1", 0, "rr2k2r/8/8/8/8/8/8/RR2K2R w KBkb - 0 1", 1 },
        { "rr2k2r/8/8/8/8/8/8/RR2K2R w KQkq - 0 1", 1, "rr2k2r/8/8/8/8/8/8/RR2K2R w KQkq - 0 1", 1 },
        { "4k3/8/8/8/8/8/8/4KR1R w F - 0 1", 0, "4k3/8/8/8/8/8/8/4KR1R w F - 0 1", 1 },
        { "4k3/8/8/8/8/8/8/4KR1R w K - 0 1", 1, "4k3/8/8/8/8/8/8/4KR1R w K - 0 1", 1 },
        { "4k3/8/8/8/8/8/8/4KR1R w K - 0 1", 0, "4k3/8/8/8/8/8/8/4KR1R w K - 0 1", 0 },
        /* rights without their rook or king are dropped: no h1 rook for a standard K (the
         * king on e1), none on the file named, the rook on the king's file, the king off its
         * first rank */
        { "4k3/8/8/8/8/8/8/4K1R1 w K - 0 1", 0, "4k3/8/8/8/8/8/8/4K1R1 w - - 0 1", 0 },
        { "4k3/8/8/8/8/8/8/4K1R1 w K - 0 1", 1, "4k3/8/8/8/8/8/8/4K1R1 w G - 0 1", 1 },
        /* the outermost rooks off the corners beside a king on the e-file: their letters (a
         * file letter made kq X-FEN's; written back as kq they would read as the corners') */
        { "1r2k1r1/8/8/8/8/8/8/B1K2R1R w DQkq - 0 1", 0, "1r2k1r1/8/8/8/8/8/8/B1K2R1R w gb - 0 1", 1 },
        { "1r2k1r1/8/8/8/8/8/8/B1K2R1R w kq - 0 1", 1, "1r2k1r1/8/8/8/8/8/8/B1K2R1R w gb - 0 1", 1 },
        { "4k3/8/8/8/8/8/8/4K2R w G - 0 1", 0, "4k3/8/8/8/8/8/8/4K2R w - - 0 1", 0 },
        { "4k3/8/8/8/8/8/8/R3K3 w E - 0 1", 0, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", 0 },
        { "4k3/8/8/8/8/8/4K3/R6R w HA - 0 1", 0, "4k3/8/8/8/8/8/4K3/R6R w - - 0 1", 0 },
        { "r6r/4k3/8/8/8/8/8/1R2K1R1 w GBha - 0 1", 0, "r6r/4k3/8/8/8/8/8/1R2K1R1 w GB - 0 1", 1 },
    };
    static const struct { const char *fen, *message; } BAD[] = {
        { "4k3/8/8/8/8/8/8/4K2R w KH - 0 1", "castling right 'H' given twice" },
        { "4k3/8/8/8/8/8/8/4KR1R w FH - 0 1", "castling right 'H' given twice" },
        { "4k3/8/8/8/8/8/8/4K2R w I - 0 1", "unexpected character 'I' in the castling field" },
        { "4k3/8/8/8/8/8/8/4K2R w Hi - 0 1", "unexpected character 'i' in the castling field" },
    };
    size_t i;
    for (i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        Board b;
        char err[200] = "", out[FEN_MAX] = "", detail[400];
        int ok = board_from_fen_960(&b, CASES[i].in, CASES[i].chess960, err, sizeof err);
        if (ok)
            board_to_fen(&b, out);
        snprintf(detail, sizeof detail, "'%s' (chess960 %d) gave '%s' (chess960 %d) %s", CASES[i].in,
                 CASES[i].chess960, out, ok ? b.chess960 : -1, err);
        check(ok && strcmp(out, CASES[i].out) == 0 && b.chess960 == CASES[i].is_960 && board_is_ok(&b),
              "Chess960 FEN", detail);
        if (ok)
            check(fen_reads_back(&b, out), "Chess960 FEN read back as standard: the same rights and rooks", detail);
    }
    for (i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        Board b;
        char err[200] = "";
        int ok = board_from_fen_960(&b, BAD[i].fen, 1, err, sizeof err);
        check(!ok && strcmp(err, BAD[i].message) == 0, "Chess960 FEN refused", BAD[i].fen);
    }
}

/* The mirror of a Chess960 position castles the same way with the colours swapped. */
static void test_chess960_mirror(void)
{
    Board b, m;
    char err[200], out[FEN_MAX];
    board_from_fen_960(&b, "r1k4r/p1pppp1p/8/8/8/8/P1PPPP1P/R4RK1 b kq - 1 1", 1, err, sizeof err);
    board_mirror(&b, &m);
    board_to_fen(&m, out);
    check(strcmp(out, "r4rk1/p1pppp1p/8/8/8/8/P1PPPP1P/R1K4R w KQ - 1 1") == 0 && m.chess960 && board_is_ok(&m)
          && perft(&b, 3) == perft(&m, 3), "Chess960 mirror", out);
}

/* board_is_ok notices castling fields that disagree with the board. */
static void test_chess960_board_is_ok(void)
{
    Board b, bad;
    char err[200];
    board_from_fen_960(&b, "2rk3r/pppppppp/8/8/8/8/PPPPPPPP/R4KR1 w GAhc - 0 1", 1, err, sizeof err);
    check(board_is_ok(&b), "board_is_ok on a Chess960 board", "GAhc");
    bad = b;
    bad.castle_rook[0] = 5; /* the king's square, not a rook */
    check(!board_is_ok(&bad), "board_is_ok: a right without its rook", "GAhc");
    bad = b;
    bad.chess960 = 0;
    check(!board_is_ok(&bad), "board_is_ok: Chess960 rights on a standard board", "GAhc");
    bad = b;
    bad.castle_keep[6] = 15;
    check(!board_is_ok(&bad), "board_is_ok: a castling rook's square that keeps its right", "GAhc");
    bad = b;
    bad.castle_empty[1] = 0;
    check(!board_is_ok(&bad), "board_is_ok: a castling's path", "GAhc");
}

/* A castling token in a position: its SAN, its coordinates king to destination and king
 * taking rook, and the position after it (NULL: the token is not legal there). */
static void expect_castling(const char *fen, const char *token, const char *san, const char *to_dest,
                            const char *takes_rook, const char *after)
{
    Board b;
    Move m = MOVE_NONE;
    Undo u;
    uint64_t key;
    char err[200], got_san[SAN_MAX] = "", dest[6] = "", rook[6] = "", out[FEN_MAX] = "", back[FEN_MAX] = "";
    char before[FEN_MAX], detail[600];
    ParseResult r;
    int ok;
    board_from_fen_960(&b, fen, 1, err, sizeof err);
    board_to_fen(&b, before);
    key = b.key;
    r = move_from_text(&b, token, &m);
    if (!san) {
        snprintf(detail, sizeof detail, "'%s' in %s: result %d", token, fen, r);
        check(r == PARSE_ILLEGAL, "Chess960 castling refused", detail);
        return;
    }
    if (r == PARSE_OK) {
        move_to_san(&b, m, got_san);
        move_to_coords(&b, m, 0, dest);
        move_to_coords(&b, m, 1, rook);
        board_make(&b, m, &u);
        board_to_fen(&b, out);
        ok = board_is_ok(&b);
        board_unmake(&b, m, &u);
        board_to_fen(&b, back);
        ok = ok && board_is_ok(&b) && b.key == key;
    } else {
        ok = 0;
    }
    snprintf(detail, sizeof detail, "'%s' in %s: %s %s %s, then %s", token, fen, got_san, dest, rook, out);
    check(ok && move_kind(m) == KIND_CASTLE && m != MOVE_NONE && !move_is_capture(&b, m) && move_is_legal(&b, m)
          && strcmp(got_san, san) == 0 && strcmp(dest, to_dest) == 0 && strcmp(rook, takes_rook) == 0
          && strcmp(out, after) == 0 && strcmp(back, before) == 0, "Chess960 castling", detail);
}

/* Castling in the corner cases of Chess960: king or rook already on its destination, each on
 * the other's, the king moving right to castle on the queen side, the rook shielding its king;
 * also a standard castling written as the king taking its rook. */
static void test_chess960_castling(void)
{
    const char *on_g1 = "r1k4r/p1pppp1p/8/8/8/8/P1PPPP1P/R5KR w HAha - 0 1";
    const char *swap = "2rk3r/pppppppp/8/8/8/8/PPPPPPPP/R4KR1 w GAhc - 0 1";
    const char *on_b1 = "rk6/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAa - 0 1";
    const char *shield = "4k3/8/8/8/8/8/8/qRK4R w HB - 0 1";
    const char *shield_black = "Qrk4r/8/8/8/8/8/8/4K3 b hb - 0 1";
    const char *POSITIONS[] = { on_g1, swap, on_b1, shield, shield_black };
    size_t i;
    /* the position, the move as given, then its SAN, its destination in coordinates, its rook
     * square in Chess960 coordinates and the position after it; a refusal has NULLs */
    static const struct { const char *fen, *token, *san, *to, *rook, *after; } CASES[] = {
        { "r1k4r/p1pppp1p/8/8/8/8/P1PPPP1P/R5KR w HAha - 0 1", "O-O", "O-O", "g1g1", "g1h1", "r1k4r/p1pppp1p/8/8/8/8/P1PPPP1P/R4RK1 b kq - 1 1" },
        { "r1k4r/p1pppp1p/8/8/8/8/P1PPPP1P/R5KR w HAha - 0 1", "g1h1", "O-O", "g1g1", "g1h1", "r1k4r/p1pppp1p/8/8/8/8/P1PPPP1P/R4RK1 b kq - 1 1" },
        { "r1k4r/p1pppp1p/8/8/8/8/P1PPPP1P/R5KR w HAha - 0 1", "g1g1", "O-O", "g1g1", "g1h1", "r1k4r/p1pppp1p/8/8/8/8/P1PPPP1P/R4RK1 b kq - 1 1" },
        { "r1k4r/p1pppp1p/8/8/8/8/P1PPPP1P/R5KR w HAha - 0 1", "0-0-0", "O-O-O", "g1c1", "g1a1", "r1k4r/p1pppp1p/8/8/8/8/P1PPPP1P/2KR3R b kq - 1 1" },
        { "r1k4r/p1pppp1p/8/8/8/8/P1PPPP1P/R5KR w HAha - 0 1", "g1c1", "O-O-O", "g1c1", "g1a1", "r1k4r/p1pppp1p/8/8/8/8/P1PPPP1P/2KR3R b kq - 1 1" },
        { "2rk3r/pppppppp/8/8/8/8/PPPPPPPP/R4KR1 w GAhc - 0 1", "O-O", "O-O", "f1g1", "f1g1", "2rk3r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 b kq - 1 1" },
        { "2rk3r/pppppppp/8/8/8/8/PPPPPPPP/R4KR1 w GAhc - 0 1", "f1a1", "O-O-O", "f1c1", "f1a1", "2rk3r/pppppppp/8/8/8/8/PPPPPPPP/2KR2R1 b kq - 1 1" },
        { "2rk3r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 b kq - 1 1", "O-O-O", "O-O-O", "d8c8", "d8c8", "2kr3r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 w - - 2 2" },
        { "rk6/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAa - 0 1", "b1a1", "O-O-O", "b1c1", "b1a1", "rk6/pppppppp/8/8/8/8/PPPPPPPP/2KR3R b q - 1 1" },
        { "rk6/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAa - 0 1", "O-O", "O-O", "b1g1", "b1h1", "rk6/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 b q - 1 1" },
        { "4k3/8/8/8/8/8/8/qRK4R w HB - 0 1", "O-O-O", NULL, NULL, NULL, NULL },
        { "4k3/8/8/8/8/8/8/qRK4R w HB - 0 1", "c1b1", NULL, NULL, NULL, NULL },
        { "4k3/8/8/8/8/8/8/qRK4R w HB - 0 1", "c1h1", "O-O", "c1g1", "c1h1", "4k3/8/8/8/8/8/8/qR3RK1 b - - 1 1" },
        { "Qrk4r/8/8/8/8/8/8/4K3 b hb - 0 1", "O-O-O", NULL, NULL, NULL, NULL },
        { "Qrk4r/8/8/8/8/8/8/4K3 b hb - 0 1", "O-O", "O-O", "c8g8", "c8h8", "Qr3rk1/8/8/8/8/8/8/4K3 w - - 1 2" },
        { "3k4/8/8/8/8/8/8/RK6 w A - 0 1", "O-O-O", "O-O-O+", "b1c1", "b1a1", "3k4/8/8/8/8/8/8/2KR4 b - - 1 1" },
        { "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1h1", "O-O", "e1g1", "e1h1", "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1" },
        { "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1a1", "O-O-O", "e1c1", "e1a1", "r3k2r/8/8/8/8/8/8/2KR3R b kq - 1 1" },
    };
    for (i = 0; i < sizeof CASES / sizeof CASES[0]; i++)
        expect_castling(CASES[i].fen, CASES[i].token, CASES[i].san, CASES[i].to, CASES[i].rook, CASES[i].after);
    /* a king's move to the castling's destination stays the king's move */
    expect_parse(on_b1, "b1c1", "Kc1");
    expect_parse(on_b1, "Kc1", "Kc1");
    chess960 = 1;
    for (i = 0; i < sizeof POSITIONS / sizeof POSITIONS[0]; i++)
        test_move_validation(POSITIONS[i]);
    chess960 = 0;
}

/* A Chess960 suite's FEN (X-FEN or Shredder-FEN castling) and the X-FEN board_to_fen writes
 * for it describe one position: the same fields but for castling, the same castling rights with
 * the same rooks, the same key; and that X-FEN comes back as itself. */
static void test_chess960_fen_round_trip(const char *fen)
{
    Board b, back;
    char err[200], out[FEN_MAX], detail[400];
    const char *in_rest, *out_rest;
    int i, same_rights = 1;
    if (!load_fen(&b, fen, err, sizeof err)) {
        check(0, "Chess960 FEN round trip: the FEN is refused", fen);
        return;
    }
    board_to_fen(&b, out);
    snprintf(detail, sizeof detail, "'%s' came back as '%s'", fen, out);
    /* the placement and side (before the castling field), then the fields after it */
    in_rest = strchr(strchr(fen, ' ') + 1, ' ');
    out_rest = strchr(strchr(out, ' ') + 1, ' ');
    check(in_rest && out_rest && in_rest - fen == out_rest - out && strncmp(fen, out, (size_t)(in_rest - fen)) == 0
              && strcmp(strchr(in_rest + 1, ' '), strchr(out_rest + 1, ' ')) == 0,
          "Chess960 FEN round trip: the fields but castling", detail);
    if (!load_fen(&back, out, err, sizeof err)) {
        check(0, "Chess960 FEN round trip: the X-FEN written is refused", detail);
        return;
    }
    for (i = 0; i < CASTLE_RIGHTS; i++)
        same_rights &= back.castle_rook[i] == b.castle_rook[i];
    check(back.castling == b.castling && same_rights && back.key == b.key && back.chess960 == b.chess960,
          "Chess960 FEN round trip: the castling rights and their rooks", detail);
    test_fen_round_trip(out);
}

int main(int argc, char **argv)
{
    unsigned long long cap = argc > 1 ? strtoull(argv[1], NULL, 10) : 10000000ULL;
    const char *paths[2];
    int positions = 0, suite;
    paths[0] = argc > 2 ? argv[2] : "tests/data/perft.epd";
    paths[1] = argc > 3 ? argv[3] : "tests/data/perft960.epd";
    if (!eval_init()) {
        printf("out of memory\n0 passed, 1 failed\n");
        return 1;
    }
    for (suite = 0; suite < 2; suite++) {
        FILE *f = fopen(paths[suite], "r");
        char line[1024];
        if (!f) {
            printf("cannot open %s\n0 passed, 1 failed\n", paths[suite]);
            return 1;
        }
        int read = 0, data_lines = 0;
        chess960 = suite == 1;
        while (fgets(line, sizeof line, f)) {
            unsigned long long counts[16];
            char *fen, detail[1100];
            line[strcspn(line, "\r\n")] = '\0';
            if (line[0] == '\0' || line[0] == '#')
                continue;
            data_lines++;
            if (!parse_epd(line, &fen, counts)) {
                snprintf(detail, sizeof detail, "%s line '%s'", paths[suite], line);
                check(0, "perft suite: a line that is not 'FEN ;D1 n ...'", detail);
                continue;
            }
            while (*fen && fen[strlen(fen) - 1] == ' ')
                fen[strlen(fen) - 1] = '\0';
            positions++;
            read++;
            test_perft_position(fen, counts, cap);
            /* the standard suite's FENs are written as board_to_fen writes them; the Chess960
             * suite's may use Shredder-FEN castling, which comes back as X-FEN */
            if (suite == 0)
                test_fen_round_trip(fen);
            else
                test_chess960_fen_round_trip(fen);
            test_san_round_trip(fen);
            test_eval_symmetry(fen);
            check_tree(fen, gives_check_agrees, "move_checks agrees with making the move");
            check_tree(fen, move_kinds_agree, "the noisy and the quiet moves are the legal ones, each once");
            check_tree(fen, key_after_agrees, "board_key_after gives the key of making the move");
            test_accumulators(fen, positions % 10 == 0 ? 2 : 1);
            if (positions % 4 == 0)
                test_move_validation(fen);
        }
        fclose(f);
        snprintf(line, sizeof line, "%s: %d positions of %d lines", paths[suite], read, data_lines);
        check(read > 0 && read == data_lines, "perft suite: every line read", line);
        printf("unit: %s\n", line);
    }
    chess960 = 0;
    test_tolerant_forms();
    test_san_output();
    test_fen_validation();
    test_eval_knowledge();
    test_game_status();
    test_chess960_fen();
    test_chess960_mirror();
    test_chess960_board_is_ok();
    test_chess960_castling();
    printf("unit: %d perft positions (counts up to %llu nodes)\n", positions, cap);
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
