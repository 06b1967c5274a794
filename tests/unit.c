/* tests/unit.c: the rules and evaluation tests. Perft over tests/perft.epd (counts
 * up to a node cap), FEN and SAN round trips, tolerant SAN input, the game's status,
 * evaluation symmetry. Usage: unit [PERFT_NODE_CAP] [EPD]. Ends with "N passed, N failed". */
#include "../extra.h"
#include "../movement.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int passed, failed;

static void check(int ok, const char *what, const char *detail)
{
    if (ok) {
        passed++;
    } else {
        failed++;
        printf("FAIL %s: %s\n", what, detail);
    }
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
    if (!board_from_fen(&b, fen, err, sizeof err)) {
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

/* FEN out of FEN in gives the same text; the mirror's mirror is the board again. */
static void test_fen_round_trip(const char *fen)
{
    Board b, m, mm;
    char err[200], out[FEN_MAX], detail[400];
    if (!board_from_fen(&b, fen, err, sizeof err))
        return;
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
    if (!board_from_fen(&b, fen, err, sizeof err))
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
        move_to_uci(m, uci);
        back = MOVE_NONE;
        if (move_from_text(&b, uci, &back) != PARSE_OK || back != m) {
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
    if (!board_from_fen(&b, fen, err, sizeof err))
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

static void test_gives_check(const char *fen)
{
    Board b;
    char err[200];
    if (!board_from_fen(&b, fen, err, sizeof err))
        return;
    check(gives_check_agrees(&b, 2), "move_checks agrees with making the move", fen);
}

static void test_eval_symmetry(const char *fen)
{
    static Accumulator acc, mirrored_acc;
    Board b, m;
    char err[200], detail[400];
    int e1, e2;
    if (!board_from_fen(&b, fen, err, sizeof err))
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
    if (!board_from_fen(&b, fen, err, sizeof err))
        return;
    nnue_refresh(&root, &b);
    snprintf(detail, sizeof detail, "%s (depth %d)", fen, depth);
    check(accumulators_agree(&b, &root, depth, where, sizeof where), "network accumulators follow make/unmake", detail);
    if (where[0])
        printf("  first difference after reaching %s\n", where);
}

/* A token in a position parses (or not) to the expected SAN. */
static void expect_parse(const char *fen, const char *token, ParseResult want, const char *want_san)
{
    Board b;
    Move m = MOVE_NONE;
    char err[200], san[SAN_MAX] = "", detail[400];
    ParseResult r;
    board_from_fen(&b, fen, err, sizeof err);
    r = move_from_text(&b, token, &m);
    if (r == PARSE_OK)
        move_to_san(&b, m, san);
    snprintf(detail, sizeof detail, "'%s' in %s: result %d '%s', expected %d '%s'", token, fen, r, san, want,
             want_san ? want_san : "");
    check(r == want && (!want_san || strcmp(san, want_san) == 0), "tolerant parse", detail);
}

static void test_tolerant_forms(void)
{
    const char *start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    const char *castle = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    const char *promo = "8/4P1k1/8/8/8/8/8/4K3 w - - 0 1";
    const char *ep = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2";
    const char *knights = "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1";
    expect_parse(start, "e4", PARSE_OK, "e4");
    expect_parse(start, "e2e4", PARSE_OK, "e4");
    expect_parse(start, "e2-e4", PARSE_OK, "e4");
    expect_parse(start, "Ng1f3", PARSE_OK, "Nf3");
    expect_parse(start, "Ngf3", PARSE_OK, "Nf3");
    expect_parse(start, "g1f3", PARSE_OK, "Nf3");
    expect_parse(start, "Nf3+", PARSE_OK, "Nf3");
    expect_parse(start, "e5", PARSE_ILLEGAL, NULL);
    expect_parse(start, "Qh5", PARSE_ILLEGAL, NULL);
    expect_parse(start, "hello", PARSE_MALFORMED, NULL);
    expect_parse(start, "", PARSE_MALFORMED, NULL);
    expect_parse(castle, "O-O", PARSE_OK, "O-O");
    expect_parse(castle, "0-0", PARSE_OK, "O-O");
    expect_parse(castle, "O-O-O", PARSE_OK, "O-O-O");
    expect_parse(castle, "0-0-0", PARSE_OK, "O-O-O");
    expect_parse(castle, "e1g1", PARSE_OK, "O-O");
    expect_parse(castle, "e1c1", PARSE_OK, "O-O-O");
    expect_parse(promo, "e8=Q", PARSE_OK, "e8=Q");
    expect_parse(promo, "e8Q", PARSE_OK, "e8=Q");
    expect_parse(promo, "e8=N", PARSE_OK, "e8=N+");
    expect_parse(promo, "e7e8q", PARSE_OK, "e8=Q");
    expect_parse(promo, "e7e8n", PARSE_OK, "e8=N+");
    expect_parse(promo, "e8", PARSE_ILLEGAL, NULL);
    expect_parse(promo, "e8=K", PARSE_MALFORMED, NULL);
    expect_parse(ep, "exd6", PARSE_OK, "exd6");
    expect_parse(ep, "exd6e.p.", PARSE_OK, "exd6");
    expect_parse(ep, "exd6 e.p.", PARSE_MALFORMED, NULL);
    expect_parse(ep, "e5d6", PARSE_OK, "exd6");
    expect_parse(knights, "Nd2", PARSE_AMBIGUOUS, NULL);
    expect_parse(knights, "Nbd2", PARSE_OK, "Nbd2");
    expect_parse(knights, "Nfd2", PARSE_OK, "Nfd2");
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

int main(int argc, char **argv)
{
    unsigned long long cap = argc > 1 ? strtoull(argv[1], NULL, 10) : 10000000ULL;
    const char *path = argc > 2 ? argv[2] : "tests/perft.epd";
    FILE *f = fopen(path, "r");
    char line[1024];
    int positions = 0;
    if (!f) {
        printf("cannot open %s\n0 passed, 1 failed\n", path);
        return 1;
    }
    while (fgets(line, sizeof line, f)) {
        unsigned long long counts[16];
        char *fen, canonical[FEN_MAX];
        Board b;
        char err[200];
        line[strcspn(line, "\r\n")] = '\0';
        if (!parse_epd(line, &fen, counts))
            continue;
        while (*fen && fen[strlen(fen) - 1] == ' ')
            fen[strlen(fen) - 1] = '\0';
        positions++;
        test_perft_position(fen, counts, cap);
        if (board_from_fen(&b, fen, err, sizeof err)) {
            board_to_fen(&b, canonical);
            test_fen_round_trip(canonical);
        }
        test_san_round_trip(fen);
        test_eval_symmetry(fen);
        test_gives_check(fen);
        test_accumulators(fen, positions % 10 == 0 ? 2 : 1);
        if (positions % 4 == 0)
            test_move_validation(fen);
    }
    fclose(f);
    test_tolerant_forms();
    test_san_output();
    test_fen_validation();
    test_eval_knowledge();
    test_game_status();
    printf("unit: %d perft positions (counts up to %llu nodes)\n", positions, cap);
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
