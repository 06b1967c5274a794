/* modes/games.c: a game as match and datagen play it: its record, our search's move as UCI
 * searches it, its end by the rules, openings from a file (or Chess960's 960), a random mover. */
#include "games.h"
#include "common.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* prototypes */
static int openings_add(Board **openings, int *count, int *capacity, const Board *b);
static int opening_fen(const char *line, char *fen, size_t size);

/* Starts g from the position start, b, whose key is the first of keys; no result yet. */
void game_begin(Game *g, const Board *b, uint64_t *keys)
{
    g->start = *b;
    g->ply_count = 0;
    g->result[0] = '\0';
    keys[0] = b->key;
}

/* Plays m in the game: the move recorded, the board moved on, its key kept. */
void game_play(Game *g, Board *b, uint64_t *keys, Move m)
{
    Undo u;
    g->moves[g->ply_count++] = m;
    board_make(b, m, &u);
    keys[g->ply_count] = b->key;
}

/* Searches every legal move of board (one at least) in s within limits as the UCI engine does
 * in a game, so that a fixed-node match against our own UCI build is between equals: a table
 * of the UCI default size and the history kept from move to move and cleared when new_game is
 * set, keys being the game's positions so far. Returns the move; its score (side to move's
 * view) is search_best_score and the depth completed search_completed_depth (0: no score). */
Move game_search_move(Search *s, const Board *board, const uint64_t *keys, int key_count, const Limits *limits,
                      int new_game)
{
    Limits game = *limits;
    if (search_table_megabytes(s) != HASH_DEFAULT_MB)
        search_set_table(s, HASH_DEFAULT_MB);
    if (new_game)
        search_new_game(s);
    game.keep_history = 1;
    search_run(s, board, keys, key_count, NULL, 0, &game);
    return search_best_move(s);
}

/* Referees the game after its last move: if it is over, by the rules (board_status, keys
 * holding every position of the game) or after GAME_MAX_PLIES plies (adjudicated a draw),
 * records the result (game_end) and returns 1; else returns 0. */
int game_referee(Game *g, Board *b, const uint64_t *keys)
{
    GameStatus status = board_status(b, keys, g->ply_count + 1);
    if (status == STATUS_CHECKMATE)
        return game_end(g, b->side == WHITE ? "0-1" : "1-0", "normal", game_status_name(status));
    if (status != STATUS_PLAY)
        return game_end(g, "1/2-1/2", "normal", game_status_name(status));
    if (g->ply_count >= GAME_MAX_PLIES)
        return game_end(g, "1/2-1/2", "adjudication", "ply limit reached");
    return 0;
}

/* Records how the game ended; returns 1. */
int game_end(Game *g, const char *result, const char *termination, const char *reason)
{
    snprintf(g->result, sizeof g->result, "%s", result);
    snprintf(g->termination, sizeof g->termination, "%s", termination);
    snprintf(g->reason, sizeof g->reason, "%s", reason);
    return 1;
}

/* Reads the openings file (one FEN or EPD line each) into a new array, or makes the start
 * position the only opening without a file; returns 0, or an exit status after one error line. */
int openings_load(const char *path, int chess960, Board **openings, int *count)
{
    char line[1024], fen[FEN_MAX + 100], err[200];
    int number = 0, capacity = 0, status = 0;
    FILE *f = path ? fopen(path, "r") : NULL;
    Board b;
    *openings = NULL;
    *count = 0;
    if (!path && chess960) {
        for (number = 0; number < CHESS960_POSITIONS && status == 0; number++) {
            chess960_position(number, &b);
            status = openings_add(openings, count, &capacity, &b);
        }
        return status;
    }
    if (!path) {
        board_start(&b);
        return openings_add(openings, count, &capacity, &b);
    }
    if (!f) {
        fprintf(stderr, "error: cannot read %s\n", path);
        return EXIT_USAGE;
    }
    while (status == 0 && fgets(line, sizeof line, f)) {
        number++;
        if (!opening_fen(line, fen, sizeof fen))
            continue;
        if (board_from_fen_960(&b, fen, chess960, err, sizeof err))
            status = openings_add(openings, count, &capacity, &b);
        else if ((status = EXIT_BAD_FEN) != 0)
            fprintf(stderr, "error: %s line %d: %s\n", path, number, err);
    }
    fclose(f);
    if (status == 0 && *count == 0) {
        fprintf(stderr, "error: %s holds no position\n", path);
        status = EXIT_USAGE;
    }
    return status;
}

/* Sets b to Chess960 start position `number` (0 to 959) in Reinhard Scharnagl's numbering (518 is
 * the standard one): the light-squared bishop on file b, d, f or h by number % 4, then the
 * dark-squared one on a, c, e or g, the queen on one of the six squares left, the knights on two
 * of the five left (CHESS960_KNIGHTS), and rook, king, rook on the last three. */
void chess960_position(int number, Board *b)
{
    static const char CHESS960_KNIGHTS[10][2] = {
        { 0, 1 }, { 0, 2 }, { 0, 3 }, { 0, 4 }, { 1, 2 }, { 1, 3 }, { 1, 4 }, { 2, 3 }, { 2, 4 }, { 3, 4 }
    };
    char rank[9] = "        ", fen[FEN_MAX], err[80];
    const char *pair;
    int free_index, file, i, left;
    rank[2 * (number % 4) + 1] = 'B';
    number /= 4;
    rank[2 * (number % 4)] = 'B';
    number /= 4;
    /* the queen, the knights, then R K R, each on the n-th of the files still free */
    for (i = 0; i < 3; i++) {
        int nth = i == 0 ? number % 6 : CHESS960_KNIGHTS[number / 6][i - 1] - (i - 1);
        for (file = 0, free_index = -1; file < 8; file++)
            if (rank[file] == ' ' && ++free_index == nth)
                break;
        rank[file] = i == 0 ? 'Q' : 'N';
    }
    for (file = 0, left = 0, pair = "RKR"; file < 8; file++)
        if (rank[file] == ' ')
            rank[file] = pair[left++];
    snprintf(fen, sizeof fen, "%s/pppppppp/8/8/8/8/PPPPPPPP/%s w KQkq - 0 1", rank, rank);
    for (i = 0; i < 8; i++)
        fen[i] = (char)tolower((unsigned char)fen[i]);
    board_from_fen_960(b, fen, 1, err, sizeof err);
}

/* Appends b to the openings, growing the array; returns 0, or EXIT_FAILURE after an error line. */
static int openings_add(Board **openings, int *count, int *capacity, const Board *b)
{
    if (*count == *capacity) {
        int more = *capacity ? 2 * *capacity : 16;
        Board *grown = realloc(*openings, sizeof(Board) * (size_t)more);
        if (!grown) {
            fprintf(stderr, "error: out of memory for the openings\n");
            return EXIT_FAILURE;
        }
        *openings = grown;
        *capacity = more;
    }
    (*openings)[(*count)++] = *b;
    return 0;
}

/* Writes an openings line as FEN: its first four fields, and the clocks when the next fields
 * are numbers (EPD operations and # comments are dropped); returns 0 for a line with nothing. */
static int opening_fen(const char *line, char *fen, size_t size)
{
    const char *field[6];
    size_t len[6], used = 0;
    int n = 0, keep, i;
    while (n < 6 && (field[n] = next_token(&line, &len[n])) != NULL && field[n][0] != '#')
        n++;
    for (keep = int_min(n, 4); keep < n && strspn(field[keep], "0123456789") == len[keep]; keep++)
        ;
    fen[0] = '\0';
    for (i = 0; i < keep && used < size; i++)
        used += (size_t)snprintf(fen + used, size - used, "%s%.*s", i ? " " : "", (int)len[i], field[i]);
    return n > 0;
}

/* The built-in opponent: a legal move drawn at random from the game's generator (seeded by
 * the game's number, so a game against it repeats as far as our search does). */
Move random_move(Board *b, uint64_t *state)
{
    MoveList list;
    gen_legal(b, &list, GEN_ALL);
    return list.moves[random_next(state) % (uint64_t)list.count];
}
