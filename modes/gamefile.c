/* modes/gamefile.c: game records (docs/datagen.md, "The game records"): the header, the blocks of
 * games kept as columns (heads, move codes, marks, score words), the writer of version 2, and the
 * reader of versions 1 and 2, which checks each block's length and checksum, then every field it
 * decodes, every move legal in its position, before a caller sees the game. */
#include "gamefile.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* The file's first bytes, and the header's fixed part: magic, version, flags, length. */
static const char GAMEFILE_MAGIC[8] = { 'B', 'O', 'X', 'G', 'A', 'M', 'E', 'S' };
enum { HEADER_FIXED = 12, LENGTH_BYTES = 4, CHECKSUM_BYTES = 4, COUNT_BYTES = 2 };
/* A block's body at most: its game count, each game's head (result, FEN length, FEN, ply count),
 * a move code, a mark bit and a score word (at most 3 bytes) for each ply, and one score word
 * more for the position after the last move. */
enum { HEAD_MAX = 1 + 1 + FEN_MAX + 2, VARINT_MAX_BYTES = 3 };
#define BLOCK_MAX ((size_t)COUNT_BYTES + (size_t)GAMEFILE_BLOCK_GAMES * (HEAD_MAX + VARINT_MAX_BYTES + GAMEFILE_MAX_PLIES * (1 + VARINT_MAX_BYTES + 1)))
/* A version-2 head's count: the plies times two, plus one when the position after the last move
 * is a training position (END_TRAINING, in a file of lines alone). */
enum { END_TRAINING = 1, COUNT_PLIES = 2 };
/* Scores stay within an int16. */
enum { SCORE_LIMIT = 32767 };
/* Positions before this ply (counted from 0 at the start position) are not expected to train. */
enum { EXPECTED_MIN_PLY = 8 };
/* The order of a position's moves, whose index is a move's code (move_priority): the pieces'
 * values (EMPTY, PAWN ... KING); the base of a capture, a promotion, a castling and any other
 * move; a capture's weight of its victim's value; another move's bonus per value of a piece the
 * other side attacks, per step towards the centre and for a pawn, and its cost where an enemy
 * pawn takes. */
static const int CODE_VALUE[KING + 1] = { 0, 1, 3, 3, 5, 9, 10 };
/* How central each square is (a1, b1, ..., h8): 6 on d4, e4, d5 and e5, less a step for each
 * file or rank away. */
static const int8_t CENTRE[64] = {
    0, 1, 2, 3, 3, 2, 1, 0, 1, 2, 3, 4, 4, 3, 2, 1, 2, 3, 4, 5, 5, 4, 3, 2, 3, 4, 5, 6, 6, 5, 4, 3,
    3, 4, 5, 6, 6, 5, 4, 3, 2, 3, 4, 5, 5, 4, 3, 2, 1, 2, 3, 4, 4, 3, 2, 1, 0, 1, 2, 3, 3, 2, 1, 0,
};
enum { PRIORITY_CAPTURE = 10000, PRIORITY_PROMOTION = 9000, PRIORITY_CASTLE = 8000, PRIORITY_QUIET = 4000 };
enum { PRIORITY_VICTIM = 100, PRIORITY_ESCAPE = 100, PRIORITY_CENTRE = 10, PRIORITY_PAWN = 3, PRIORITY_PAWN_GUARD = 200 };
/* A move's key, which orders moves of equal priority: from, to, then plain (0), promotion to a
 * knight (1) ... queen (4), castling (5); KEY_SPAN keys in all. */
enum { KEY_PLAIN = 0, KEY_CASTLE = 5, KEY_CODES = 8, KEY_SPAN = 64 * 64 * KEY_CODES };
/* move_of_code counts the ranks above a move's over groups of this many (ranks_above). */
enum { RANK_GROUP = 8 };

/* The scores a ply's word is counted from: the last of each kind (0: not for training, 1: for
 * training) and whether there is one, and the last ply's. Version 2 has words for training
 * positions alone, so that its prediction is the game's last training score, or 0. */
typedef struct {
    int kind[2], seen[2], last;
} ScoreTrack;

/* prototypes */
static uint32_t crc32_update(uint32_t crc, const uint8_t *bytes, size_t size);
static void put_u16(uint8_t *out, unsigned value);
static void put_u32(uint8_t *out, uint32_t value);
static unsigned get_u16(const uint8_t *in);
static uint32_t get_u32(const uint8_t *in);
static int column_add(GameColumn *c, const void *bytes, size_t size);
static int column_varint(GameColumn *c, uint32_t value);
static int get_varint(const uint8_t *in, size_t size, size_t *at, uint32_t *value);
static int move_key(Move m);
static uint64_t attacks_of(const Board *b, int side, uint64_t *by_pawns);
static int move_priority(const Board *b, Move m, uint64_t attacked, uint64_t pawn_attacked);
static int moves_ranked(Board *b, Move *moves, int32_t *ranks, int *in_check);
static int move_code(Board *b, Move m, int *in_check);
static int ranks_above(const int32_t *ranks, int count, int32_t rank);
static Move move_of_code(Board *b, int code, int *count, int *in_check);
static int expected_training(const Board *b, int in_check, Move m, int ply, int lines);
static int track_predict(const ScoreTrack *t, int training);
static void track_add(ScoreTrack *t, int training, int score);
static int block_write(GameWriter *w);
static int block_read(GameReader *r, char *err, size_t err_size);
static int block_heads(GameReader *r, const char **why);
static int game_decode(GameReader *r, GameRecord *g, char *why, size_t why_size);
static int plies_decode(GameReader *r, GameRecord *g, char *why, size_t why_size);
static int score_decode(GameReader *r, const ScoreTrack *t, int training, int ply, int16_t *score, char *why, size_t why_size);
static int read_bytes(GameReader *r, uint8_t *out, size_t size);
static int reader_error(GameReader *r, uint64_t at, const char *what, char *err, size_t err_size);
static int print_training(void *context, const Board *b, const char *fen, int score, int result);

/* The CRC-32 of zlib and PNG (reflected polynomial 0xEDB88320), so that any tool can check a
 * block: crc32_update(0, bytes, size) is zlib's crc32 of them. Four bits at a time, by the CRC of
 * each value of them (a reader checks every block it takes, with its queue's lock held). */
static const uint32_t CRC32_NIBBLE[16] = {
    0x00000000, 0x1db71064, 0x3b6e20c8, 0x26d930ac, 0x76dc4190, 0x6b6b51f4, 0x4db26158, 0x5005713c,
    0xedb88320, 0xf00f9344, 0xd6d6a3e8, 0xcb61b38c, 0x9b64c2b0, 0x86d3d2d4, 0xa00ae278, 0xbdbdf21c,
};
static uint32_t crc32_update(uint32_t crc, const uint8_t *bytes, size_t size)
{
    size_t i;
    crc = ~crc;
    for (i = 0; i < size; i++) {
        crc ^= bytes[i];
        crc = crc >> 4 ^ CRC32_NIBBLE[crc & 15];
        crc = crc >> 4 ^ CRC32_NIBBLE[crc & 15];
    }
    return ~crc;
}

static void put_u16(uint8_t *out, unsigned value)
{
    out[0] = (uint8_t)(value & 255);
    out[1] = (uint8_t)(value >> 8 & 255);
}

static void put_u32(uint8_t *out, uint32_t value)
{
    put_u16(out, value & 65535u);
    put_u16(out + 2, value >> 16);
}

static unsigned get_u16(const uint8_t *in)
{
    return (unsigned)in[0] | (unsigned)in[1] << 8;
}

static uint32_t get_u32(const uint8_t *in)
{
    return (uint32_t)get_u16(in) | (uint32_t)get_u16(in + 2) << 16;
}

/* Appends size bytes to c, growing it; returns 0 when memory is short. */
static int column_add(GameColumn *c, const void *bytes, size_t size)
{
    if (c->size + size > c->capacity) {
        size_t capacity = c->capacity ? c->capacity : 4096;
        uint8_t *grown;
        while (capacity < c->size + size)
            capacity *= 2;
        if (!(grown = realloc(c->bytes, capacity)))
            return 0;
        c->bytes = grown;
        c->capacity = capacity;
    }
    memcpy(c->bytes + c->size, bytes, size);
    c->size += size;
    return 1;
}

/* Appends value as a varint (7 bits a byte, the lowest first, the top bit set on all but the
 * last); returns 0 when memory is short. */
static int column_varint(GameColumn *c, uint32_t value)
{
    uint8_t bytes[5];
    size_t n = 0;
    while (value >= 128) {
        bytes[n++] = (uint8_t)(value & 127) | 128;
        value >>= 7;
    }
    bytes[n++] = (uint8_t)value;
    return column_add(c, bytes, n);
}

/* Reads a varint of at most VARINT_MAX_BYTES from in[*at ..] (size bytes in all), moving *at
 * past it; returns 0 if it runs past the end or is longer. */
static int get_varint(const uint8_t *in, size_t size, size_t *at, uint32_t *value)
{
    int n;
    *value = 0;
    for (n = 0; n < VARINT_MAX_BYTES && *at < size; n++) {
        uint8_t byte = in[(*at)++];
        *value |= (uint32_t)(byte & 127) << (7 * n);
        if (!(byte & 128))
            return 1;
    }
    return 0;
}

static int move_key(Move m)
{
    int code = move_kind(m) == KIND_CASTLE ? KEY_CASTLE
             : move_kind(m) == KIND_PROMOTION ? move_promo(m) - KNIGHT + 1 : KEY_PLAIN;
    return (move_from(m) * 64 + move_to(m)) * KEY_CODES + code;
}

/* Returns the squares side attacks as the position stands: sliders stop at the first piece,
 * pinned pieces attack (square_attacked's answer for every square at once); *by_pawns, those
 * its pawns attack. */
static uint64_t attacks_of(const Board *b, int side, uint64_t *by_pawns)
{
    uint64_t occupied = b->occupied[WHITE] | b->occupied[BLACK], attacked = 0, set;
    uint64_t queens = b->pieces[make_piece(side, QUEEN)];
    *by_pawns = 0;
    for (set = b->pieces[make_piece(side, PAWN)]; set; set &= set - 1)
        *by_pawns |= pawn_attackers[!side][bit_first(set)];
    for (set = b->pieces[make_piece(side, KNIGHT)]; set; set &= set - 1)
        attacked |= knight_set[bit_first(set)];
    for (set = b->pieces[make_piece(side, BISHOP)] | queens; set; set &= set - 1)
        attacked |= bishop_attacks(bit_first(set), occupied);
    for (set = b->pieces[make_piece(side, ROOK)] | queens; set; set &= set - 1)
        attacked |= rook_attacks(bit_first(set), occupied);
    return attacked | *by_pawns | king_set[b->king_sq[side]];
}

/* Returns how early m comes among b's moves (docs/datagen.md, "Move codes"): captures by the
 * victim's value, then the mover's; promotions; castling; then the quiet moves, a piece the
 * other side attacks (attacked) first, towards the centre (CENTRE), a pawn's, and not where an
 * enemy pawn takes (pawn_attacked). */
static int move_priority(const Board *b, Move m, uint64_t attacked, uint64_t pawn_attacked)
{
    int from = move_from(m), to = move_to(m), mover = piece_type(b->squares[from]), kind = move_kind(m);
    int victim = kind == KIND_EN_PASSANT ? PAWN : kind == KIND_CASTLE ? EMPTY : piece_type(b->squares[to]);
    /* the quiet move's terms are worked out whatever the move, without a branch on the board */
    int quiet = PRIORITY_QUIET + PRIORITY_CENTRE * (CENTRE[to] - CENTRE[from])
              + (int)(attacked >> from & 1) * PRIORITY_ESCAPE * CODE_VALUE[mover]
              + (mover == PAWN ? PRIORITY_PAWN : -(int)(pawn_attacked >> to & 1) * PRIORITY_PAWN_GUARD);
    int other = kind == KIND_PROMOTION ? PRIORITY_PROMOTION + CODE_VALUE[move_promo(m)]
              : kind == KIND_CASTLE ? PRIORITY_CASTLE : quiet;
    return victim != EMPTY ? PRIORITY_CAPTURE + PRIORITY_VICTIM * CODE_VALUE[victim] - CODE_VALUE[mover] : other;
}

/* Fills moves with b's legal moves and ranks with each one's place in the codes' order as one
 * number, the higher first: its priority, then the lower key; sets *in_check (the side to move is
 * in check); returns their number. */
static int moves_ranked(Board *b, Move *moves, int32_t *ranks, int *in_check)
{
    MoveList list;
    uint64_t pawn_attacked, attacked = attacks_of(b, !b->side, &pawn_attacked);
    int i, count = gen_legal(b, &list, GEN_ALL);
    *in_check = (int)(attacked >> b->king_sq[b->side] & 1);
    for (i = 0; i < count; i++) {
        moves[i] = list.moves[i];
        ranks[i] = (int32_t)move_priority(b, moves[i], attacked, pawn_attacked) * KEY_SPAN + (KEY_SPAN - 1 - move_key(moves[i]));
    }
    return count;
}

/* Returns the code of m, a legal move of b: how many of b's moves come before it; sets *in_check. */
static int move_code(Board *b, Move m, int *in_check)
{
    Move moves[MAX_MOVES];
    int32_t ranks[MAX_MOVES], rank = -1;
    int count = moves_ranked(b, moves, ranks, in_check), i;
    for (i = 0; i < count; i++)
        if (moves[i] == m)
            rank = ranks[i];
    assert(rank >= 0); /* the move is legal */
    return ranks_above(ranks, count, rank);
}

/* Returns how many of the count ranks are above rank: a count without a branch, which a compiler
 * does several ranks at a time. */
static int ranks_above(const int32_t *ranks, int count, int32_t rank)
{
    int above = 0, i;
    for (i = 0; i < count; i++)
        above += ranks[i] > rank;
    return above;
}

/* Returns b's move of that code, MOVE_NONE when b has no more than code moves; *count is their
 * number; sets *in_check. The ranks are distinct, so the move is the one with exactly code ranks
 * above its own: each move's are counted, in the order generated, until it is found, over whole
 * groups of RANK_GROUP ranks (the list padded with ranks below every move's). A partition
 * (quickselect) did less work, but its comparisons, which a processor cannot guess, took a fifth
 * of a trainer's reading of a file of records (perf). */
static Move move_of_code(Board *b, int code, int *count, int *in_check)
{
    Move moves[MAX_MOVES];
    int32_t ranks[MAX_MOVES + RANK_GROUP];
    int i, k, padded;
    *count = moves_ranked(b, moves, ranks, in_check);
    if (code >= *count)
        return MOVE_NONE;
    padded = (*count + RANK_GROUP - 1) / RANK_GROUP * RANK_GROUP;
    for (k = *count; k < padded; k++)
        ranks[k] = INT32_MIN;
    for (i = 0; i < *count; i++)
        if (ranks_above(ranks, padded, ranks[i]) == code)
            return moves[i];
    assert(0); /* distinct ranks: one move has exactly code above it */
    return MOVE_NONE;
}

/* Returns 1 if a position is expected to be one for training (its mark bit says where it is not):
 * not in check (in_check), its move quiet, and at ply 8 or later unless the games are lines joined. */
static int expected_training(const Board *b, int in_check, Move m, int ply, int lines)
{
    return (lines || ply >= EXPECTED_MIN_PLY) && !in_check && move_is_quiet(b, m);
}

/* Returns the score a ply's word is counted from: the game's last score of a ply of the same
 * kind (training or not), or before there is one the last ply's (0 before the first). */
static int track_predict(const ScoreTrack *t, int training)
{
    return t->seen[training] ? t->kind[training] : t->last;
}

/* Takes a ply's score into the track. */
static void track_add(ScoreTrack *t, int training, int score)
{
    t->kind[training] = score;
    t->seen[training] = 1;
    t->last = score;
}

int gamefile_create(GameWriter *w, FILE *f, int flags, const char *description)
{
    uint8_t head[HEADER_FIXED + GAMEFILE_DESCRIPTION_MAX + CHECKSUM_BYTES];
    size_t length = strlen(description), i;
    memset(w, 0, sizeof *w);
    w->file = f;
    w->flags = flags & GAMEFILE_FLAGS;
    if (length > GAMEFILE_DESCRIPTION_MAX)
        length = GAMEFILE_DESCRIPTION_MAX;
    memcpy(head, GAMEFILE_MAGIC, sizeof GAMEFILE_MAGIC);
    head[8] = GAMEFILE_VERSION;
    head[9] = (uint8_t)w->flags;
    put_u16(head + 10, (unsigned)length);
    for (i = 0; i < length; i++) {
        unsigned char c = (unsigned char)description[i];
        head[HEADER_FIXED + i] = c >= ' ' && c <= '~' ? c : '?';
    }
    put_u32(head + HEADER_FIXED + length, crc32_update(0, head, HEADER_FIXED + length));
    w->failed = fwrite(head, HEADER_FIXED + length + CHECKSUM_BYTES, 1, f) != 1;
    return !w->failed;
}

int gamefile_write(GameWriter *w, const GameRecord *g)
{
    uint8_t head[2];
    Board b = g->start;
    ScoreTrack track;
    int i, ok, lines = (w->flags & GAMEFILE_LINES) != 0, end = g->training[g->ply_count] != 0;
    assert(g->ply_count >= 0 && g->ply_count <= GAMEFILE_MAX_PLIES && g->result >= GAME_BLACK_WON && g->result <= GAME_WHITE_WON);
    assert(strlen(g->start_fen) > 0 && strlen(g->start_fen) < FEN_MAX && (lines || !end));
    memset(&track, 0, sizeof track);
    head[0] = (uint8_t)g->result;
    head[1] = (uint8_t)strlen(g->start_fen);
    ok = !w->failed && column_add(&w->heads, head, 2) && column_add(&w->heads, g->start_fen, head[1])
         && column_varint(&w->heads, (uint32_t)(g->ply_count * COUNT_PLIES + end * END_TRAINING));
    for (i = 0; ok && i <= g->ply_count; i++) {
        int training = g->training[i] != 0, delta = g->scores[i] - track_predict(&track, training), in_check;
        uint8_t code, none = 0;
        Undo u;
        if (training) {
            ok = column_varint(&w->words, delta >= 0 ? 2u * (uint32_t)delta : 2u * (uint32_t)-delta - 1u);
            track_add(&track, training, g->scores[i]);
        }
        if (i == g->ply_count)
            break;
        code = (uint8_t)move_code(&b, g->moves[i], &in_check);
        ok = ok && column_add(&w->codes, &code, 1) && (w->plies % 8 != 0 || column_add(&w->marks, &none, 1));
        if (ok && training != expected_training(&b, in_check, g->moves[i], i, lines))
            w->marks.bytes[w->plies / 8] |= (uint8_t)(1u << w->plies % 8);
        w->plies++;
        board_make(&b, g->moves[i], &u);
    }
    w->failed |= !ok;
    if (ok && ++w->games == GAMEFILE_BLOCK_GAMES)
        block_write(w);
    return !w->failed;
}

int gamefile_finish(GameWriter *w)
{
    if (w->games)
        block_write(w);
    free(w->heads.bytes);
    free(w->codes.bytes);
    free(w->marks.bytes);
    free(w->words.bytes);
    w->heads.bytes = w->codes.bytes = w->marks.bytes = w->words.bytes = NULL;
    return !w->failed;
}

/* Writes the block at hand (its length, game count, columns and checksum) and empties it;
 * returns 1, or 0 when writing fails. */
static int block_write(GameWriter *w)
{
    const GameColumn *columns[4];
    uint8_t bytes[LENGTH_BYTES + COUNT_BYTES];
    uint32_t crc;
    size_t size = COUNT_BYTES;
    int i;
    columns[0] = &w->heads;
    columns[1] = &w->codes;
    columns[2] = &w->marks;
    columns[3] = &w->words;
    for (i = 0; i < 4; i++)
        size += columns[i]->size;
    put_u32(bytes, (uint32_t)size);
    put_u16(bytes + LENGTH_BYTES, (unsigned)w->games);
    crc = crc32_update(0, bytes + LENGTH_BYTES, COUNT_BYTES);
    w->failed |= fwrite(bytes, sizeof bytes, 1, w->file) != 1;
    for (i = 0; i < 4; i++) {
        crc = crc32_update(crc, columns[i]->bytes, columns[i]->size);
        w->failed |= columns[i]->size && fwrite(columns[i]->bytes, columns[i]->size, 1, w->file) != 1;
    }
    put_u32(bytes, crc);
    w->failed |= fwrite(bytes, CHECKSUM_BYTES, 1, w->file) != 1;
    w->heads.size = w->codes.size = w->marks.size = w->words.size = 0;
    w->games = 0;
    w->plies = 0;
    return !w->failed;
}

/* Reads size bytes of the file into out; returns 1, or 0 at its end (what was there is read). */
static int read_bytes(GameReader *r, uint8_t *out, size_t size)
{
    size_t got = fread(out, 1, size, r->file);
    r->offset += got;
    return got == size;
}

/* Writes the reader's error line about the block that begins at byte `at` into err; returns -1. */
static int reader_error(GameReader *r, uint64_t at, const char *what, char *err, size_t err_size)
{
    snprintf(err, err_size, "%s: game %ld (in the block at byte %llu): %s", r->path, r->games + 1, (unsigned long long)at, what);
    return -1;
}

int gamefile_open(GameReader *r, FILE *f, const char *path, char *err, size_t err_size)
{
    uint8_t head[HEADER_FIXED + GAMEFILE_DESCRIPTION_MAX + CHECKSUM_BYTES];
    size_t length = 0, i;
    memset(r, 0, sizeof *r);
    r->file = f;
    r->path = path;
    if (!read_bytes(r, head, HEADER_FIXED) || memcmp(head, GAMEFILE_MAGIC, sizeof GAMEFILE_MAGIC) != 0) {
        snprintf(err, err_size, "%s is not a file of game records (it does not begin with BOXGAMES)", path);
        return 0;
    }
    if (head[8] < GAMEFILE_VERSION_FIRST || head[8] > GAMEFILE_VERSION) {
        snprintf(err, err_size, "%s: game records of version %d; this build reads versions %d to %d", path, head[8],
                 GAMEFILE_VERSION_FIRST, GAMEFILE_VERSION);
        return 0;
    }
    r->version = head[8];
    length = get_u16(head + 10);
    if (length > GAMEFILE_DESCRIPTION_MAX || (head[9] & ~(r->version == 1 ? GAMEFILE_RESCORED : GAMEFILE_FLAGS))
        || !read_bytes(r, head + HEADER_FIXED, length + CHECKSUM_BYTES)
        || get_u32(head + HEADER_FIXED + length) != crc32_update(0, head, HEADER_FIXED + length)) {
        snprintf(err, err_size, "%s: its header is damaged (byte %llu)", path, (unsigned long long)r->offset);
        return 0;
    }
    r->flags = head[9];
    for (i = 0; i < length; i++)
        r->description[i] = (char)head[HEADER_FIXED + i];
    r->description[length] = '\0';
    return 1;
}

void gamefile_close(GameReader *r)
{
    free(r->block.bytes);
    r->block.bytes = NULL;
    r->block.capacity = r->block.size = 0;
}

/* Reads the next block, checks its length and checksum, and finds its columns (block_heads);
 * returns 1, 0 at the end of the file, or -1 with one line in err. */
static int block_read(GameReader *r, char *err, size_t err_size)
{
    uint8_t bytes[LENGTH_BYTES];
    const char *why = NULL;
    size_t size;
    r->block_offset = r->offset;
    if (!read_bytes(r, bytes, LENGTH_BYTES)) {
        if (r->offset == r->block_offset && !ferror(r->file))
            return 0;
        return reader_error(r, r->block_offset, "the file ends inside it (truncated)", err, err_size);
    }
    size = get_u32(bytes);
    if (size < COUNT_BYTES || size > BLOCK_MAX)
        return reader_error(r, r->block_offset, "a block length out of range (damaged)", err, err_size);
    r->block.size = 0;
    if (size + CHECKSUM_BYTES > r->block.capacity) {
        uint8_t *grown = realloc(r->block.bytes, size + CHECKSUM_BYTES);
        if (!grown)
            return reader_error(r, r->block_offset, "out of memory for its block", err, err_size);
        r->block.bytes = grown;
        r->block.capacity = size + CHECKSUM_BYTES;
    }
    if (!read_bytes(r, r->block.bytes, size + CHECKSUM_BYTES))
        return reader_error(r, r->block_offset, ferror(r->file) ? "cannot be read" : "the file ends inside it (truncated)", err,
                            err_size);
    if (get_u32(r->block.bytes + size) != crc32_update(0, r->block.bytes, size))
        return reader_error(r, r->block_offset, "its block's checksum does not match (damaged)", err, err_size);
    r->block.size = size;
    if (!block_heads(r, &why))
        return reader_error(r, r->block_offset, why, err, err_size);
    return 1;
}

/* Reads the block's game count and walks its heads to find where its columns begin; returns 1,
 * or 0 with what is wrong in *why. */
static int block_heads(GameReader *r, const char **why)
{
    const uint8_t *bytes = r->block.bytes;
    size_t size = r->block.size, at = COUNT_BYTES;
    long plies = 0;
    int i;
    r->block_games = (int)get_u16(bytes);
    r->block_next = 0;
    if (r->block_games < 1 || r->block_games > GAMEFILE_BLOCK_GAMES) {
        *why = "a block of no games or too many";
        return 0;
    }
    for (i = 0; i < r->block_games; i++) {
        uint32_t count;
        at += 2;
        if (at > size || bytes[at - 2] > GAME_WHITE_WON || bytes[at - 1] == 0 || bytes[at - 1] >= FEN_MAX
            || (at += bytes[at - 1]) > size || !get_varint(bytes, size, &at, &count)
            || (r->version > 1 && (count & END_TRAINING) && !(r->flags & GAMEFILE_LINES))
            || (r->version > 1 ? count / COUNT_PLIES : count) > GAMEFILE_MAX_PLIES) {
            *why = "a game's head out of range (result, start position or ply count)";
            return 0;
        }
        plies += (long)(r->version > 1 ? count / COUNT_PLIES : count);
    }
    r->head_at = COUNT_BYTES;
    r->code_at = at;
    r->mark_at = at + (size_t)plies;
    r->word_at = r->mark_at + (size_t)(plies + 7) / 8;
    r->mark_index = 0;
    if (r->word_at > size) {
        *why = "its columns run past the block";
        return 0;
    }
    return 1;
}

int gamefile_take_block(GameReader *r, GameReader *block, char *err, size_t err_size)
{
    GameColumn spare = block->block;
    int got = block_read(r, err, err_size);
    if (got <= 0)
        return got;
    *block = *r;
    block->file = NULL;
    r->block = spare;
    r->games += r->block_games;
    r->block_next = r->block_games;
    return 1;
}

int gamefile_next(GameReader *r, GameRecord *g, char *err, size_t err_size)
{
    char why[200];
    if (r->block_next == r->block_games) {
        int got = r->file ? block_read(r, err, err_size) : 0;
        if (got <= 0)
            return got;
    }
    if (!game_decode(r, g, why, sizeof why))
        return reader_error(r, r->block_offset, why, err, err_size);
    r->games++;
    return 1;
}

/* Reads the block's next game into g: its head, then its plies; returns 1, or 0 with what is
 * wrong in why. The start's FEN is the head's as it is (version 1: as board_to_fen writes it). */
static int game_decode(GameReader *r, GameRecord *g, char *why, size_t why_size)
{
    const uint8_t *bytes = r->block.bytes;
    char err[200];
    size_t length = bytes[r->head_at + 1];
    uint32_t count;
    memcpy(g->start_fen, bytes + r->head_at + 2, length);
    g->start_fen[length] = '\0';
    g->result = bytes[r->head_at];
    r->head_at += 2 + length;
    get_varint(bytes, r->block.size, &r->head_at, &count); /* block_heads checked it */
    g->ply_count = (int)(r->version > 1 ? count / COUNT_PLIES : count);
    g->training[g->ply_count] = (uint8_t)(r->version > 1 && (count & END_TRAINING));
    if (strlen(g->start_fen) != length || !board_from_fen(&g->start, g->start_fen, err, sizeof err)) {
        snprintf(why, why_size, "its start position is not a FEN (%.150s)", strlen(g->start_fen) != length ? "a zero byte" : err);
        return 0;
    }
    if (r->version == 1)
        board_to_fen(&g->start, g->start_fen);
    if (!plies_decode(r, g, why, why_size))
        return 0;
    if (++r->block_next == r->block_games && r->word_at != r->block.size) {
        snprintf(why, why_size, "%d bytes after the block's last score", (int)(r->block.size - r->word_at));
        return 0;
    }
    return 1;
}

/* Reads g's plies from the block's columns, each move checked legal in its position, each
 * training position quiet (but in a file of lines) and each score within an int16; version 2
 * has a score word for each training position alone (the last may be the position after the
 * last move). Returns 1, or 0 with what is wrong in why. */
static int plies_decode(GameReader *r, GameRecord *g, char *why, size_t why_size)
{
    const uint8_t *bytes = r->block.bytes;
    Board b = g->start;
    ScoreTrack track;
    int i, lines = (r->flags & GAMEFILE_LINES) != 0;
    memset(&track, 0, sizeof track);
    for (i = 0; i < g->ply_count; i++) {
        int code = bytes[r->code_at++], count, marked, in_check;
        Move m = move_of_code(&b, code, &count, &in_check);
        Undo u;
        if (m == MOVE_NONE) {
            snprintf(why, why_size, "ply %d: move %d of %d legal moves", i + 1, code, count);
            return 0;
        }
        g->moves[i] = m;
        marked = bytes[r->mark_at + (size_t)(r->mark_index / 8)] >> (r->mark_index % 8) & 1;
        r->mark_index++;
        g->training[i] = (uint8_t)(expected_training(&b, in_check, m, i, lines) ^ marked);
        g->scores[i] = 0;
        if ((r->version == 1 || g->training[i]) && !score_decode(r, &track, g->training[i], i + 1, &g->scores[i], why, why_size))
            return 0;
        if (g->training[i] && !lines && (in_check || !move_is_quiet(&b, m))) {
            snprintf(why, why_size, "ply %d: a training position that is not quiet", i + 1);
            return 0;
        }
        if (r->version == 1 || g->training[i])
            track_add(&track, g->training[i], g->scores[i]);
        board_make(&b, m, &u);
    }
    g->scores[i] = 0;
    return !g->training[i] || score_decode(r, &track, 1, i + 1, &g->scores[i], why, why_size);
}

/* Reads the next score word, counted from the track's prediction for a position of that kind
 * (training or not), into *score; returns 1, or 0 with what is wrong in why (naming the ply,
 * from 1) when the word runs past the block or the score out of range. */
static int score_decode(GameReader *r, const ScoreTrack *t, int training, int ply, int16_t *score, char *why, size_t why_size)
{
    uint32_t word;
    int value;
    if (!get_varint(r->block.bytes, r->block.size, &r->word_at, &word)) {
        snprintf(why, why_size, "ply %d: its score word runs past the block", ply);
        return 0;
    }
    value = track_predict(t, training) + (word & 1 ? -(int)(word >> 1) - 1 : (int)(word >> 1));
    if (value < -SCORE_LIMIT || value > SCORE_LIMIT) {
        snprintf(why, why_size, "ply %d: a score out of range", ply);
        return 0;
    }
    *score = (int16_t)value;
    return 1;
}

int gamefile_visit(const GameRecord *g, TrainingVisit visit, void *context)
{
    Board b = g->start;
    int i, stop = 0;
    for (i = 0; i <= g->ply_count && !stop; i++) {
        Undo u;
        if (g->training[i]) {
            char fen[FEN_MAX];
            if (i > 0)
                board_to_fen(&b, fen);
            stop = visit(context, &b, i > 0 ? fen : g->start_fen, g->scores[i], g->result);
        }
        if (i < g->ply_count)
            board_make(&b, g->moves[i], &u);
    }
    return stop;
}

/* Prints one training position's line (a TrainingVisit; context is the FILE). */
static int print_training(void *context, const Board *b, const char *fen, int score, int result)
{
    char line[FEN_MAX + 32];
    (void)b;
    gamefile_line(line, sizeof line, fen, score, result);
    fputs(line, context);
    return 0;
}

int gamefile_line(char *out, size_t size, const char *fen, int score, int result)
{
    char digits[8];
    size_t length = strlen(fen), n = 0, i;
    unsigned magnitude = (unsigned)(score < 0 ? -score : score);
    assert(size >= length + 32 && score >= -SCORE_LIMIT && score <= SCORE_LIMIT);
    (void)size;
    memcpy(out, fen, length);
    memcpy(out + length, " | ", 3);
    length += 3;
    if (score < 0)
        out[length++] = '-';
    do
        digits[n++] = (char)('0' + magnitude % 10);
    while ((magnitude /= 10) > 0);
    for (i = 0; i < n; i++)
        out[length++] = digits[n - 1 - i];
    memcpy(out + length, " | ", 3);
    memcpy(out + length + 3, gamefile_result_text(result), 3);
    memcpy(out + length + 6, "\n", 2);
    return (int)length + 7;
}

void gamefile_print(const GameRecord *g, FILE *out)
{
    gamefile_visit(g, print_training, out);
}

const char *gamefile_result_text(int result)
{
    return result == GAME_WHITE_WON ? "1.0" : result == GAME_DRAWN ? "0.5" : "0.0";
}

int gamefile_named(const char *path)
{
    size_t n = strlen(path);
    return (n >= 6 && strcmp(path + n - 6, ".games") == 0) || (n >= 9 && strcmp(path + n - 9, ".games.xz") == 0);
}
