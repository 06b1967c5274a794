/* tests/endgame.c: the engine, playing both sides with a fixed node budget per move
 * through the one-shot decision, mates a lone king with K+Q, K+R and K+B+N within the
 * fifty-move rule; and those calls' table is the size their nodes fill, not their 60 s.
 * Linked with the engine and modes/common.c, so that it calls the same decide() as the
 * command line. Ends with "N passed, N failed". */
#include "../modes/common.h"

#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv);

static Search *context; /* the test's search context, as main's in modes/cli.c */

/* the most megabytes a call of a node budget may ask for its table: two 16-byte entries a node,
 * rounded up (a 60 s call without one asks for 64) */
static size_t table_megabytes_max(long long nodes)
{
    return (size_t)(nodes * 2 * 16 / (1024 * 1024)) + 1;
}

/* Plays from fen until mate, a draw by rule, or max_plies; returns the plies to mate or -1. */
static int play_out(const char *fen, long long nodes, int max_plies)
{
    Board b;
    char err[200], warning[WARNING_MAX + 100], list[MAX_MOVES * SAN_MAX];
    int ply;
    if (!board_from_fen(&b, fen, err, sizeof err))
        return -1;
    for (ply = 0; ply < max_plies; ply++) {
        MoveList moves;
        Limits limits;
        char current[FEN_MAX];
        size_t used = 0;
        int i, index = -1;
        gen_legal(&b, &moves, GEN_ALL);
        if (moves.count == 0 && !board_in_check(&b)) {
            board_to_fen(&b, current);
            printf("stalemate at %s\n", current);
        }
        if (moves.count == 0)
            return board_in_check(&b) ? ply : -1;
        if (board_drawn_by_rule(&b, NULL, 0, 1)) {
            board_to_fen(&b, current);
            printf("draw by rule at %s\n", current);
            return -1;
        }
        for (i = 0; i < moves.count; i++) {
            char san[SAN_MAX];
            move_to_san(&b, moves.moves[i], san);
            used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? " " : "", san);
        }
        memset(&limits, 0, sizeof limits);
        limits.node_limit = (uint64_t)nodes;
        limits.start = clock_now();
        board_to_fen(&b, current);
        if (decide(context, current, list, 60, &limits, &index, err, sizeof err, warning, sizeof warning) != 0 || index < 0) {
            printf("decide failed at %s: %s\n", current, err);
            return -1;
        }
        {
            Undo u;
            if (getenv("ENDGAME_TRACE")) {
                char san[SAN_MAX];
                move_to_san(&b, moves.moves[index], san);
                printf("%s ", san);
            }
            board_make(&b, moves.moves[index], &u);
        }
    }
    return -1;
}

int main(int argc, char **argv)
{
    static const struct { const char *name, *fen; } CASES[] = {
        { "K+Q v K", "8/8/8/4k3/8/8/8/3QK3 w - - 0 1" },
        { "K+R v K", "8/8/8/4k3/8/8/8/4K2R w - - 0 1" },
        { "K+R v K, black", "4k2r/8/8/8/3K4/8/8/8 b - - 0 1" },
        { "K+B+N v K", "8/8/8/4k3/8/8/8/2B1KN2 w - - 0 1" },
        { "K+B+N v K, light bishop", "8/8/3k4/8/8/8/8/4KBN1 w - - 0 1" },
    };
    long long nodes = argc > 1 ? atoll(argv[1]) : 200000;
    int passed = 0, failed = 0;
    size_t i;
    if (!engine_init() || (context = search_new()) == NULL)
        return 1;
    for (i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        int plies = play_out(CASES[i].fen, nodes, 100);
        if (plies > 0) {
            passed++;
            printf("%s: mate in %d plies\n", CASES[i].name, plies);
        } else {
            failed++;
            printf("FAIL %s: no mate within 100 plies at %lld nodes per move\n", CASES[i].name, nodes);
        }
    }
    if (search_table_megabytes(context) <= table_megabytes_max(nodes)) {
        passed++;
    } else {
        failed++;
        printf("FAIL a call of %lld nodes and 60 s asked for a table of %zu MB, more than its nodes fill\n", nodes,
               search_table_megabytes(context));
    }
    search_free(context);
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
