/* tools/train.c: trains the evaluation network of extra.h (768 inputs per side, a hidden
 * layer of --hidden per side clipped and squared, one output from one of NNUE_BUCKETS sets
 * of weights chosen by the material) on labelled positions, and writes it, quantized to
 * int16, as tables/nnue.h (its weights, which extra.c reads) and tables/nnue-shape.h (its
 * shape, whose hidden size extra.h then takes).
 *
 * The network and its training follow the efficiently updatable networks of Yu Nasu (2018)
 * in the simple "768 -> N x 2 -> 1" form of the bullet trainer and the engines trained with
 * it: the output, times NNUE_SCALE, is a score in centipawns, and the loss is the squared
 * difference between sigmoid(K * score) and a target that blends the game's result with
 * sigmoid(K_data * SCORE), both from the side to move's view:
 *     target = lambda * RESULT + (1 - lambda) * sigmoid(K_data * SCORE)
 * K_data is the scale at which the data's scores best predict its results (as in
 * tools/tune.c); K is that of the hand-written evaluation, so that a centipawn means the
 * same to the search with either. Mini-batch Adam (Kingma and Ba 2014) in an order the seed
 * shuffles each epoch, on --threads threads (POSIX): each mini-batch is cut into SHARDS fixed
 * pieces, each summing its gradient into its own buffer, and the buffers are added in piece
 * order, so the same seed and data give the same network bit for bit, with any number of
 * threads and whatever their timing. */
#include "../extra.h"
#include "common.h"

#include <assert.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* SHARDS: the fixed pieces of every parallel job (at most this many threads). */
enum { EXIT_USAGE = 2, MAX_INPUTS = 32, SHARDS = 8 };
/* The longest path of a table's shape header (shape_path). */
enum { SHAPE_PATH_MAX = 4096 };
/* Where a commit of this repository keeps its network (--start): the table and its shape. */
#define START_TABLE "tables/nnue.h"
#define START_SHAPE "tables/nnue-shape.h"

/* The hand-written evaluation's fitted scale (tools/tune.c on the Stockfish data). */
#define EVAL_K 0.00616
/* Weights stay within +-WEIGHT_CLIP so that their int16 forms cannot overflow the
 * accumulator (32 inputs and the bias: 33 * 1.9 * NNUE_QA = 31977 < 32767) nor an output
 * half, whatever the hidden size up to NNUE_HIDDEN_MAX (extra.h: 1024 * 1016 * 2 * NNUE_QB
 * < 2^31, and 1.9 < 2). */
#define WEIGHT_CLIP 1.9

/* One position: its inputs from white's view (black's view follows by flipping). */
typedef struct {
    uint32_t first;         /* its inputs in Trainer.inputs */
    uint8_t count;
    uint8_t side;           /* to move */
    uint8_t bucket;         /* output bucket (nnue_bucket of count) */
    float score;            /* the data's SCORE, white's view */
    float result;           /* the game's result, white's view */
    float target;           /* side to move's view */
} Sample;

typedef struct {
    Sample *samples;
    long size, capacity;
} SampleSet;

/* A position's inputs from the side to move's view ([0]) and the other side's ([1]). */
typedef struct {
    uint16_t index[2][MAX_INPUTS];
    int count;
} Inputs;

/* The hidden layers before clipping, in the same order. */
typedef struct {
    float value[2][NNUE_HIDDEN_MAX];
} Hidden;

/* The network in floats, `hidden` per side, as one array of `count` floats (values): hidden
 * weights [input][hidden], hidden biases, then for each output bucket the output weights of
 * the side to move's half and the other's, then the output biases. Its gradients and Adam's
 * moments have the same form. */
typedef struct {
    int hidden;
    long count;
    float *values;
    float *hidden_weight, *hidden_bias, *output_weight, *output_bias;
} Network;

/* Shared components of the hidden weights, learned alongside them (a factorizer): each
 * input's row of weights moves with its own gradient and with those of the groups it
 * belongs to, its piece (colour and type, any square), its piece on its rank and its piece
 * on its file. An input seen in few positions so takes most of its weights from what all
 * its piece's inputs teach, and the network's form is unchanged. */
enum { PIECE_GROUPS = 12, FACTORS = PIECE_GROUPS * (1 + 8 + 8) };
typedef struct {
    int hidden;
    float *weight, *gradient, *moment1, *moment2, *before;     /* FACTORS * hidden each */
} Factors;

typedef struct {
    SampleSet train, validation;
    uint16_t *inputs;
    long input_count, input_capacity;
    const char *failure;
    int threads;
    int king_mirror;        /* 1: each side's view with its own king on files a..d (extra.h) */
} Trainer;

/* What one piece of a job needs of its own: the layers of the position at hand. */
typedef struct {
    Inputs in;
    Hidden hidden;
    float delta[NNUE_HIDDEN_MAX];
} Scratch;

/* A job cut into SHARDS pieces: run(context, shard) does piece `shard`, and no piece
 * writes what another reads. */
typedef void (*ShardRun)(void *context, int shard);
typedef struct {
    ShardRun run;
    void *context;
    int first, step;        /* this thread's pieces: first, first + step, ... */
} Worker;

/* The gradients of a mini-batch: positions order[begin .. end - 1] of the training set,
 * mirrored where mirror[q - begin]; each piece into its own gradient and loss. */
typedef struct {
    const Trainer *t;
    const Network *n;
    Network *grad;          /* SHARDS of them */
    Scratch *scratch;       /* SHARDS of them */
    const long *order;
    const uint8_t *mirror;
    long begin, end;
    double loss[SHARDS];
} BatchJob;

/* The step after a mini-batch: the gradients added into grad[0], then Adam on the network
 * (each piece a range of parameters) and, with factors, on the factors (each piece a range
 * of hidden columns). */
typedef struct {
    Network *n, *grad;
    Network moment1, moment2;
    Factors *factors;
    double rate, scale;
    long step;
} StepJob;

/* The loss of a set: each piece sums its share of the positions. */
typedef struct {
    const Trainer *t;
    const SampleSet *set;
    const Network *n;
    Scratch *scratch;
    double sum[SHARDS];
} LossJob;

/* The error of the data's scores at two scales, for fit_k_data. */
typedef struct {
    const SampleSet *set;
    double scale[2];
    double sum[SHARDS][2];
} ScaleJob;

typedef struct {
    ToolOptions tool;       /* the options both tools take */
    int mirror;             /* 1: each sample is mirrored a..h with probability 1/2 */
    int king_mirror;        /* 1: king mirroring (extra.h, NNUE_TABLE_KING_MIRROR) */
    int factorize;          /* 1: learn shared piece, rank and file components (Factors) */
    double k_data;          /* the scale of the data's scores, or 0 to fit it to the results */
    const char *save;       /* the float network, written after every epoch, or NULL */
    const char *load;       /* a float network or a table to start from instead of random weights, or NULL */
    const char *start;      /* a commit whose START_TABLE to start from (load_start), or NULL */
    const char *check;      /* FENs whose float scores are printed at the end, or NULL */
    int threads;
    int hidden;             /* per side */
} Options;

/* prototypes */
static void usage(FILE *out);
static int parse_options(int argc, char **argv, Options *o);
static int take_option(void *own, const char *key, const char *value);
static int add_position(void *context, const Board *b, int score, double result, int held_out);
static void *worker_main(void *arg);
static void run_shards(ShardRun run, void *context, int threads);
static void shard_range(long size, int shard, long *from, long *to);
static void scale_shard(void *context, int shard);
static double fit_k_data(const SampleSet *set, int threads);
static void set_targets(SampleSet *set, double k_data, double lambda);
static long network_count(int hidden);
static void network_place(Network *n, float *values, int hidden);
static int network_alloc(Network *n, int hidden, int copies);
static void network_init(Network *n, uint64_t *r);
static void gather(const Trainer *t, const Sample *s, int mirror, Inputs *in);
static float clipped(float h);
static double forward(const Network *n, const Inputs *in, int bucket, Hidden *hidden);
static void loss_shard(void *context, int shard);
static double set_loss(const Trainer *t, const SampleSet *set, const Network *n, Scratch *scratch);
static void backward(const Network *n, Network *grad, Scratch *s, int bucket, double g);
static void batch_shard(void *context, int shard);
static void adam_step(float *w, const float *g, float *m1, float *m2, long count, double rate, long step, double scale);
static int factor_of(int input, int kind);
static int factors_alloc(Factors *f, int hidden);
static void factors_step(Factors *f, Network *n, const Network *grad, double rate, long step, double scale, int from, int to);
static void step_shard(void *context, int shard);
static void factors_shard(void *context, int shard);
static void train(Trainer *t, const Options *o, Network *n, Scratch *scratch);
static void float_tag(int hidden, char *tag, size_t size);
static int save_floats(const Network *n, const char *path, char *err, size_t err_size);
static int load_floats(Network *n, const char *path, char *err, size_t err_size);
static int table_numbers(const char *text, const char *name, long *values, long capacity, long *count);
static int shape_path(const char *path, char *out, size_t size);
static int table_shape_is(const char *name, const char *text, const char *shape, int hidden, int king_mirror, char *err,
                          size_t err_size);
static int table_has_shape(const char *text);
static int load_table_text(Network *n, int king_mirror, const char *name, const char *text, const char *shape, char *err,
                           size_t err_size);
static int load_table(Network *n, int king_mirror, const char *path, char *err, size_t err_size);
static int load_network(Network *n, int king_mirror, const char *path, char *err, size_t err_size);
static int load_start(Network *n, int king_mirror, const char *commit, char *line, size_t line_size, char *err,
                      size_t err_size);
static int print_checks(Trainer *t, const Network *n, const char *path, Scratch *s);
static int quantize(double value, double factor);
static void write_values(FILE *f, const float *values, long count, double factor);
static void write_bytes(FILE *f, const uint8_t *bytes, long count);
static void write_hidden_packed(FILE *f, const Network *n);
static void write_weights(FILE *f, const Network *n, const char *path, const char *shape, const char *summary);
static void write_shape(FILE *f, const Network *n, const Options *o, const char *shape, const char *summary);
static int write_network(const Network *n, const Options *o, const char *summary, char *err, size_t err_size);

static void usage(FILE *out)
{
    fprintf(out,
        "usage: train --data FILE [--data FILE ...] [--add FILE ...] [--out tables/nnue.h] [--epochs 30]\n"
        "             [--batch 16384] [--rate 0.001] [--lambda 0.3] [--seed 1] [--limit LINES] [--hold-out 10]\n"
        "             [--train-share 1] [--mirror 0|1] [--factorize 0|1] [--k-data K] [--save NET]\n"
        "             [--load NET | --start COMMIT] [--check FENS] [--threads 2] [--hidden 256] [--king-mirror 0|1]\n"
        "             [--lineage TABLE]\n"
        "Trains the network of extra.h on labelled positions (lines `FEN | SCORE | RESULT`, FILE '-'\n"
        "for standard input; a name ending in .games or .games.xz: datagen's game records; one ending in\n"
        ".xz is read through xz -dc) and writes it as a C table (--out) and its shape beside it (the name\n"
        "less \".h\", then \"-shape.h\": tables/nnue-shape.h). Every tenth game (--hold-out N: every N-th; a\n"
        "run of lines with one result and rising move numbers) is held out for validation; --train-share S\n"
        "(0 < S <= 1) trains on that share of the other games, spread evenly through each file, so that\n"
        "less data keeps the same held-out games and the same mix of files. --add FILE is trained on whole:\n"
        "none of its games held out or passed over, so adding it keeps the validation games. The target\n"
        "blends the result (lambda) with the sigmoid of SCORE (1 - lambda).\n"
        "--mirror 1 shows each training position mirrored (files a..h reversed) half of the time.\n"
        "--factorize 1 (the default) also learns each piece's weights shared by all its squares, its\n"
        "rank and its file, which rarely seen inputs inherit. --k-data sets the scale of the data's\n"
        "scores (sigmoid(K * SCORE) is a win probability) instead of fitting it to the results.\n"
        "--save writes the network in floats after every epoch (NET.tmp, then renamed), --load starts\n"
        "from such a file or from a table this tool wrote (tables/nnue.h, with tables/nnue-shape.h beside\n"
        "it: its weights, dequantized, to train further). --start COMMIT starts from the " START_TABLE " of that\n"
        "commit of the repository here (read with git) and names it in the table's header on a line\n"
        "`Start: COMMIT " START_TABLE " SHA-256 HEX`, so that the header's command and its Start and Data\n"
        "lines make the network again. --check prints the float network's score of each FEN of a file at the end.\n"
        "--threads (1 to %d) shares each mini-batch among threads; the network is the same with any number.\n"
        "--hidden sets the hidden layer's size per side (a multiple of 16, at most %d).\n"
        "--king-mirror 1 shows each side the board with files a..h reversed while its own king stands\n"
        "on files e..h (so its king is always on a..d), and the table says so for the engine.\n"
        "The table's Data lines name each file by its SHA-256 and that of the lines it gives (its text,\n"
        "or what datagen --read prints). --lineage TABLE: each file a Data line of TABLE names (by its\n"
        "name less .txt, .games and .xz) must give the lines that line's lines SHA-256 names, so that a\n"
        "file packed without loss stands for the text it was packed from; make train passes the table\n"
        "it rewrites. It is a check, not the recipe: the Command line leaves it out.\n",
        SHARDS, NNUE_HIDDEN_MAX);
}

static int parse_options(int argc, char **argv, Options *o)
{
    ToolOptions *c = &o->tool;
    memset(o, 0, sizeof *o);
    tool_defaults(c, "tables/nnue.h", 30, 0.001, 0.3);
    o->factorize = 1;
    o->threads = 2;
    o->hidden = 256;
    if (!tool_options(argc, argv, c, usage, take_option, o))
        return 0;
    if (!c->data_count || c->epochs < 0 || c->batch < 1 || c->hold_out < 2 || c->rate <= 0 || c->lambda < 0 || c->lambda > 1 || o->k_data < 0
        || o->threads < 1 || o->threads > SHARDS || o->hidden < 16 || o->hidden > NNUE_HIDDEN_MAX || o->hidden % 16
        || o->king_mirror < 0 || o->king_mirror > 1 || (o->load && o->start)) {
        fprintf(stderr, "error: train needs --data FILE; epochs >= 0, batch >= 1, hold-out >= 2, rate > 0, lambda in [0, 1], threads 1 to %d,"
                " hidden a multiple of 16 up to %d, king-mirror 0 or 1, --load or --start but not both\n", SHARDS, NNUE_HIDDEN_MAX);
        return 0;
    }
    return 1;
}

/* Takes one of the trainer's own options into own (an Options): 1, 0 for an unknown key, -1 for
 * a bad value. */
static int take_option(void *own, const char *key, const char *value)
{
    Options *o = own;
    const NumberOption numbers[] = {
        { "--mirror", &o->mirror, NULL }, { "--factorize", &o->factorize, NULL }, { "--threads", &o->threads, NULL },
        { "--hidden", &o->hidden, NULL }, { "--k-data", NULL, &o->k_data }, { "--king-mirror", &o->king_mirror, NULL },
    };
    int taken = take_number(numbers, (int)(sizeof numbers / sizeof numbers[0]), key, value);
    if (taken != 0)
        return taken;
    if (strcmp(key, "--save") == 0)
        o->save = value;
    else if (strcmp(key, "--load") == 0)
        o->load = value;
    else if (strcmp(key, "--start") == 0)
        o->start = value;
    else if (strcmp(key, "--check") == 0)
        o->check = value;
    else
        return 0;
    return 1;
}

/* Stores one labelled position as its inputs from white's view (a LabelledVisit). */
static int add_position(void *context, const Board *b, int score, double result, int held_out)
{
    Trainer *t = context;
    SampleSet *set = held_out ? &t->validation : &t->train;
    Sample *s, *samples;
    uint16_t *inputs;
    int sq, count = 0;
    samples = grow_array(set->samples, &set->capacity, set->size + 1, sizeof(Sample), 1 << 16);
    if (samples)
        set->samples = samples;
    inputs = grow_array(t->inputs, &t->input_capacity, t->input_count + MAX_INPUTS, sizeof(uint16_t), 1 << 22);
    if (inputs)
        t->inputs = inputs;
    if (!samples || !inputs) {
        t->failure = "out of memory for the positions";
        return 1;
    }
    s = &set->samples[set->size++];
    s->first = (uint32_t)t->input_count;
    for (sq = 0; sq < 64; sq++)
        if (b->squares[sq] != EMPTY && count < MAX_INPUTS)
            t->inputs[t->input_count + count++] = (uint16_t)nnue_input(WHITE, b->squares[sq], sq, 0);
    t->input_count += count;
    s->count = (uint8_t)count;
    s->side = (uint8_t)b->side;
    s->bucket = (uint8_t)nnue_bucket(count);
    s->score = (float)score;
    s->result = (float)result;
    s->target = 0;
    return 0;
}

/* Does a thread's pieces of a job (a Worker). */
static void *worker_main(void *arg)
{
    const Worker *w = arg;
    int shard;
    for (shard = w->first; shard < SHARDS; shard += w->step)
        w->run(w->context, shard);
    return NULL;
}

/* Runs every piece of a job on `threads` threads, this one among them (thread i does pieces
 * i, i + threads, ...), and returns when all are done. A thread that cannot be started has
 * its pieces done here. */
static void run_shards(ShardRun run, void *context, int threads)
{
    pthread_t id[SHARDS];
    Worker w[SHARDS];
    int i, started[SHARDS];
    for (i = 0; i < SHARDS; i++) {
        w[i].run = run;
        w[i].context = context;
        w[i].first = i;
        w[i].step = threads;
    }
    for (i = 1; i < threads; i++)
        started[i] = pthread_create(&id[i], NULL, worker_main, &w[i]) == 0;
    worker_main(&w[0]);
    for (i = 1; i < threads; i++) {
        if (started[i])
            pthread_join(id[i], NULL);
        else
            worker_main(&w[i]);
    }
}

/* Sets [from, to) to piece `shard` of 0 .. size - 1. */
static void shard_range(long size, int shard, long *from, long *to)
{
    *from = size * shard / SHARDS;
    *to = size * (shard + 1) / SHARDS;
}

/* Sums a piece's squared errors of the results predicted at both scales (a ScaleJob). */
static void scale_shard(void *context, int shard)
{
    ScaleJob *job = context;
    long i, from, to;
    double ea = 0, eb = 0;
    shard_range(job->set->size, shard, &from, &to);
    for (i = from; i < to; i++) {
        const Sample *s = &job->set->samples[i];
        double da = sigmoid(job->scale[0] * s->score) - s->result, db = sigmoid(job->scale[1] * s->score) - s->result;
        ea += da * da;
        eb += db * db;
    }
    job->sum[shard][0] = ea;
    job->sum[shard][1] = eb;
}

/* Golden-section search for the scale at which the data's scores best predict its results. */
static double fit_k_data(const SampleSet *set, int threads)
{
    double lo = 0.0002, hi = 0.05, g = 0.6180339887498949;
    int step, shard;
    ScaleJob job;
    job.set = set;
    for (step = 0; step < 60; step++) {
        double ea = 0, eb = 0;
        job.scale[0] = hi - g * (hi - lo);
        job.scale[1] = lo + g * (hi - lo);
        run_shards(scale_shard, &job, threads);
        for (shard = 0; shard < SHARDS; shard++) {
            ea += job.sum[shard][0];
            eb += job.sum[shard][1];
        }
        if (ea < eb)
            hi = job.scale[1];
        else
            lo = job.scale[0];
    }
    return (lo + hi) / 2;
}

/* Sets each target, from the side to move's view. */
static void set_targets(SampleSet *set, double k_data, double lambda)
{
    long i;
    for (i = 0; i < set->size; i++) {
        Sample *s = &set->samples[i];
        double white = lambda * s->result + (1 - lambda) * sigmoid(k_data * s->score);
        s->target = (float)(s->side == WHITE ? white : 1 - white);
    }
}

/* Returns the number of parameters of a network of `hidden` per side. */
static long network_count(int hidden)
{
    return (long)NNUE_INPUTS * hidden + hidden + NNUE_BUCKETS * (2L * hidden + 1);
}

/* Makes n the network of `hidden` per side whose parameters are values. */
static void network_place(Network *n, float *values, int hidden)
{
    n->hidden = hidden;
    n->count = network_count(hidden);
    n->values = values;
    n->hidden_weight = values;
    n->hidden_bias = n->hidden_weight + (long)NNUE_INPUTS * hidden;
    n->output_weight = n->hidden_bias + hidden;
    n->output_bias = n->output_weight + NNUE_BUCKETS * 2L * hidden;
}

/* Makes n[0 .. copies - 1] networks of `hidden` per side, all zero, in one allocation (the
 * first's values); returns 0 when out of memory. */
static int network_alloc(Network *n, int hidden, int copies)
{
    long count = network_count(hidden);
    float *values = calloc((size_t)(count * copies), sizeof(float));
    int i;
    for (i = 0; values && i < copies; i++)
        network_place(&n[i], values + count * i, hidden);
    return values != NULL;
}

/* Small random hidden weights (about 30 inputs are on at once), zero biases. */
static void network_init(Network *n, uint64_t *r)
{
    long i;
    for (i = 0; i < (long)NNUE_INPUTS * n->hidden; i++)
        n->hidden_weight[i] = (float)(0.1 * random_normal(r));
    for (i = 0; i < n->hidden; i++)
        n->hidden_bias[i] = 0;
    for (i = 0; i < NNUE_BUCKETS * 2L * n->hidden; i++)
        n->output_weight[i] = (float)(random_normal(r) / sqrt(2.0 * n->hidden));
    for (i = 0; i < NNUE_BUCKETS; i++)
        n->output_bias[i] = 0;
}

/* Returns the file flip (extra.h, nnue_flip_for_king) of a side whose king is the input
 * king_input of white's view (its square is the input's low 6 bits). */
static int king_flip(const Trainer *t, int king_input)
{
    return t->king_mirror && square_file(king_input & 63) >= 4 ? NNUE_FILE_FLIP : 0;
}

/* Writes the inputs of s from the side to move's view and the other side's; with mirror,
 * of the position with files a..h reversed (the same to the network, which sees no castling
 * rights: a free second sample of every position). With king mirroring, each side's view
 * is flipped as its own king's file asks (extra.h), which makes mirror change nothing. */
static void gather(const Trainer *t, const Sample *s, int mirror, Inputs *in)
{
    enum { WHITE_KING = (KING - PAWN) * 64, BLACK_KING = 384 + WHITE_KING };
    const uint16_t *white = t->inputs + s->first;
    int i, flip[2] = { 0, 0 };
    in->count = s->count;
    for (i = 0; t->king_mirror && i < s->count; i++) {
        int w = mirror ? white[i] ^ NNUE_FILE_FLIP : white[i];
        if (w >= WHITE_KING && w < WHITE_KING + 64)
            flip[WHITE] = king_flip(t, w);
        else if (w >= BLACK_KING)
            flip[BLACK] = king_flip(t, w);
    }
    for (i = 0; i < s->count; i++) {
        int w = mirror ? white[i] ^ NNUE_FILE_FLIP : white[i], theirs = w >= 384, type_sq = w % 384;
        int black = ((1 - theirs) * 384 + (type_sq & ~63) + square_flip(type_sq & 63)) ^ flip[BLACK];
        w ^= flip[WHITE];
        in->index[0][i] = (uint16_t)(s->side == WHITE ? w : black);
        in->index[1][i] = (uint16_t)(s->side == WHITE ? black : w);
    }
}

/* Returns the clipped hidden value: the square of this is the activation. */
static float clipped(float h)
{
    return h < 0 ? 0 : h > 1 ? 1 : h;
}

/* Returns the output (centipawns / NNUE_SCALE) of a position of output bucket `bucket`, and
 * leaves the hidden layers in hidden. */
static double forward(const Network *n, const Inputs *in, int bucket, Hidden *hidden)
{
    double out = n->output_bias[bucket];
    int p, i, j, size = n->hidden;
    for (p = 0; p < 2; p++) {
        float *restrict h = hidden->value[p];
        const float *w = n->output_weight + (bucket * 2 + p) * size;
        float sum = 0;
        memcpy(h, n->hidden_bias, sizeof(float) * (size_t)size);
        for (i = 0; i < in->count; i++) {
            const float *restrict row = n->hidden_weight + (long)in->index[p][i] * size;
            for (j = 0; j < size; j++)
                h[j] += row[j];
        }
        for (j = 0; j < size; j++) {
            float a = clipped(h[j]);
            sum += a * a * w[j];
        }
        out += sum;
    }
    return out;
}

/* Sums a piece's squared errors over a set (a LossJob). */
static void loss_shard(void *context, int shard)
{
    LossJob *job = context;
    Scratch *scratch = &job->scratch[shard];
    double sum = 0;
    long i, from, to;
    shard_range(job->set->size, shard, &from, &to);
    for (i = from; i < to; i++) {
        const Sample *s = &job->set->samples[i];
        double p, e;
        gather(job->t, s, 0, &scratch->in);
        p = sigmoid(EVAL_K * NNUE_SCALE * forward(job->n, &scratch->in, s->bucket, &scratch->hidden));
        e = p - s->target;
        sum += e * e;
    }
    job->sum[shard] = sum;
}

/* Returns the mean loss over set, on t->threads threads with the SHARDS scratches. */
static double set_loss(const Trainer *t, const SampleSet *set, const Network *n, Scratch *scratch)
{
    LossJob job;
    double sum = 0;
    int shard;
    job.t = t;
    job.set = set;
    job.n = n;
    job.scratch = scratch;
    run_shards(loss_shard, &job, t->threads);
    for (shard = 0; shard < SHARDS; shard++)
        sum += job.sum[shard];
    return set->size ? sum / (double)set->size : 0;
}

/* Adds the gradient of the position in s (its inputs and hidden layers) to grad, g being
 * d loss / d output. */
static void backward(const Network *n, Network *grad, Scratch *s, int bucket, double g)
{
    float *delta = s->delta;
    int p, i, j, size = n->hidden;
    grad->output_bias[bucket] += (float)g;
    for (p = 0; p < 2; p++) {
        const float *h = s->hidden.value[p], *w = n->output_weight + (bucket * 2 + p) * size;
        float *gw = grad->output_weight + (bucket * 2 + p) * size, gf = (float)g;
        for (j = 0; j < size; j++) {
            float a = clipped(h[j]);
            gw[j] += gf * a * a;
            delta[j] = h[j] > 0 && h[j] < 1 ? 2 * a * gf * w[j] : 0;
            grad->hidden_bias[j] += delta[j];
        }
        for (i = 0; i < s->in.count; i++) {
            float *restrict row = grad->hidden_weight + (long)s->in.index[p][i] * size;
            for (j = 0; j < size; j++)
                row[j] += delta[j];
        }
    }
}

/* Sums the gradient and the loss of a piece of a mini-batch into its own buffers (a BatchJob). */
static void batch_shard(void *context, int shard)
{
    BatchJob *job = context;
    Network *grad = &job->grad[shard];
    Scratch *scratch = &job->scratch[shard];
    double loss = 0;
    long q, from, to;
    shard_range(job->end - job->begin, shard, &from, &to);
    memset(grad->values, 0, sizeof(float) * (size_t)grad->count);
    for (q = job->begin + from; q < job->begin + to; q++) {
        const Sample *s = &job->t->train.samples[job->order[q]];
        double p, g;
        gather(job->t, s, job->mirror[q - job->begin], &scratch->in);
        p = sigmoid(EVAL_K * NNUE_SCALE * forward(job->n, &scratch->in, s->bucket, &scratch->hidden));
        g = 2 * (p - s->target) * p * (1 - p) * EVAL_K * NNUE_SCALE;
        loss += (p - s->target) * (p - s->target);
        backward(job->n, grad, scratch, s->bucket, g);
    }
    job->loss[shard] = loss;
}

/* One Adam step on count weights from their summed gradients (divided by scale), keeping
 * every weight within +-WEIGHT_CLIP. */
static void adam_step(float *w, const float *g, float *m1, float *m2, long count, double rate, long step, double scale)
{
    const double beta1 = 0.9, beta2 = 0.999, epsilon = 1e-8;
    double c1 = 1 - pow(beta1, (double)step), c2 = 1 - pow(beta2, (double)step);
    long i;
    for (i = 0; i < count; i++) {
        double gi = g[i] / scale, value;
        m1[i] = (float)(beta1 * m1[i] + (1 - beta1) * gi);
        m2[i] = (float)(beta2 * m2[i] + (1 - beta2) * gi * gi);
        value = w[i] - rate * (m1[i] / c1) / (sqrt(m2[i] / c2) + epsilon);
        w[i] = (float)(value > WEIGHT_CLIP ? WEIGHT_CLIP : value < -WEIGHT_CLIP ? -WEIGHT_CLIP : value);
    }
}

/* Returns the factor of kind 0 (piece), 1 (piece and rank) or 2 (piece and file) that an
 * input belongs to. */
static int factor_of(int input, int kind)
{
    int piece = input / 64, sq = input % 64;
    return kind == 0 ? piece : kind == 1 ? PIECE_GROUPS + piece * 8 + square_rank(sq)
                                         : PIECE_GROUPS * 9 + piece * 8 + square_file(sq);
}

/* Makes f the factors of a network of `hidden` per side, all zero; returns 0 when out of memory. */
static int factors_alloc(Factors *f, int hidden)
{
    size_t size = (size_t)FACTORS * (size_t)hidden;
    f->hidden = hidden;
    f->weight = calloc(5 * size, sizeof(float));
    if (!f->weight)
        return 0;
    f->gradient = f->weight + size;
    f->moment1 = f->gradient + size;
    f->moment2 = f->moment1 + size;
    f->before = f->moment2 + size;
    return 1;
}

/* Steps the factors by Adam on their gradients (the sums of their inputs' gradients in grad)
 * and moves every input's weights by what its three factors moved, after the network's own
 * step, keeping them within +-WEIGHT_CLIP: for the hidden columns from .. to - 1 only. */
static void factors_step(Factors *f, Network *n, const Network *grad, double rate, long step, double scale, int from, int to)
{
    int input, kind, factor, j, size = f->hidden;
    for (factor = 0; factor < FACTORS; factor++)
        memset(f->gradient + factor * size + from, 0, sizeof(float) * (size_t)(to - from));
    for (input = 0; input < NNUE_INPUTS; input++)
        for (kind = 0; kind < 3; kind++) {
            float *g = f->gradient + factor_of(input, kind) * size;
            const float *source = grad->hidden_weight + input * size;
            for (j = from; j < to; j++)
                g[j] += source[j];
        }
    for (factor = 0; factor < FACTORS; factor++) {
        long first = (long)factor * size + from;
        memcpy(f->before + first, f->weight + first, sizeof(float) * (size_t)(to - from));
        adam_step(f->weight + first, f->gradient + first, f->moment1 + first, f->moment2 + first, to - from, rate, step,
                  scale);
    }
    for (input = 0; input < NNUE_INPUTS; input++)
        for (kind = 0; kind < 3; kind++) {
            int first = factor_of(input, kind) * size;
            float *w = n->hidden_weight + input * size;
            for (j = from; j < to; j++) {
                float value = w[j] + f->weight[first + j] - f->before[first + j];
                w[j] = value > WEIGHT_CLIP ? (float)WEIGHT_CLIP : value < -WEIGHT_CLIP ? (float)-WEIGHT_CLIP : value;
            }
        }
}

/* Adds a piece's range of parameters of the gradients into grad[0], in piece order, and
 * steps them by Adam (a StepJob). The network is one array of floats: it is stepped as one. */
static void step_shard(void *context, int shard)
{
    StepJob *job = context;
    float *sum = job->grad[0].values;
    long i, from, to;
    int k;
    shard_range(job->n->count, shard, &from, &to);
    for (k = 1; k < SHARDS; k++) {
        const float *g = job->grad[k].values;
        for (i = from; i < to; i++)
            sum[i] += g[i];
    }
    adam_step(job->n->values + from, sum + from, job->moment1.values + from, job->moment2.values + from, to - from,
              job->rate, job->step, job->scale);
}

/* The factors' part of a StepJob, once every parameter's gradient is summed and stepped. */
static void factors_shard(void *context, int shard)
{
    StepJob *job = context;
    long from, to;
    shard_range(job->n->hidden, shard, &from, &to);
    factors_step(job->factors, job->n, job->grad, job->rate, job->step, job->scale, (int)from, (int)to);
}

/* Mini-batch Adam over the training set; the rate falls geometrically to a twentieth.
 * Prints both losses after every epoch. */
static void train(Trainer *t, const Options *o, Network *n, Scratch *scratch)
{
    Network grad[SHARDS], moments[2];
    Factors factors;
    uint8_t *mirror = malloc((size_t)o->tool.batch);
    char err[400];
    long *order = malloc(sizeof(long) * (size_t)t->train.size), step = 0, j;
    int epoch, shard;
    BatchJob batch;
    StepJob update;
    uint64_t r;
    if (!network_alloc(grad, n->hidden, SHARDS) || !network_alloc(moments, n->hidden, 2) || !order
        || !factors_alloc(&factors, n->hidden) || !mirror) {
        fprintf(stderr, "error: out of memory for the gradients\n");
        exit(1);
    }
    batch.t = t;
    batch.n = n;
    batch.grad = grad;
    batch.scratch = scratch;
    batch.order = order;
    batch.mirror = mirror;
    update.n = n;
    update.grad = grad;
    update.moment1 = moments[0];
    update.moment2 = moments[1];
    update.factors = &factors;
    r = random_seed(o->tool.seed + 1);
    for (j = 0; j < t->train.size; j++)
        order[j] = j;
    for (epoch = 1; epoch <= o->tool.epochs; epoch++) {
        double rate = o->tool.rate * pow(0.05, o->tool.epochs > 1 ? (double)(epoch - 1) / (o->tool.epochs - 1) : 0), loss = 0;
        for (j = t->train.size - 1; j > 0; j--) {
            long other = (long)(random_next(&r) % (uint64_t)(j + 1)), tmp = order[j];
            order[j] = order[other];
            order[other] = tmp;
        }
        for (j = 0; j < t->train.size; j += o->tool.batch) {
            long q;
            batch.begin = j;
            batch.end = j + o->tool.batch < t->train.size ? j + o->tool.batch : t->train.size;
            for (q = batch.begin; q < batch.end; q++)
                mirror[q - j] = (uint8_t)(o->mirror && (random_next(&r) & 1));
            run_shards(batch_shard, &batch, t->threads);
            for (shard = 0; shard < SHARDS; shard++)
                loss += batch.loss[shard];
            update.rate = rate;
            update.scale = (double)(batch.end - batch.begin);
            update.step = ++step;
            run_shards(step_shard, &update, t->threads);
            if (o->factorize)
                run_shards(factors_shard, &update, t->threads);
        }
        printf("epoch %3d: training %.6f (during the epoch), validation %.6f (rate %.6f)\n", epoch,
               loss / (double)t->train.size, set_loss(t, &t->validation, n, scratch), rate);
        if (o->save && !save_floats(n, o->save, err, sizeof err))
            fprintf(stderr, "warning: %s\n", err);
        fflush(stdout);
    }
    free(grad[0].values);
    free(moments[0].values);
    free(factors.weight);
    free(mirror);
    free(order);
}

/* The float network's file: a tag that names the layout and ends with its '\0', then the
 * network's values as they lie in memory. */
enum { FLOAT_TAG_SIZE = 64 };
static void float_tag(int hidden, char *tag, size_t size)
{
    snprintf(tag, size, "boxer-network-%d-%dx2-screlu-%d", NNUE_INPUTS, hidden, NNUE_BUCKETS);
}

static int save_floats(const Network *n, const char *path, char *err, size_t err_size)
{
    FILE *f = begin_output(path, err, err_size);
    char tag[FLOAT_TAG_SIZE];
    if (!f)
        return 0;
    float_tag(n->hidden, tag, sizeof tag);
    if (fwrite(tag, strlen(tag) + 1, 1, f) != 1 || fwrite(n->values, sizeof(float), (size_t)n->count, f) != (size_t)n->count) {
        snprintf(err, err_size, "cannot write %s", path);
        abandon_output(f, path);
        return 0;
    }
    return commit_output(f, path, err, err_size);
}

static int load_floats(Network *n, const char *path, char *err, size_t err_size)
{
    FILE *f = fopen(path, "rb");
    char tag[FLOAT_TAG_SIZE], found[FLOAT_TAG_SIZE];
    size_t length;
    int ok;
    if (!f) {
        snprintf(err, err_size, "cannot read %s", path);
        return 0;
    }
    float_tag(n->hidden, tag, sizeof tag);
    length = strlen(tag) + 1;
    ok = fread(found, length, 1, f) == 1 && memcmp(found, tag, length) == 0
         && fread(n->values, sizeof(float), (size_t)n->count, f) == (size_t)n->count;
    fclose(f);
    if (!ok)
        snprintf(err, err_size, "%s is not a network of this layout (%s)", path, tag);
    return ok;
}

/* Reads the integers of the C array `name` in text (`name[...] = { 1, -2, ... }`) into values
 * (at most capacity) and their number into count; 0 if there is no such array or it is longer. */
static int table_numbers(const char *text, const char *name, long *values, long capacity, long *count)
{
    const char *at = strstr(text, name), *end;
    *count = 0;
    if (!at || !(at = strchr(at, '{')) || !(end = strchr(at, '}')))
        return 0;
    for (at++; at < end;) {
        char *next;
        long value = strtol(at, &next, 10);
        if (next == at) {
            at++;
            continue;
        }
        if (*count >= capacity)
            return 0;
        values[(*count)++] = value;
        at = next;
    }
    return 1;
}

/* Writes into out the path of the shape header beside the table at path: the table's name less
 * ".h", then "-shape.h" (tables/nnue.h: tables/nnue-shape.h). Returns 0 if it is too long. */
static int shape_path(const char *path, char *out, size_t size)
{
    size_t length = strlen(path);
    if (length >= 2 && strcmp(path + length - 2, ".h") == 0)
        length -= 2;
    return length < size && snprintf(out, size, "%.*s-shape.h", (int)length, path) < (int)size;
}

/* Returns 1 if the table named name, whose text is text, has this hidden size and king mirroring,
 * as its shape header's text says (shape; NULL for a table written whole, as tables were before
 * their shape had a header of its own, whose text says it); else 0, with the reason in err. */
static int table_shape_is(const char *name, const char *text, const char *shape, int hidden, int king_mirror, char *err,
                          size_t err_size)
{
    char define[80];
    const char *said = shape ? shape : text;
    int ok;
    snprintf(define, sizeof define, "#define NNUE_TABLE_HIDDEN %d\n", hidden);
    ok = strstr(said, define) && strstr(said, king_mirror ? "#define NNUE_TABLE_KING_MIRROR 1" : "#define NNUE_TABLE_KING_MIRROR 0");
    if (!ok)
        snprintf(err, err_size, "%s is not a network of this layout (%d hidden per side, king mirroring %d)", name, hidden,
                 king_mirror);
    return ok;
}

/* Returns 1 if a table's text states its shape itself (a table written whole). */
static int table_has_shape(const char *text)
{
    return strstr(text, "#define NNUE_TABLE_HIDDEN ") != NULL;
}

/* Starts from a table of tools/train.c's own (write_network), named name, whose text is text and
 * whose shape header's text is shape (NULL when the table states its shape): its weights divided
 * by the factors they were quantized with, the hidden weights unpacked as extra.c unpacks them
 * (unpack_hidden). The table must have this network's hidden size and king mirroring. */
static int load_table_text(Network *n, int king_mirror, const char *name, const char *text, const char *shape, char *err,
                           size_t err_size)
{
    long count = (long)NNUE_INPUTS * n->hidden, outputs = 2L * n->hidden * NNUE_BUCKETS, found[6], i, high = 0;
    long total = count + count / 8 + (count / 2 + 1) + n->hidden + outputs + NNUE_BUCKETS;
    long *values = malloc(sizeof(long) * (size_t)total), *low = values, *map, *upper, *bias, *out, *out_bias;
    int ok = 0;
    if (!values) {
        snprintf(err, err_size, "out of memory for %s", name);
        return 0;
    }
    if (!table_shape_is(name, text, shape, n->hidden, king_mirror, err, err_size))
        goto done;
    map = low + count;
    upper = map + count / 8;
    ok = table_numbers(text, "NNUE_HIDDEN_LOW[", low, count, &found[0]) && found[0] == count
         && table_numbers(text, "NNUE_HIDDEN_MAP[", map, count / 8, &found[1]) && found[1] == count / 8
         && table_numbers(text, "NNUE_HIDDEN_HIGH[", upper, count / 2 + 1, &found[2]);
    bias = upper + (ok ? found[2] : 0);
    out = bias + n->hidden;
    out_bias = out + outputs;
    ok = ok && table_numbers(text, "NNUE_HIDDEN_BIASES[", bias, n->hidden, &found[3]) && found[3] == n->hidden
         && table_numbers(text, "NNUE_OUTPUT_WEIGHTS[", out, outputs, &found[4]) && found[4] == outputs
         && table_numbers(text, "NNUE_OUTPUT_BIASES[", out_bias, NNUE_BUCKETS, &found[5]) && found[5] == NNUE_BUCKETS;
    if (!ok) {
        snprintf(err, err_size, "%s is not a network of this layout (its arrays are missing or of other sizes)", name);
        goto done;
    }
    for (i = 0; i < count; i++) {
        unsigned more = (unsigned)map[i / 8] >> i % 8 & 1u, zigzag = (unsigned)low[i];
        if (more)
            zigzag |= ((unsigned)upper[high / 2] >> high % 2 * 4 & 15u) << 8;
        high += more;
        n->hidden_weight[i] = (float)((double)nnue_unzigzag(zigzag) / NNUE_QA);
    }
    for (i = 0; i < n->hidden; i++)
        n->hidden_bias[i] = (float)((double)bias[i] / NNUE_QA);
    for (i = 0; i < outputs; i++)
        n->output_weight[i] = (float)((double)out[i] / NNUE_QB);
    for (i = 0; i < NNUE_BUCKETS; i++)
        n->output_bias[i] = (float)((double)out_bias[i] / NNUE_QB);
done:
    free(values);
    return ok;
}

/* Starts from the table at path (load_table_text), its shape header beside it unless it states
 * its shape itself. */
static int load_table(Network *n, int king_mirror, const char *path, char *err, size_t err_size)
{
    char shape_name[SHAPE_PATH_MAX], *text = read_text_file(path), *shape = NULL;
    int ok = 0;
    if (!text)
        snprintf(err, err_size, "cannot read %s", path);
    else if (!table_has_shape(text) && (!shape_path(path, shape_name, sizeof shape_name) || !(shape = read_text_file(shape_name))))
        snprintf(err, err_size, "cannot read the shape of %s (its header beside it, NAME-shape.h)", path);
    else
        ok = load_table_text(n, king_mirror, path, text, shape, err, err_size);
    free(text);
    free(shape);
    return ok;
}

/* Starts from the network at path: a float network (save_floats) or a table (load_table). */
static int load_network(Network *n, int king_mirror, const char *path, char *err, size_t err_size)
{
    char head[3] = "";
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, err_size, "cannot read %s", path);
        return 0;
    }
    if (fread(head, 1, 2, f) != 2)
        head[0] = '\0';
    fclose(f);
    return strcmp(head, "/*") == 0 ? load_table(n, king_mirror, path, err, err_size) : load_floats(n, path, err, err_size);
}

/* Starts from the table a shipped network left in git's history (--start COMMIT): the
 * START_TABLE of that commit of the repository of the current directory (and its START_SHAPE
 * when the table does not state its shape), read with git; writes into line the header's line
 * naming it, " * Start: COMMIT START_TABLE SHA-256 HEX", with the full commit and the digest of
 * the table's bytes. Returns 1, or 0 with the reason in err. */
static int load_start(Network *n, int king_mirror, const char *commit, char *line, size_t line_size, char *err,
                      size_t err_size)
{
    char command[200], full[41], hex[65], name[80], *said, *text = NULL, *shape = NULL;
    size_t digits = strspn(commit, "0123456789abcdefABCDEF"), length = 0;
    int ok = 0;
    if (commit[digits] || digits < 4 || digits > 40) {
        snprintf(err, err_size, "--start takes a commit as 4 to 40 hexadecimal digits, not '%s'", commit);
        return 0;
    }
    snprintf(command, sizeof command, "git rev-parse --verify --quiet '%s^{commit}' 2>/dev/null", commit);
    said = command_output(command, &length);
    if (!said || length != 41) {
        snprintf(err, err_size, "commit %s is not in the history of the repository here (git rev-parse; run it in a whole clone)",
                 commit);
        free(said);
        return 0;
    }
    snprintf(full, sizeof full, "%.40s", said);
    free(said);
    snprintf(name, sizeof name, "%s of commit %.12s", START_TABLE, full);
    snprintf(command, sizeof command, "git cat-file blob %s:%s 2>/dev/null", full, START_TABLE);
    if (!(text = command_output(command, &length))) {
        snprintf(err, err_size, "commit %s has no %s", full, START_TABLE);
        return 0;
    }
    text_sha256(text, length, hex);
    snprintf(command, sizeof command, "git cat-file blob %s:%s 2>/dev/null", full, START_SHAPE);
    if (!table_has_shape(text) && !(shape = command_output(command, &length)))
        snprintf(err, err_size, "commit %s has no %s beside its %s", full, START_SHAPE, START_TABLE);
    else if ((ok = load_table_text(n, king_mirror, name, text, shape, err, err_size)))
        snprintf(line, line_size, " * Start: %s %s SHA-256 %s", full, START_TABLE, hex);
    free(text);
    free(shape);
    return ok;
}

/* Prints "check FEN | SCORE" for each FEN of the file at path (a labelled line's FEN part
 * will do): the float network's score, centipawns from white's view, which the engine's
 * int16 network should give back within its rounding. */
static int print_checks(Trainer *t, const Network *n, const char *path, Scratch *scratch)
{
    char line[512], err[200];
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "error: cannot read %s\n", path);
        return 0;
    }
    while (fgets(line, sizeof line, f)) {
        Board b;
        Sample *s;
        double score;
        line[strcspn(line, "|\r\n")] = '\0';
        if (!board_from_fen(&b, line, err, sizeof err) || add_position(t, &b, 0, 0, 0) != 0)
            continue;
        /* borrow the end of the training set for a moment */
        s = &t->train.samples[--t->train.size];
        t->input_count -= s->count;
        gather(t, s, 0, &scratch->in);
        score = forward(n, &scratch->in, s->bucket, &scratch->hidden) * NNUE_SCALE;
        printf("check %s | %.1f\n", line, b.side == WHITE ? score : -score);
    }
    fclose(f);
    return 1;
}

static int quantize(double value, double factor)
{
    return (int)lround(value * factor);
}

/* Writes count values times factor, rounded, 16 to a line, each followed by a comma. */
static void write_values(FILE *f, const float *values, long count, double factor)
{
    long i;
    for (i = 0; i < count; i++)
        fprintf(f, "%s%d,%s", i % 16 ? " " : "    ", quantize(values[i], factor), i % 16 == 15 || i == count - 1 ? "\n" : "");
}

/* Writes count bytes, 24 to a line, each followed by a comma. */
static void write_bytes(FILE *f, const uint8_t *bytes, long count)
{
    long i;
    for (i = 0; i < count; i++)
        fprintf(f, "%s%d,%s", i % 24 ? " " : "    ", bytes[i], i % 24 == 23 || i == count - 1 ? "\n" : "");
}

/* Writes the hidden weights, quantized, packed as extra.c unpacks them (unpack_hidden): each
 * weight zigzagged (0, -1, 1, -2, ... as 0, 1, 2, 3, ...), its low 8 bits in NNUE_HIDDEN_LOW,
 * one bit in NNUE_HIDDEN_MAP for each weight with more, and those weights' higher bits, 4
 * each, two to a byte (the first in the low half), in NNUE_HIDDEN_HIGH. */
static void write_hidden_packed(FILE *f, const Network *n)
{
    long count = (long)NNUE_INPUTS * n->hidden, i, high = 0;
    uint8_t *low = malloc((size_t)count), *map = calloc((size_t)count / 8, 1), *rest = calloc((size_t)count / 2 + 1, 1);
    if (!low || !map || !rest) {
        fprintf(stderr, "error: out of memory for the table\n");
        exit(1);
    }
    for (i = 0; i < count; i++) {
        int value = quantize(n->hidden_weight[i], NNUE_QA);
        unsigned zigzag = nnue_zigzag(value);
        low[i] = (uint8_t)(zigzag & 255);
        if (zigzag >> 8) {
            assert(zigzag >> 8 < 16); /* the weights are within +-WEIGHT_CLIP * NNUE_QA */
            map[i / 8] = (uint8_t)(map[i / 8] | 1u << i % 8);
            rest[high / 2] = (uint8_t)(rest[high / 2] | (zigzag >> 8) << high % 2 * 4);
            high++;
        }
    }
    fprintf(f, "static const uint8_t NNUE_HIDDEN_LOW[%d * %d] = {\n", NNUE_INPUTS, n->hidden);
    write_bytes(f, low, count);
    fprintf(f, "};\nstatic const uint8_t NNUE_HIDDEN_MAP[%d * %d / 8] = {\n", NNUE_INPUTS, n->hidden);
    write_bytes(f, map, count / 8);
    fprintf(f, "};\nstatic const uint8_t NNUE_HIDDEN_HIGH[%ld] = {\n", high / 2 + 1);
    write_bytes(f, rest, high / 2 + 1);
    fprintf(f, "};\n");
    free(low);
    free(map);
    free(rest);
}

/* Writes the network's weights, quantized as extra.h says, as the C header at path, which
 * extra.c alone reads (the hidden weights packed); its shape is the header `shape`. */
static void write_weights(FILE *f, const Network *n, const char *path, const char *shape, const char *summary)
{
    int hidden = n->hidden;
    fprintf(f, "/* %s: the evaluation network's weights, read by extra.c alone; its shape is\n"
               " * %s (%d inputs, %d hidden per side, 1 output). int16 as extra.h says, the\n"
               " * hidden weights packed (tools/train.c, write_hidden_packed). Generated by tools/train.c\n"
               " * (`make train`) from positions labelled by Stockfish 15.1 (GPL-3; its scores and game\n"
               " * results are the training labels); do not edit by hand.\n%s */\n",
            path, shape, NNUE_INPUTS, hidden, summary);
    fprintf(f, "#ifndef TABLES_NNUE_H\n#define TABLES_NNUE_H\n\n");
    write_hidden_packed(f, n);
    fprintf(f, "static const int16_t NNUE_HIDDEN_BIASES[%d] = {\n", hidden);
    write_values(f, n->hidden_bias, hidden, NNUE_QA);
    fprintf(f, "};\nstatic const int16_t NNUE_OUTPUT_WEIGHTS[%d * 2 * %d] = {\n", NNUE_BUCKETS, hidden);
    write_values(f, n->output_weight, NNUE_BUCKETS * 2L * hidden, NNUE_QB);
    fprintf(f, "};\nstatic const int32_t NNUE_OUTPUT_BIASES[%d] = {\n", NNUE_BUCKETS);
    write_values(f, n->output_bias, NNUE_BUCKETS, NNUE_QB);
    fprintf(f, "};\n#endif\n");
}

/* Writes the network's shape as the C header `shape`, which extra.h reads (so every file that
 * includes it): its hidden size, output buckets and king mirroring. */
static void write_shape(FILE *f, const Network *n, const Options *o, const char *shape, const char *summary)
{
    fprintf(f, "/* %s: the evaluation network's shape, read by extra.h (so by every file that\n"
               " * includes it); its weights are %s (%d inputs, %d hidden per side, 1 output from\n"
               " * one of %d buckets, king mirroring %d). Generated by tools/train.c (`make train`) with\n"
               " * those weights; do not edit by hand.\n%s */\n",
            shape, o->tool.out, NNUE_INPUTS, n->hidden, NNUE_BUCKETS, o->king_mirror, summary);
    fprintf(f, "#ifndef TABLES_NNUE_SHAPE_H\n#define TABLES_NNUE_SHAPE_H\n#define NNUE_TABLE_HIDDEN %d\n"
               "#define NNUE_TABLE_BUCKETS %d\n#define NNUE_TABLE_KING_MIRROR %d\n#endif\n",
            n->hidden, NNUE_BUCKETS, o->king_mirror);
}

/* Writes the network as two C headers, its weights at --out and its shape beside them
 * (shape_path), each whole before either replaces an older one. */
static int write_network(const Network *n, const Options *o, const char *summary, char *err, size_t err_size)
{
    char shape[SHAPE_PATH_MAX];
    FILE *weights, *header;
    if (!shape_path(o->tool.out, shape, sizeof shape)) {
        snprintf(err, err_size, "the name %s is too long", o->tool.out);
        return 0;
    }
    if (!(weights = begin_output(o->tool.out, err, err_size)))
        return 0;
    if (!(header = begin_output(shape, err, err_size))) {
        abandon_output(weights, o->tool.out);
        return 0;
    }
    write_weights(weights, n, o->tool.out, shape, summary);
    write_shape(header, n, o, shape, summary);
    if (ferror(weights) || ferror(header)) {
        snprintf(err, err_size, "cannot write %.256s", ferror(weights) ? o->tool.out : shape);
        abandon_output(weights, o->tool.out);
        abandon_output(header, shape);
        return 0;
    }
    if (!commit_output(weights, o->tool.out, err, err_size)) {
        abandon_output(header, shape);
        return 0;
    }
    return commit_output(header, shape, err, err_size);
}

int main(int argc, char **argv)
{
    static Trainer t;
    static Scratch scratch[SHARDS];
    Network n;
    Options o;
    uint64_t r;
    char err[400], summary[2400], start_line[160];
    double k_data, before[2], after[2];
    size_t used;
    setvbuf(stdout, NULL, _IOLBF, 0); /* a line an epoch, also into a log */
    movement_init();
    if (!parse_options(argc, argv, &o))
        return EXIT_USAGE;
    t.threads = o.threads;
    t.king_mirror = o.king_mirror;
    if (!network_alloc(&n, o.hidden, 1)) {
        fprintf(stderr, "error: out of memory for the network\n");
        return 1;
    }
    r = random_seed(o.tool.seed);
    network_init(&n, &r);
    if ((o.load && !load_network(&n, o.king_mirror, o.load, err, sizeof err))
        || (o.start && !load_start(&n, o.king_mirror, o.start, start_line, sizeof start_line, err, sizeof err))) {
        fprintf(stderr, "error: %s\n", err);
        return 1;
    }
    if (!tool_read_data(&o.tool, add_position, &t, &t.failure))
        return 1;
    if (!t.train.size || !t.validation.size) {
        fprintf(stderr, "error: too few positions to train and validate (%ld and %ld)\n", t.train.size, t.validation.size);
        return 1;
    }
    k_data = o.k_data > 0 ? o.k_data : fit_k_data(&t.train, t.threads);
    set_targets(&t.train, k_data, o.tool.lambda);
    set_targets(&t.validation, k_data, o.tool.lambda);
    before[0] = set_loss(&t, &t.train, &n, scratch);
    before[1] = set_loss(&t, &t.validation, &n, scratch);
    printf("%ld training and %ld validation positions; K_data %.6f, K %.6f, lambda %.2f, %d hidden per side\n",
           t.train.size, t.validation.size, k_data, EVAL_K, o.tool.lambda, n.hidden);
    printf("before: training %.6f, validation %.6f\n", before[0], before[1]);
    train(&t, &o, &n, scratch);
    after[0] = set_loss(&t, &t.train, &n, scratch);
    after[1] = set_loss(&t, &t.validation, &n, scratch);
    printf("after:  training %.6f, validation %.6f\n", after[0], after[1]);
    used = tool_command(summary, sizeof summary, "train", &o.tool, argc, argv, o.start ? start_line : NULL);
    snprintf(summary + used, sizeof summary - used,
             "\n * %ld training and %ld validation positions; K_data %.6f, K %.6f, lambda %.2f, %d epochs.\n"
             " * Loss (mean squared error of the win probability) before: training %.6f, validation %.6f;\n"
             " * after: training %.6f, validation %.6f.\n",
             t.train.size, t.validation.size, k_data, EVAL_K, o.tool.lambda, o.tool.epochs, before[0], before[1], after[0], after[1]);
    if (!write_network(&n, &o, summary, err, sizeof err)) {
        fprintf(stderr, "error: %s\n", err);
        return 1;
    }
    printf("wrote %s and its shape beside it\n", o.tool.out);
    if (o.check && !print_checks(&t, &n, o.check, scratch))
        return 1;
    return 0;
}
