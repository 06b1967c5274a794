/* modes/games.h: a game as match and datagen play it (modes/games.c): its record, our search's
 * move as UCI searches it, its end by the rules, openings from a file or Chess960's start
 * positions, a random mover. */
#ifndef GAMES_H
#define GAMES_H

#include "engine.h"

enum { GAME_MAX_PLIES = 400 };        /* a game still running after it is adjudicated a draw */
enum { CHESS960_POSITIONS = 960 };    /* the start positions of Chess960 (chess960_position) */

typedef struct {
    Board start;
    Move moves[GAME_MAX_PLIES];
    int ply_count;
    int engine_white;       /* 1 if our search plays white */
    char result[8];         /* "1-0", "0-1" or "1/2-1/2"; empty while the game runs */
    char termination[24];   /* the PGN Termination tag: normal, adjudication, time forfeit, ... */
    char reason[200];       /* checkmate, threefold repetition, or why the opponent forfeits */
} Game;                /* no pointers: a worker sends it through a pipe as it is */

/* Starts g from the position b, whose key becomes the first of keys; no result yet. */
void game_begin(Game *g, const Board *b, uint64_t *keys);
/* Plays m in the game: the move recorded, the board moved on, its key kept. */
void game_play(Game *g, Board *b, uint64_t *keys, Move m);
/* Searches our move in the game: every legal move of board in s within limits, as UCI does (the
 * UCI default table, the history kept from move to move and cleared when new_game is set), keys
 * holding the game's positions so far; returns the move (its score: search_best_score). */
Move game_search_move(Search *s, const Board *board, const uint64_t *keys, int key_count, const Limits *limits,
                      int new_game);
/* If the game is over after its last move (by the rules, keys holding its every position, or
 * adjudicated a draw after GAME_MAX_PLIES plies), records the result and returns 1; else 0. */
int game_referee(Game *g, Board *b, const uint64_t *keys);
/* Records how the game ended; returns 1. */
int game_end(Game *g, const char *result, const char *termination, const char *reason);
/* Reads the openings file (one FEN or EPD line each; NULL: the start position, or with
 * chess960 the 960 start positions) into a new array; returns 0, or an exit status after one
 * error line. */
int openings_load(const char *path, int chess960, Board **openings, int *count);
/* Sets b to Chess960 start position `number` (0 to 959, Scharnagl's numbering). */
void chess960_position(int number, Board *b);
/* A legal move of b drawn at random by the generator whose state is *state. */
Move random_move(Board *b, uint64_t *state);

#endif
