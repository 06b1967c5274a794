/* tests/pgn_check.c: reads back the PGN that `engine match --pgn` writes, move by move
 * through our SAN parser. Each SAN must parse (move_from_text) to a legal move that prints
 * back as the same text (move_to_san); PlyCount must match, and a game ended by checkmate
 * must end in checkmate. Usage: pgn_check FILE.pgn. Prints "pgn_check: N games, N moves"
 * and exits 0, or names the first bad move and exits 1. */
#include "../movement.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { LINE_MAX_BYTES = 4096, TAG_MAX = 256 };

typedef struct {
    Board board;
    int plies;              /* moves read back so far */
    int ply_count;          /* the PlyCount tag */
    int checkmate;          /* TerminationDetails says checkmate */
} Game;

static int game_count, move_count;

/* Reports a failure and returns 0. */
static int fail(const char *what, const char *token)
{
    printf("pgn_check: game %d, ply %d: %s '%s'\n", game_count, move_count, what, token);
    return 0;
}

/* Copies the value of tag `name` from a line `[name "value"]` into value; returns 1 if it is that tag. */
static int tag_value(const char *line, const char *name, char *value)
{
    size_t len = strlen(name);
    const char *end;
    if (line[0] != '[' || strncmp(line + 1, name, len) != 0 || strncmp(line + 1 + len, " \"", 2) != 0)
        return 0;
    line += len + 3;
    end = strchr(line, '"');
    len = end ? (size_t)(end - line) : strlen(line);
    len = len < TAG_MAX - 1 ? len : TAG_MAX - 1;
    memcpy(value, line, len);
    value[len] = '\0';
    return 1;
}

/* Starts a game at the Event tag, and reads the FEN, PlyCount and TerminationDetails tags. */
static int read_tag(Game *g, const char *line)
{
    char value[TAG_MAX], err[200];
    if (tag_value(line, "Event", value)) {
        memset(g, 0, sizeof *g);
        board_start(&g->board);
        game_count++;
    } else if (tag_value(line, "FEN", value) && !board_from_fen(&g->board, value, err, sizeof err)) {
        return fail(err, value);
    } else if (tag_value(line, "PlyCount", value)) {
        g->ply_count = atoi(value);
    } else if (tag_value(line, "TerminationDetails", value)) {
        g->checkmate = strcmp(value, "checkmate") == 0;
    }
    return 1;
}

/* Plays one SAN token through the parser and checks that it prints back the same. */
static int read_move(Game *g, const char *token)
{
    Move m;
    Undo u;
    char san[SAN_MAX];
    if (move_from_text(&g->board, token, &m) != PARSE_OK)
        return fail("not a legal move", token);
    move_to_san(&g->board, m, san);
    if (strcmp(san, token) != 0)
        return fail("prints back differently", token);
    board_make(&g->board, m, &u);
    g->plies++;
    move_count++;
    return 1;
}

/* Reads the tokens of a movetext line: move numbers, comments, SAN moves and the result. */
static int read_movetext(Game *g, char *line, int *in_comment)
{
    char *token = strtok(line, " \t\r\n");
    for (; token; token = strtok(NULL, " \t\r\n")) {
        if (*in_comment || token[0] == '{')
            *in_comment = strchr(token, '}') == NULL;
        else if (isdigit((unsigned char)token[0]) && strchr(token, '.'))
            continue;
        else if (!strcmp(token, "1-0") || !strcmp(token, "0-1") || !strcmp(token, "1/2-1/2") || !strcmp(token, "*"))
            return g->plies == g->ply_count || fail("PlyCount differs from the moves read, at", token);
        else if (!read_move(g, token))
            return 0;
    }
    return 1;
}

/* Returns 1 if a game ended by checkmate stands in checkmate, and any other game does not. */
static int check_end(Game *g)
{
    MoveList list;
    int mate = gen_legal(&g->board, &list, GEN_ALL) == 0 && board_in_check(&g->board);
    return mate == g->checkmate || fail("the final position does not agree with the result", g->checkmate ? "checkmate" : "");
}

int main(int argc, char **argv)
{
    static Game game;
    char line[LINE_MAX_BYTES];
    int in_comment = 0, ok = 1;
    FILE *f = argc == 2 ? fopen(argv[1], "r") : NULL;
    movement_init();
    if (!f) {
        fprintf(stderr, "usage: pgn_check FILE.pgn\n");
        return 2;
    }
    while (ok && fgets(line, sizeof line, f)) {
        if (line[0] == '[') {
            if (game_count > 0 && strncmp(line, "[Event ", 7) == 0)
                ok = check_end(&game);
            ok = ok && read_tag(&game, line);
        } else {
            ok = read_movetext(&game, line, &in_comment);
        }
    }
    fclose(f);
    ok = ok && game_count > 0 && check_end(&game);
    printf("pgn_check: %d games, %d moves%s\n", game_count, move_count, ok ? "" : ", FAILED");
    return ok ? 0 : 1;
}
