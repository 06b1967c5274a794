/* modes/gamefile.h: game records, the binary files of `engine datagen --out FILE.games` and
 * `datagen --pack` (docs/datagen.md specifies them byte by byte): per game its start position
 * and result, per ply the move played and whether the position is a training position, and
 * each training position's score. The writer (version 2), and a reader of versions 1 and 2
 * that checks every byte before it trusts it. Needs the rules alone, so that tools/train.c and
 * the fuzz target link it without the engine. */
#ifndef GAMEFILE_H
#define GAMEFILE_H

#include "../movement.h"

#include <stdio.h>

enum { GAMEFILE_VERSION = 2, GAMEFILE_VERSION_FIRST = 1 };  /* written; the oldest read */
enum { GAMEFILE_MAX_PLIES = 1024 };           /* plies a record may hold */
enum { GAMEFILE_BLOCK_GAMES = 256 };          /* games a block holds at most */
enum { GAMEFILE_DESCRIPTION_MAX = 1024 };     /* bytes of the header's description */
/* The header's flags: the training positions' scores are a rescoring engine's; the games are
 * text lines joined (datagen --pack: a game may start mid-game and end on a training position,
 * and its training positions are the lines', whatever their moves). Version 1 knew the first. */
enum { GAMEFILE_RESCORED = 1, GAMEFILE_LINES = 2, GAMEFILE_FLAGS = GAMEFILE_RESCORED | GAMEFILE_LINES };
/* A game's result from White's view, in half points. */
enum { GAME_BLACK_WON, GAME_DRAWN, GAME_WHITE_WON };

/* One game: where it started (the board, and its FEN as the head holds it, which a training
 * position there is printed with), how it ended, each ply's move, and for each position, the
 * ply's or (at ply_count) the one after the last move, its training mark and at a training
 * position its score (centipawns, White's view: the search's, or the rescorer's). */
typedef struct {
    Board start;
    char start_fen[FEN_MAX];
    int result;
    int ply_count;
    Move moves[GAMEFILE_MAX_PLIES];
    int16_t scores[GAMEFILE_MAX_PLIES + 1];
    uint8_t training[GAMEFILE_MAX_PLIES + 1];
} GameRecord;

/* A block's columns as they are filled (the writer's) or read (the reader's). */
typedef struct {
    uint8_t *bytes;
    size_t size, capacity;
} GameColumn;

/* A file of records being written: its blocks are kept until full, then written whole. */
typedef struct {
    FILE *file;
    int flags;              /* the header's (GAMEFILE_*) */
    int games;              /* in the block at hand */
    long plies;
    GameColumn heads, codes, marks, words;
    int failed;             /* 1 once writing or memory failed */
} GameWriter;

/* A file of records being read: what its header said, the block at hand, how far it has come. */
typedef struct {
    FILE *file;
    const char *path;
    uint64_t offset;        /* bytes read */
    uint64_t block_offset;  /* where the block at hand begins */
    long games;             /* records read */
    int version;
    int flags;
    char description[GAMEFILE_DESCRIPTION_MAX + 1];
    GameColumn block;       /* the block at hand, its checksum good */
    int block_games, block_next;
    size_t head_at, code_at, mark_at, word_at;
    long mark_index;
} GameReader;

/* Called by gamefile_visit for each training position: its board, its FEN as its line gives it
 * (`datagen --read`), its score (centipawns, White's view) and the game's result (GAME_*).
 * Returns 0 to go on. */
typedef int (*TrainingVisit)(void *context, const Board *b, const char *fen, int score, int result);

/* Starts a file of records on f with its header: flags (GAMEFILE_*) and a description of
 * printable ASCII (the command that made it), cut to GAMEFILE_DESCRIPTION_MAX. Returns 1, or 0
 * when f fails. */
int gamefile_create(GameWriter *w, FILE *f, int flags, const char *description);
/* Adds g (its moves legal, at most GAMEFILE_MAX_PLIES; its last position a training one only in
 * a file of lines) to the file, writing the block once it holds GAMEFILE_BLOCK_GAMES games;
 * returns 1, or 0 once writing or memory failed. */
int gamefile_write(GameWriter *w, const GameRecord *g);
/* Writes the block at hand and lets the writer go (f stays open); returns 1, or 0 if writing
 * failed at any time. */
int gamefile_finish(GameWriter *w);

/* Reads the header of f, the file at path (version 1 or 2); returns 1, or 0 with one line in err
 * naming the file and what is wrong (not a file of game records, another version, damaged). */
int gamefile_open(GameReader *r, FILE *f, const char *path, char *err, size_t err_size);
/* Reads the next record into g: returns 1, 0 at the end of the file, or -1 with one line in err
 * naming the file, the game and the byte where it went wrong (g is then not to be used). */
int gamefile_next(GameReader *r, GameRecord *g, char *err, size_t err_size);
/* Reads the next block of r (checked as gamefile_next checks it) into block, a reader of that block
 * alone whose games gamefile_next then decodes (0 after its last; errors name r's file and game),
 * so that blocks may be decoded apart, on threads of their own; r goes on after the block. Returns
 * 1, 0 at the end of the file, or -1 with one line in err. block starts zeroed, and is let go by
 * gamefile_close. */
int gamefile_take_block(GameReader *r, GameReader *block, char *err, size_t err_size);
/* Lets the reader's memory go (f stays open). */
void gamefile_close(GameReader *r);
/* Replays g and calls visit for each training position in order (the last may be the position
 * after the last move); returns what the last call returned. */
int gamefile_visit(const GameRecord *g, TrainingVisit visit, void *context);
/* Writes g's training positions as `FEN | SCORE | RESULT` lines to out. */
void gamefile_print(const GameRecord *g, FILE *out);
/* Writes one training position's line, as gamefile_print writes it (fen as its TrainingVisit
 * gets it), into out (FEN_MAX + 32 bytes at least); returns its length. */
int gamefile_line(char *out, size_t size, const char *fen, int score, int result);
/* Returns the result's text in the lines, White's view: "1.0", "0.5" or "0.0". */
const char *gamefile_result_text(int result);

/* Returns 1 if path names a file of game records: it ends in `.games` (or `.games.xz`). */
int gamefile_named(const char *path);

#endif
