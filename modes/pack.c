/* modes/pack.c: engine datagen --pack (docs/datagen.md, "Packing lines"): text lines
 * `FEN | SCORE | RESULT`, read exactly as they stand, kept as game records of version 2 with the
 * lines flag, from which `datagen --read` prints the same bytes. Consecutive lines of one game
 * (the same result, the ply rising) are joined by the plies between them, found by a search
 * bounded by what still differs between the two boards; elsewhere a new game's head keeps the
 * line's FEN as it stands. The joins of a batch of lines are searched on several threads and
 * the lines written in their order, so that the file is the same with any number of threads. A
 * file of records (version 1 or 2) is rewritten as version 2, game for game. */
#include "system.h"
#include "common.h"
#include "gamefile.h"
#include "pack.h"

#include <stdlib.h>
#include <string.h>
#if HAVE_THREADS
#include <pthread.h>
#endif

enum { PACK_BATCH = 16384 };            /* lines read, joined and written at a time */
enum { PACK_CHUNK = 64 };               /* lines a thread takes from the batch at a time */
enum { PACK_GAP_MAX = 64 };             /* the most plies searched for between two lines */
enum { PACK_FAILED_SLOTS = 1 << 13 };   /* positions a join remembers as leading nowhere */
enum { PACK_LINE_MAX = 256 };           /* a line's bytes at most (99 of FEN, a score and a result need 120) */
enum { PACK_SCORE_MAX = 32767, PACK_SCORE_DIGITS = 5 };  /* a record's scores are int16s */
enum { PACK_PROGRESS_SECONDS = 10 };
enum { PACK_THREADS_MAX = 64 };
enum { RECORDS_MAGIC_BYTES = 8 };       /* BOXGAMES */
/* The moves a piece needs at least (piece_moves) when it cannot get there at all. */
enum { UNREACHABLE = 1000 };
/* The moves a join may try before it gives up: first with the settled pieces kept still (join_search),
 * then with every piece free. */
static const long JOIN_NODES[2] = { 10000, 5000 };
/* mixes a position's halfmove clock and the plies left into its key, for the failed slots */
#define HALFMOVE_MIX UINT64_C(0x9E3779B97F4A7C15)
#define PLIES_MIX UINT64_C(0xC2B2AE3D27D4EB4F)
#define SECONDS_PER_HOUR 3600.0

/* A line as read: its board, its FEN as it stands, score, result (GAME_*) and ply in its game;
 * and how it joins the line before: gap plies, the moves of path (0: it heads a new game). */
typedef struct {
    Board board;
    char fen[FEN_MAX];
    int score, result, ply;
    int gap;
    Move path[PACK_GAP_MAX];
} PackLine;

/* The input, read in large pieces and cut into lines here, so that every byte is seen. */
typedef struct {
    FILE *file;
    const char *name;
    long long size;         /* the file's bytes, -1 when it cannot tell (a pipe) */
    long long consumed;     /* bytes handed on */
    size_t at, filled;
    char buffer[1 << 16];
} PackInput;

/* One join's search: its target, the moves tried, and the positions found to lead nowhere (a
 * slot: the position's hash and the join's number, so that nothing needs clearing between joins). */
typedef struct {
    const Board *target;
    const char *target_fen;
    int settled;            /* 1: the settled pieces stay (but to take something) */
    long nodes, node_limit;
    uint64_t join;
    uint64_t failed[PACK_FAILED_SLOTS][2];
} JoinSearch;

/* A batch of lines: lines[0] is the line before it (none for the input's first batch), its lines
 * are lines[1 .. count]; the threads take the joins of lines[first ..] a chunk at a time. */
typedef struct {
    PackLine *lines;
    int count, first, next;
#if HAVE_THREADS
    pthread_mutex_t lock;
#endif
} PackBatch;

/* A thread's own: the batch it works on and its search. */
typedef struct {
    PackBatch *batch;
    JoinSearch search;
#if HAVE_THREADS
    pthread_t thread;
    int started;
#endif
} PackWorker;

/* The file being written: the game at hand (started: 1 once there is one) and the counts. */
typedef struct {
    GameWriter writer;
    GameRecord game;
    int started;
    int records;            /* 1: rewriting records, 0: packing lines */
    long positions, games, joined;
    double start, shown;
} Packer;

/* prototypes */
static int input_fill(PackInput *in, size_t want);
static long input_line(PackInput *in, char *line, int *newline);
static int line_parse(const char *text, long length, int newline, PackLine *l, char *why, size_t why_size);
static const char *find_bar(const char *text, long length);
static void knight_moves_fill(void);
static int piece_moves(int type, int side, int from, int to);
static int arrival_moves(const Board *b, int side, int type, int sq);
static int side_need(const Board *b, const uint64_t *pieces, int side, int *lost);
static int settled(int piece, int far, const uint64_t *here, const uint64_t *there);
static int pieces_need(const Board *b, const uint64_t *pieces, int plies_left);
static int join_need(const Board *b, const Board *t, int plies_left);
static int join_reached(const JoinSearch *s, const Board *b);
static int join_search(JoinSearch *s, Board *b, Move *path, int plies_left);
static void pack_join(JoinSearch *s, const PackLine *from, PackLine *to);
static void *worker_main(void *arg);
static void batch_join(PackBatch *batch, PackWorker *workers, int threads);
static int pack_input(PackInput *in, Packer *p, PackWorker *workers, int threads, const char *out);
static int pack_lines(PackInput *in, Packer *p, PackWorker *workers, int threads);
static int pack_records(PackInput *in, Packer *p, const char *out_name);
static void pack_add(Packer *p, const PackLine *l);
static void pack_progress(Packer *p, const PackInput *in, int last);
static const char *base_name(const char *path);

int pack_run(const char *path, const char *out, int threads)
{
    static PackInput in;
    char tmp[4096];
    Packer *p = calloc(1, sizeof *p);
    PackWorker *workers = calloc((size_t)int_clamp(threads, 1, PACK_THREADS_MAX), sizeof *workers);
    FILE *f = NULL;
    int status = 0, written;
    memset(&in, 0, sizeof in);
    knight_moves_fill();
    in.name = strcmp(path, "-") == 0 ? "standard input" : path;
    in.file = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    in.size = -1;
    snprintf(tmp, sizeof tmp, "%s.tmp", out);
    if (!p || !workers)
        fprintf(stderr, "error: datagen: out of memory for --pack\n");
    else if (!in.file)
        print_line(stderr, "error: datagen: cannot read %s", path);
    else if (!(f = fopen(tmp, "wb")))
        print_line(stderr, "error: datagen: cannot write %s", tmp);
    if (!f) {
        if (in.file && in.file != stdin)
            fclose(in.file);
        free(p);
        free(workers);
        return EXIT_FAILURE;
    }
    if (in.file != stdin && fseek(in.file, 0, SEEK_END) == 0) {
        in.size = ftell(in.file);
        rewind(in.file);
    }
    p->start = p->shown = clock_now();
    p->writer.file = f;
    status = pack_input(&in, p, workers, int_clamp(threads, 1, PACK_THREADS_MAX), out);
    if (status == 0 && p->started)
        gamefile_write(&p->writer, &p->game);
    written = gamefile_finish(&p->writer) && fflush(f) == 0 && !ferror(f);
    written = fclose(f) == 0 && written;
    if (status == 0 && !written) {
        print_line(stderr, "error: datagen: cannot write %s", tmp);
        status = EXIT_FAILURE;
    }
    if (status == 0 && rename(tmp, out) != 0) {
        print_line(stderr, "error: datagen: cannot rename %s to %s", tmp, out);
        status = EXIT_FAILURE;
    }
    if (status != 0)
        remove(tmp);
    else
        pack_progress(p, &in, 1);
    if (in.file != stdin)
        fclose(in.file);
    free(workers);
    free(p);
    return status;
}

/* Packs the input into the packer's file, as records when it holds them (it begins with their
 * magic), else as lines; an input that xz compressed is refused. Returns 0, or 1 after one
 * error line. */
static int pack_input(PackInput *in, Packer *p, PackWorker *workers, int threads, const char *out)
{
    static const char XZ_MAGIC[6] = { (char)0xFD, '7', 'z', 'X', 'Z', 0 };
    char description[GAMEFILE_DESCRIPTION_MAX];
    input_fill(in, RECORDS_MAGIC_BYTES);
    if (in->filled >= sizeof XZ_MAGIC && memcmp(in->buffer, XZ_MAGIC, sizeof XZ_MAGIC) == 0) {
        print_line(stderr, "error: datagen: %s is compressed by xz: pack what xz -dc gives (xz -dc FILE | engine datagen --pack - ...)",
                   in->name);
        return EXIT_FAILURE;
    }
    p->records = in->filled >= RECORDS_MAGIC_BYTES && memcmp(in->buffer, "BOXGAMES", RECORDS_MAGIC_BYTES) == 0;
    if (p->records)
        return pack_records(in, p, out);
    snprintf(description, sizeof description, "%s %s datagen --pack: the lines of %.900s", ENGINE_NAME, ENGINE_VERSION,
             base_name(in->name));
    if (!gamefile_create(&p->writer, p->writer.file, GAMEFILE_LINES, description)) {
        print_line(stderr, "error: datagen: cannot write %s.tmp", out);
        return EXIT_FAILURE;
    }
    return pack_lines(in, p, workers, threads);
}

/* Reads into the input's buffer until it holds want bytes from `at` or the input ends; returns
 * the bytes it holds from `at`. */
static int input_fill(PackInput *in, size_t want)
{
    if (in->at > 0 && in->at < in->filled)
        memmove(in->buffer, in->buffer + in->at, in->filled - in->at);
    in->filled -= in->at;
    in->at = 0;
    while (in->filled < want) {
        size_t got = fread(in->buffer + in->filled, 1, sizeof in->buffer - in->filled, in->file);
        if (got == 0)
            break;
        in->filled += got;
    }
    return (int)(in->filled < want ? in->filled : want);
}

/* Reads the input's next line into line (its first PACK_LINE_MAX - 1 bytes; the rest are read and
 * counted) without its newline; returns its length, or -1 at the input's end. *newline says
 * whether a newline ended it (the last line may have none). */
static long input_line(PackInput *in, char *line, int *newline)
{
    long length = 0;
    *newline = 0;
    for (;;) {
        const char *end;
        size_t take, keep;
        if (in->at == in->filled && input_fill(in, 1) == 0)
            return length > 0 ? length : -1;
        end = memchr(in->buffer + in->at, '\n', in->filled - in->at);
        take = (end ? (size_t)(end - in->buffer) : in->filled) - in->at;
        keep = length < PACK_LINE_MAX - 1 ? (size_t)int_min((int)take, PACK_LINE_MAX - 1 - (int)length) : 0;
        memcpy(line + length, in->buffer + in->at, keep);
        length += (long)take;
        in->at += take;
        in->consumed += (long long)take;
        if (end) {
            in->at++;
            in->consumed++;
            *newline = 1;
            return length;
        }
    }
}

/* Returns where the first " | " of the length bytes at text begins, or NULL. */
static const char *find_bar(const char *text, long length)
{
    long i;
    for (i = 0; i + 3 <= length; i++)
        if (text[i] == ' ' && text[i + 1] == '|' && text[i + 2] == ' ')
            return text + i;
    return NULL;
}

/* Reads a line (length bytes at text; newline: whether one ended it) into l, which must be as
 * `datagen --read` writes lines: `FEN | SCORE | RESULT` and a newline, the FEN one the rules
 * take of fewer than FEN_MAX bytes, SCORE a whole number within a record's range written
 * plainly (no '+', no leading zero, no "-0"), RESULT 1.0, 0.5 or 0.0. Returns 1, or 0 with what
 * is wrong in why. */
static int line_parse(const char *text, long length, int newline, PackLine *l, char *why, size_t why_size)
{
    const char *bar = find_bar(text, length), *end = text + length, *score, *digit, *bar2, *result;
    char err[200];
    int digits = 0, negative, value = 0;
    if (length >= PACK_LINE_MAX) {
        snprintf(why, why_size, "longer than %d bytes", PACK_LINE_MAX - 1);
        return 0;
    }
    if (memchr(text, '\0', (size_t)length) || !bar || !(bar2 = find_bar(bar + 3, end - bar - 3))) {
        snprintf(why, why_size, "not FEN | SCORE | RESULT: '%.*s'", int_min((int)length, 120), text);
        return 0;
    }
    if (bar - text >= FEN_MAX) {
        snprintf(why, why_size, "its FEN is longer than %d bytes", FEN_MAX - 1);
        return 0;
    }
    memcpy(l->fen, text, (size_t)(bar - text));
    l->fen[bar - text] = '\0';
    if (!board_from_fen(&l->board, l->fen, err, sizeof err)) {
        snprintf(why, why_size, "an illegal FEN: %s", err);
        return 0;
    }
    score = bar + 3;
    negative = *score == '-';
    for (digit = score + negative; digit < bar2 && *digit >= '0' && *digit <= '9'; digit++, digits++)
        if (digits < PACK_SCORE_DIGITS + 1)
            value = 10 * value + (*digit - '0');
    if (digits == 0 || digit != bar2 || (score[negative] == '0' && (digits > 1 || negative))) {
        snprintf(why, why_size, "score '%.*s' is not a whole number written plainly", int_min((int)(bar2 - score), 20), score);
        return 0;
    }
    if (digits > PACK_SCORE_DIGITS || value > PACK_SCORE_MAX) {
        snprintf(why, why_size, "score %.*s is out of range (-%d to %d)", int_min((int)(bar2 - score), 20), score, PACK_SCORE_MAX,
                 PACK_SCORE_MAX);
        return 0;
    }
    l->score = negative ? -value : value;
    result = bar2 + 3;
    if (end - result != 3 || (memcmp(result, "1.0", 3) != 0 && memcmp(result, "0.5", 3) != 0 && memcmp(result, "0.0", 3) != 0)) {
        snprintf(why, why_size, "result '%.*s' is not 1.0, 0.5 or 0.0", int_min((int)(end - result), 20), result);
        return 0;
    }
    if (!newline) {
        snprintf(why, why_size, "no newline at its end (records print one)");
        return 0;
    }
    l->result = result[0] == '1' ? GAME_WHITE_WON : result[2] == '5' ? GAME_DRAWN : GAME_BLACK_WON;
    l->ply = 2 * (l->board.fullmove - 1) + l->board.side;
    l->gap = 0;
    return 1;
}

/* The fewest knight moves between two squares on an empty board (knight_moves_fill). */
static uint8_t knight_moves[64][64];

/* Fills knight_moves by a breadth-first walk from each square: once, before any thread starts. */
static void knight_moves_fill(void)
{
    int from, step;
    if (knight_moves[0][1])
        return;
    for (from = 0; from < 64; from++) {
        uint64_t seen = (uint64_t)1 << from, front = seen;
        for (step = 1; front; step++) {
            uint64_t next = 0;
            for (; front; front &= front - 1)
                next |= knight_set[bit_first(front)];
            front = next & ~seen;
            seen |= front;
            for (next = front; next; next &= next - 1)
                knight_moves[from][bit_first(next)] = (uint8_t)step;
        }
    }
}

/* Returns the fewest moves a piece of this type and side needs from `from` to `to` on an empty
 * board (a pawn: forward, a file aside for each capture, two squares at once from its first
 * rank), UNREACHABLE when it cannot get there. */
static int piece_moves(int type, int side, int from, int to)
{
    int files = abs(square_file(to) - square_file(from)), ranks = square_rank(to) - square_rank(from);
    int forward = side == WHITE ? ranks : -ranks, first = (side == WHITE ? 1 : 6) == square_rank(from);
    uint64_t bit = (uint64_t)1 << to;
    if (from == to)
        return 0;
    switch (type) {
    case PAWN:
        return forward <= 0 || files > forward ? UNREACHABLE : forward - (first && forward >= 2 && files <= forward - 2);
    case KNIGHT:
        return knight_moves[from][to];
    case BISHOP:
        return (square_file(from) + square_rank(from) + square_file(to) + square_rank(to)) % 2 ? UNREACHABLE
               : bishop_attacks(from, 0) & bit ? 1 : 2;
    case ROOK:
        return rook_attacks(from, 0) & bit ? 1 : 2;
    case QUEEN:
        return (rook_attacks(from, 0) | bishop_attacks(from, 0)) & bit ? 1 : 2;
    default:
        return int_max(files, abs(ranks));
    }
}

/* Returns the fewest moves that bring a piece of side's to sq as `type` on an empty board: one
 * of that type from where it stands, or a pawn promoting (one move at least). */
static int arrival_moves(const Board *b, int side, int type, int sq)
{
    uint64_t pieces = b->pieces[make_piece(side, type)];
    int best = type != PAWN && type != KING && b->pieces[make_piece(side, PAWN)] ? 1 : UNREACHABLE;
    for (; pieces && best > 1; pieces &= pieces - 1)
        best = int_min(best, piece_moves(type, side, bit_first(pieces), sq));
    return best;
}

/* Returns the fewest moves side must still make to turn its pieces on b into those of
 * `pieces` (a position's squares by piece code): the pieces it wants on new squares each need the
 * moves arrival_moves counts, a different piece each (a castling brings king and rook at once),
 * and the pieces that must leave their squares each a move, but those the other side takes (a
 * castling takes two off). *lost is how many of side's pieces the other side must take
 * (negative: `pieces` has more, which no move makes). */
static int side_need(const Board *b, const uint64_t *pieces, int side, int *lost)
{
    int type, arrivals = 0, departures = 0, count = 0;
    int castle = (b->castling & (side == WHITE ? CASTLE_WK | CASTLE_WQ : CASTLE_BK | CASTLE_BQ)) != 0;
    for (type = PAWN; type <= KING; type++) {
        int piece = make_piece(side, type);
        uint64_t arrive = pieces[piece] & ~b->pieces[piece];
        count += bit_count(pieces[piece]);
        departures += bit_count(b->pieces[piece] & ~pieces[piece]);
        for (; arrive; arrive &= arrive - 1) {
            int moves = arrival_moves(b, side, type, bit_first(arrive));
            arrivals += castle && (type == KING || type == ROOK) ? int_min(moves, 1) : moves;
        }
    }
    *lost = bit_count(b->occupied[side]) - count;
    return int_max(0, int_max(arrivals - castle, departures - *lost - castle));
}

/* Returns how far b's pieces are from `pieces` in moves to make (both sides' side_need), or -1
 * when no plies_left moves can bring them there: more pieces or pawns there, or more moves
 * needed than either side has. */
static int pieces_need(const Board *b, const uint64_t *pieces, int plies_left)
{
    int side, need = 0;
    for (side = WHITE; side <= BLACK; side++) {
        int lost, own = side == b->side ? (plies_left + 1) / 2 : plies_left / 2, n = side_need(b, pieces, side, &lost);
        if (lost < 0 || n > own || lost > plies_left - own || bit_count(pieces[make_piece(side, PAWN)]) > bit_count(b->pieces[make_piece(side, PAWN)]))
            return -1;
        need += n;
    }
    return need;
}

/* Returns 1 if a piece that stands where the far end has the same piece is settled: no piece of
 * its kind is lost on the way (its count the same at both ends), so it need not move (but to take
 * something). here and there: each end's pieces by piece code. */
static int settled(int piece, int far, const uint64_t *here, const uint64_t *there)
{
    return piece == far && bit_count(here[piece]) == bit_count(there[piece]);
}

/* Returns how far b is from t in moves to make (pieces_need), or -1 when no plies_left moves can
 * lead there: by pieces_need, or a castling right t has that b lacks, or a halfmove clock that
 * cannot come out right. */
static int join_need(const Board *b, const Board *t, int plies_left)
{
    if ((b->castling & t->castling) != t->castling || (plies_left <= t->halfmove && b->halfmove + plies_left != t->halfmove))
        return -1;
    return pieces_need(b, t->pieces, plies_left);
}

/* Returns 1 if b is the search's target, clocks, castling rights and en passant square
 * included: the FEN it writes is the target line's. */
static int join_reached(const JoinSearch *s, const Board *b)
{
    char fen[FEN_MAX];
    if (b->key != s->target->key || b->halfmove != s->target->halfmove || b->fullmove != s->target->fullmove)
        return 0;
    board_to_fen(b, fen);
    return strcmp(fen, s->target_fen) == 0;
}

/* Searches for plies_left moves from b to the target, the moves that bring it nearest first
 * (join_need), each move's position dropped when join_need says it cannot get there; within the
 * target's halfmove clock only moves that keep the clock, and the one move before them one that
 * resets it; in the settled pass, a settled piece moves only to take something. Returns 1 with
 * the moves in path, or 0 when there are none or the search has tried s->node_limit moves (a
 * position found to lead nowhere is not searched again in the same pass). */
static int join_search(JoinSearch *s, Board *b, Move *path, int plies_left)
{
    MoveList list;
    Move order[MAX_MOVES];
    int need[MAX_MOVES], count = 0, i, j, clock = s->target->halfmove;
    uint64_t hash = b->key ^ (uint64_t)b->halfmove * HALFMOVE_MIX ^ (uint64_t)plies_left * PLIES_MIX;
    uint64_t *slot = s->failed[hash & (PACK_FAILED_SLOTS - 1)];
    if (plies_left == 0)
        return join_reached(s, b);
    if (slot[0] == hash && slot[1] == s->join)
        return 0;
    gen_legal(b, &list, GEN_ALL);
    for (i = 0; i < list.count; i++) {
        Move m = list.moves[i];
        int resets = move_is_capture(b, m) || piece_type(b->squares[move_from(m)]) == PAWN, n;
        Undo u;
        if ((plies_left <= clock ? resets : plies_left == clock + 1 && !resets)
            || (s->settled && settled(b->squares[move_from(m)], s->target->squares[move_from(m)], b->pieces, s->target->pieces)
                && !move_is_capture(b, m)))
            continue;
        if (++s->nodes > s->node_limit)
            return 0;
        board_make(b, m, &u);
        n = join_need(b, s->target, plies_left - 1);
        board_unmake(b, m, &u);
        for (j = count; n >= 0 && j > 0 && need[j - 1] > n; j--) {
            order[j] = order[j - 1];
            need[j] = need[j - 1];
        }
        if (n >= 0) {
            order[j] = m;
            need[j] = n;
            count++;
        }
    }
    for (i = 0; i < count; i++) {
        Undo u;
        int found;
        board_make(b, order[i], &u);
        found = join_search(s, b, path + 1, plies_left - 1);
        board_unmake(b, order[i], &u);
        if (found) {
            path[0] = order[i];
            return 1;
        }
        if (s->nodes > s->node_limit)
            return 0;
    }
    slot[0] = hash;
    slot[1] = s->join;
    return 0;
}

/* Finds how the line `to` joins the line `from` before it: the plies between them (to->gap, 0
 * when none) and their moves (to->path), searched with the settled pieces kept still, then with
 * all free (JOIN_NODES). They must be of one game: the same result, to's ply 1 to PACK_GAP_MAX
 * past from's, and to's FEN the one its board writes (else it heads a game, its FEN kept as it
 * stands). */
static void pack_join(JoinSearch *s, const PackLine *from, PackLine *to)
{
    Board b = from->board;
    char fen[FEN_MAX];
    int plies = to->ply - from->ply, pass;
    to->gap = 0;
    if (to->result != from->result || plies < 1 || plies > PACK_GAP_MAX)
        return;
    board_to_fen(&to->board, fen);
    if (strcmp(fen, to->fen) != 0)
        return;
    s->target = &to->board;
    s->target_fen = to->fen;
    if (join_need(&b, &to->board, plies) < 0)
        return;
    for (pass = 0; pass < 2 && !to->gap; pass++) {
        s->settled = pass == 0;
        s->nodes = 0;
        s->node_limit = JOIN_NODES[pass];
        s->join++;
        if (join_search(s, &b, to->path, plies))
            to->gap = plies;
    }
}

/* A thread's work: the joins of its batch, a chunk of lines at a time, until none is left. */
static void *worker_main(void *arg)
{
    PackWorker *w = arg;
    PackBatch *batch = w->batch;
    for (;;) {
        int first, i;
#if HAVE_THREADS
        pthread_mutex_lock(&batch->lock);
#endif
        first = batch->next;
        batch->next += PACK_CHUNK;
#if HAVE_THREADS
        pthread_mutex_unlock(&batch->lock);
#endif
        if (first > batch->count)
            return NULL;
        for (i = first; i < first + PACK_CHUNK && i <= batch->count; i++)
            pack_join(&w->search, &batch->lines[i - 1], &batch->lines[i]);
    }
}

/* Finds the joins of the batch's lines on `threads` threads, this one the first. */
static void batch_join(PackBatch *batch, PackWorker *workers, int threads)
{
    int i;
    batch->next = batch->first;
    for (i = 0; i < threads; i++)
        workers[i].batch = batch;
#if HAVE_THREADS
    pthread_mutex_init(&batch->lock, NULL);
    for (i = 1; i < threads; i++)
        workers[i].started = pthread_create(&workers[i].thread, NULL, worker_main, &workers[i]) == 0;
#endif
    worker_main(&workers[0]);
#if HAVE_THREADS
    for (i = 1; i < threads; i++)
        if (workers[i].started)
            pthread_join(workers[i].thread, NULL);
    pthread_mutex_destroy(&batch->lock);
#endif
}

/* Packs the input's lines, a batch at a time: read and checked here, joined on the threads,
 * added to the games in order. Returns 0, or 1 after one error line naming the first bad line. */
static int pack_lines(PackInput *in, Packer *p, PackWorker *workers, int threads)
{
    PackBatch batch;
    char text[PACK_LINE_MAX], why[300];
    long number = 0, length = 0;
    int newline, i;
    memset(&batch, 0, sizeof batch);
    if (!(batch.lines = malloc(sizeof *batch.lines * (PACK_BATCH + 1)))) {
        fprintf(stderr, "error: datagen: out of memory for --pack\n");
        return EXIT_FAILURE;
    }
    while (length >= 0) {
        batch.count = 0;
        while (batch.count < PACK_BATCH && (length = input_line(in, text, &newline)) >= 0) {
            number++;
            if (!line_parse(text, length, newline, &batch.lines[batch.count + 1], why, sizeof why)) {
                print_line(stderr, "error: datagen: %s line %ld: %s", in->name, number, why);
                free(batch.lines);
                return EXIT_FAILURE;
            }
            batch.count++;
        }
        batch.first = number - batch.count == 0 ? 2 : 1; /* the input's first line joins none */
        batch_join(&batch, workers, threads);
        for (i = 1; i <= batch.count; i++)
            pack_add(p, &batch.lines[i]);
        if (batch.count > 0)
            batch.lines[0] = batch.lines[batch.count];
        if (clock_now() - p->shown >= PACK_PROGRESS_SECONDS)
            pack_progress(p, in, 0);
    }
    free(batch.lines);
    if (ferror(in->file)) {
        print_line(stderr, "error: datagen: cannot read %s", in->name);
        return EXIT_FAILURE;
    }
    return 0;
}

/* Adds line l to the game at hand by its path when it joins the line before and the game has
 * room for it, else as the head of a new game (the game at hand written first); l is the
 * game's last position, a training one, until the next line joins it. */
static void pack_add(Packer *p, const PackLine *l)
{
    GameRecord *g = &p->game;
    int k;
    if (p->started && l->gap > 0 && g->ply_count + l->gap <= GAMEFILE_MAX_PLIES) {
        for (k = 0; k < l->gap; k++) {
            g->moves[g->ply_count] = l->path[k];
            if (k > 0) {
                g->training[g->ply_count] = 0;
                g->scores[g->ply_count] = 0;
            }
            g->ply_count++;
        }
        p->joined++;
    } else {
        if (p->started)
            gamefile_write(&p->writer, g);
        g->start = l->board;
        memcpy(g->start_fen, l->fen, sizeof g->start_fen);
        g->result = l->result;
        g->ply_count = 0;
        p->started = 1;
        p->games++;
    }
    g->training[g->ply_count] = 1;
    g->scores[g->ply_count] = (int16_t)l->score;
    p->positions++;
}

/* Rewrites a file of records (its header's flags kept, its description with a note of the
 * rewriting) as version 2, game for game; returns 0, or 1 after one error line. */
static int pack_records(PackInput *in, Packer *p, const char *out_name)
{
    static const char REWRITTEN[] = "; rewritten as version 2 by datagen --pack";
    GameReader reader;
    char err[600], description[GAMEFILE_DESCRIPTION_MAX + 1];
    int got = 0, i;
    if (fseek(in->file, 0, SEEK_SET) != 0) {
        print_line(stderr, "error: datagen: %s holds game records: give its name to --pack, not a pipe", in->name);
        return EXIT_FAILURE;
    }
    in->at = in->filled = 0;
    if (!gamefile_open(&reader, in->file, in->name, err, sizeof err)) {
        print_line(stderr, "error: datagen: %s", err);
        return EXIT_FAILURE;
    }
    snprintf(description, sizeof description, "%.*s%s", GAMEFILE_DESCRIPTION_MAX - (int)strlen(REWRITTEN), reader.description,
             REWRITTEN);
    if (!gamefile_create(&p->writer, p->writer.file, reader.flags, description))
        got = -2;
    while (got == 0 && (got = gamefile_next(&reader, &p->game, err, sizeof err)) == 1) {
        got = gamefile_write(&p->writer, &p->game) ? 0 : -2;
        p->games++;
        for (i = 0; i <= p->game.ply_count; i++)
            p->positions += p->game.training[i];
        in->consumed = (long long)reader.offset;
        if (clock_now() - p->shown >= PACK_PROGRESS_SECONDS)
            pack_progress(p, in, 0);
    }
    gamefile_close(&reader);
    if (got == -1)
        print_line(stderr, "error: datagen: %s", err);
    if (got == -2)
        print_line(stderr, "error: datagen: cannot write %s.tmp", out_name);
    return got == 0 ? 0 : EXIT_FAILURE;
}

/* Prints a progress line on stderr: what was read and written, its rate, and the time left
 * when the input's size is known; `last` at the end. */
static void pack_progress(Packer *p, const PackInput *in, int last)
{
    double now = clock_now(), elapsed = now - p->start;
    char left[48] = "";
    if (!last && in->size > 0 && in->consumed > 0) {
        double rest = elapsed * (double)(in->size - in->consumed) / (double)in->consumed;
        snprintf(left, sizeof left, ", %d:%02d:%02d left", (int)(rest / 3600), (int)(rest / 60) % 60, (int)rest % 60);
    }
    if (p->records)
        fprintf(stderr, "datagen: %ld games, %ld positions, %.0f positions an hour, %.1f s%s\n", p->games, p->positions,
                elapsed > 0 ? (double)p->positions * SECONDS_PER_HOUR / elapsed : 0.0, elapsed, left);
    else
        fprintf(stderr, "datagen: %ld lines in %ld games (%.1f%% joined), %.0f lines an hour, %.1f s%s\n", p->positions, p->games,
                p->positions > 0 ? 100.0 * (double)p->joined / (double)p->positions : 0.0,
                elapsed > 0 ? (double)p->positions * SECONDS_PER_HOUR / elapsed : 0.0, elapsed, left);
    p->shown = now;
}

/* Returns the part of path after its last '/'. */
static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}
