/* modes/genfens.c: `engine "genfens N seed S book FILE|None" quit`, the openings OpenBench's
 * client asks an engine for before its data generation (docs/command-line.md): N varied, legal,
 * roughly balanced positions, the same for a seed, each on a line `info string genfens FEN`. */
#include "common.h"
#include "games.h"

#include <stdlib.h>
#include <string.h>

/* An opening: the start position and 8 or 9 random plies, or a book's position and 2 or 3; kept
 * when the side to move has a move, the game is not drawn, and a search of GENFENS_NODES nodes
 * (a table and history cleared each time, so that the same seed gives the same openings) scores it within
 * GENFENS_MARGIN centipawns. GENFENS_TRIES openings drawn for each kept, at most. */
enum { GENFENS_PLIES = 8, GENFENS_BOOK_PLIES = 2, GENFENS_PLIES_SPAN = 2 };
enum { GENFENS_NODES = 5000, GENFENS_MARGIN = 150, GENFENS_TRIES = 1000, GENFENS_MAX = 10000000 };
enum { GENFENS_TABLE_MB = 1 };        /* the searches' table, plenty for their nodes */
/* sets the openings' generator apart from datagen's for the same seed */
#define GENFENS_MIX UINT64_C(0x9FB21C651E98DF25)

/* prototypes */
static int genfens_parse(const char *command, long long *count, uint64_t *seed, const char **book, size_t *book_length);
static int genfens_draw(Search *s, const Board *openings, int opening_count, int book, uint64_t *state, Board *b);

/* Runs the command `genfens N seed S book FILE|None [more]` (one argument, as OpenBench passes
 * it; words after the book are OpenBench's extra options, which this engine takes none of);
 * returns 0, or an exit status after one error line. */
int run_genfens(Search *s, const char *command)
{
    char path[4096], fen[FEN_MAX];
    const char *book;
    size_t book_length;
    long long count, made = 0, tries = 0;
    uint64_t state;
    Board *openings = NULL, b;
    int opening_count = 0, status;
    if (!genfens_parse(command, &count, &state, &book, &book_length)) {
        print_line(stderr, "error: usage: engine \"genfens N seed S book FILE|None\" [quit] (got '%.200s')", command);
        return EXIT_USAGE;
    }
    state = random_seed(state ^ GENFENS_MIX);
    search_set_table(s, GENFENS_TABLE_MB);
    snprintf(path, sizeof path, "%.*s", (int)book_length, book);
    status = openings_load(strcmp(path, "None") == 0 ? NULL : path, 0, &openings, &opening_count);
    while (status == 0 && made < count) {
        if (++tries > count * GENFENS_TRIES) {
            fprintf(stderr, "error: genfens: %lld openings of %lld found balanced after %lld tries\n", made, count, tries - 1);
            status = EXIT_FAILURE;
        } else if (genfens_draw(s, openings, opening_count, strcmp(path, "None") != 0, &state, &b)) {
            board_to_fen(&b, fen);
            printf("info string genfens %s\n", fen);
            made++;
        }
    }
    free(openings);
    return status;
}

/* Reads `genfens N seed S book B`; returns 1 with the count, the seed and the book's word. */
static int genfens_parse(const char *command, long long *count, uint64_t *seed, const char **book, size_t *book_length)
{
    static const char *const WORDS[] = { "genfens", NULL, "seed", NULL, "book", NULL };
    const char *token[6];
    char number[32];
    size_t length[6];
    long long value;
    int i;
    for (i = 0; i < 6; i++) {
        token[i] = next_token(&command, &length[i]);
        if (!token[i] || (WORDS[i] && (length[i] != strlen(WORDS[i]) || strncmp(token[i], WORDS[i], length[i]) != 0)))
            return 0;
    }
    snprintf(number, sizeof number, "%.*s", (int)(length[1] < 31 ? length[1] : 31), token[1]);
    if (!parse_integer(number, 1, GENFENS_MAX, count))
        return 0;
    snprintf(number, sizeof number, "%.*s", (int)(length[3] < 31 ? length[3] : 31), token[3]);
    if (!parse_integer(number, 0, (long long)1e18, &value))
        return 0;
    *seed = (uint64_t)value;
    *book = token[5];
    *book_length = length[5];
    return 1;
}

/* Draws an opening into b (a book position, or the start position without a book, then its
 * random plies); returns 1 if it is playable and roughly balanced. */
static int genfens_draw(Search *s, const Board *openings, int opening_count, int book, uint64_t *state, Board *b)
{
    MoveList list;
    Limits limits;
    int plies = (book ? GENFENS_BOOK_PLIES : GENFENS_PLIES) + (int)(random_next(state) % GENFENS_PLIES_SPAN), i;
    *b = openings[random_next(state) % (uint64_t)opening_count];
    for (i = 0; i < plies; i++) {
        Undo u;
        if (gen_legal(b, &list, GEN_ALL) == 0)
            return 0;
        board_make(b, random_move(b, state), &u);
    }
    if (gen_legal(b, &list, GEN_ALL) == 0 || board_status(b, NULL, 0) != STATUS_PLAY)
        return 0;
    memset(&limits, 0, sizeof limits);
    limits.start = clock_now();
    limits.node_limit = GENFENS_NODES;
    search_new_game(s);
    search_run(s, b, NULL, 0, NULL, 0, &limits);
    return abs(search_best_score(s)) <= GENFENS_MARGIN;
}
