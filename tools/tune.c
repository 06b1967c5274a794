/* tools/tune.c: fits every weight of the hand-written evaluation (extra.c) to labelled
 * positions at once, and writes them as tables/hce.h.
 *
 * The method is Texel's tuning (Peter Österlund, chessprogramming.org "Texel's Tuning
 * Method") with a linear trace of the evaluation's features, as Ethereal's tuner does it
 * (Andrew Grant, "Evaluation & Tuning in Chess Engines", 2020): each position is stored
 * once as the features extra.c counted for it, so that an epoch is a sum over those
 * features and never runs the evaluation. The error is the mean squared difference
 * between sigmoid(K * eval) and a target that blends the game's result with
 * sigmoid(K_data * SCORE):
 *     target = lambda * RESULT + (1 - lambda) * sigmoid(K_data * SCORE)
 * K_data is the scale at which the data's own scores best predict its results; K is then
 * fitted for the evaluation as it stands, before any weight moves. The weights follow by
 * mini-batch gradient descent with Adam (Kingma and Ba 2014). */
#include "../extra.h"
#include "common.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { EXIT_USAGE = 2 };

/* One position as the tuner sees it. */
typedef struct {
    uint32_t first;         /* its linear terms, then its danger terms, in Tuner.terms */
    uint16_t linear_count;
    uint16_t danger_count;
    float mg_share;         /* d eval / d middlegame sum: fade * phase / PHASE_MAX */
    float eg_share;         /* d eval / d endgame sum: fade * (PHASE_MAX - phase) * scale / SCALE_NORMAL / PHASE_MAX */
    float score;            /* the data's SCORE, white's view */
    float result;           /* the game's result, white's view */
    float target;
} Sample;

/* A weight and how often it counts: white minus black (linear), or per side (danger). */
typedef struct {
    uint16_t weight;
    int8_t count[2];        /* linear terms use count[0] as white minus black */
} Term;

typedef struct {
    Sample *samples;
    long size, capacity;
} SampleSet;

typedef struct {
    SampleSet train, validation;
    Term *terms;
    long term_count, term_capacity;
    long special;           /* positions that mating knowledge or a dead draw decides: skipped */
    const EvalGroup *groups;
    int group_count, weight_count;
    int *danger;            /* per weight: 1 for the king danger weights */
    const double *start_mg, *start_eg; /* the weights extra.c was built with */
    double worst_gap;       /* the largest difference between eval_features and the features' sum */
    const char *failure;    /* set when memory runs out */
} Tuner;

typedef ToolOptions Options;

/* prototypes */
static int parse_options(int argc, char **argv, Options *o);
static void usage(FILE *out);
static int add_position(void *context, const Board *b, int score, double result, int held_out);
static Term *grow_terms(Tuner *t, long more);
static double sample_eval(const Sample *s, const Term *terms, const double *mg, const double *eg, double danger[2][2]);
static double danger_mg(double d);
static double danger_eg(double d);
static double set_error(const SampleSet *set, const Term *terms, const double *mg, const double *eg, double k);
static double fit_k_data(const SampleSet *set);
static double fit_k(const SampleSet *set, const Term *terms, const double *mg, const double *eg);
static void set_targets(SampleSet *set, double k_data, double lambda);
static void train(Tuner *t, const Options *o, double k, double *mg, double *eg);
static void add_gradient(const Sample *s, const Term *terms, const double *mg, const double *eg, double k,
                         double *grad_mg, double *grad_eg);
static int write_table(const Tuner *t, const Options *o, const double *mg, const double *eg, const char *summary,
                       char *err, size_t err_size);

static void usage(FILE *out)
{
    fprintf(out,
        "usage: tune --data FILE [--data FILE ...] [--add FILE ...] [--out tables/hce.h] [--epochs 200]\n"
        "            [--batch 16384] [--rate 1.0] [--lambda 0.5] [--seed 1] [--limit LINES] [--hold-out 10]\n"
        "            [--train-share 1] [--lineage TABLE]\n"
        "Fits the weights of extra.c to labelled positions (lines `FEN | SCORE | RESULT`, FILE '-'\n"
        "for standard input; a name ending in .games or .games.xz: datagen's game records; one ending in\n"
        ".xz is read through xz -dc) and writes them as a C table. Every tenth game (--hold-out N: every\n"
        "N-th; a run of lines with one result and rising move numbers) is held out for validation;\n"
        "--train-share S (0 < S <= 1) fits on that share of the other games, spread evenly. --add FILE\n"
        "is fitted on whole: none of its games held out or passed over. The target\n"
        "blends the result (lambda) with the sigmoid of SCORE (1 - lambda). --lineage TABLE: each file\n"
        "a Data line of TABLE names (by its name less .txt, .games and .xz) must give the lines that\n"
        "line's lines SHA-256 names, or nothing is fitted.\n");
}

static int parse_options(int argc, char **argv, Options *o)
{
    tool_defaults(o, "tables/hce.h", 200, 1.0, 0.5);
    if (!tool_options(argc, argv, o, usage, NULL, NULL))
        return 0;
    if (!o->data_count || o->epochs < 0 || o->batch < 1 || o->hold_out < 2 || o->rate <= 0 || o->lambda < 0 || o->lambda > 1) {
        fprintf(stderr, "error: tune needs --data FILE; epochs >= 0, batch >= 1, hold-out >= 2, rate > 0, lambda in [0, 1]\n");
        return 0;
    }
    return 1;
}

/* Grows the term array for `more` terms; returns where they go, or NULL. */
static Term *grow_terms(Tuner *t, long more)
{
    Term *terms = grow_array(t->terms, &t->term_capacity, t->term_count + more, sizeof(Term), 1 << 20);
    if (!terms)
        return NULL;
    t->terms = terms;
    return t->terms + t->term_count;
}

/* Stores one labelled position as its features (a LabelledVisit): each linear weight once
 * with its white-minus-black count, then each danger weight with its count per side. */
static int add_position(void *context, const Board *b, int score, double result, int held_out)
{
    static EvalFeatures f;
    static int net[1 << 16], side[1 << 16][2], touched[EVAL_FEATURES_MAX];
    Tuner *t = context;
    SampleSet *set = held_out ? &t->validation : &t->train;
    Sample *s;
    Term *out;
    int i, n = 0, pass, fade, engine_eval;
    double danger[2][2], gap;
    engine_eval = eval_features(b, &f);
    if (!f.linear) {
        t->special++;
        return 0;
    }
    if ((s = grow_array(set->samples, &set->capacity, set->size + 1, sizeof(Sample), 1 << 16)) == NULL) {
        t->failure = "out of memory for the positions";
        return 1;
    }
    set->samples = s;
    if (!(out = grow_terms(t, f.length))) {
        t->failure = "out of memory for the features";
        return 1;
    }
    for (i = 0; i < f.length; i++) {
        int w = f.list[i].weight;
        if (!net[w] && !side[w][WHITE] && !side[w][BLACK])
            touched[n++] = w;
        net[w] += f.list[i].color == WHITE ? f.list[i].count : -f.list[i].count;
        side[w][f.list[i].color] += f.list[i].count;
    }
    s = &set->samples[set->size++];
    s->first = (uint32_t)t->term_count;
    s->linear_count = s->danger_count = 0;
    for (pass = 0; pass < 2; pass++)
        for (i = 0; i < n; i++) {
            int w = touched[i];
            if (t->danger[w] != pass || (!pass && !net[w]))
                continue;
            out->weight = (uint16_t)w;
            out->count[0] = (int8_t)(pass ? side[w][WHITE] : net[w]);
            out->count[1] = (int8_t)(pass ? side[w][BLACK] : 0);
            out++;
            if (pass)
                s->danger_count++;
            else
                s->linear_count++;
        }
    for (i = 0; i < n; i++)
        net[touched[i]] = side[touched[i]][WHITE] = side[touched[i]][BLACK] = 0;
    t->term_count += s->linear_count + s->danger_count;
    fade = FADE_PLIES - (f.halfmove < 100 ? f.halfmove : 100);
    s->mg_share = (float)((double)fade / FADE_PLIES * f.phase / PHASE_MAX);
    s->eg_share = (float)((double)fade / FADE_PLIES * (PHASE_MAX - f.phase) * f.scale / SCALE_NORMAL / PHASE_MAX);
    s->score = (float)score;
    s->result = (float)result;
    s->target = (float)result;
    /* the features must give back the evaluation (up to the engine's integer rounding) */
    gap = fabs(sample_eval(s, t->terms, t->start_mg, t->start_eg, danger) - (b->side == WHITE ? engine_eval : -engine_eval));
    if (gap > t->worst_gap)
        t->worst_gap = gap;
    return 0;
}

/* The king danger penalties of extra.c (KING_DANGER_*), in real numbers. */
static double danger_mg(double d)
{
    return d > 0 ? d * d / KING_DANGER_MG_DIVISOR : 0;
}

static double danger_eg(double d)
{
    return d > 0 ? d / KING_DANGER_EG_DIVISOR : 0;
}

/* Returns the evaluation of s (white's view) under the weights mg and eg, and each side's
 * danger sums in danger[side][0 middlegame, 1 endgame]. */
static double sample_eval(const Sample *s, const Term *terms, const double *mg, const double *eg, double danger[2][2])
{
    const Term *p = terms + s->first, *end = p + s->linear_count, *danger_end = end + s->danger_count;
    double sum_mg = 0, sum_eg = 0;
    danger[WHITE][0] = danger[WHITE][1] = danger[BLACK][0] = danger[BLACK][1] = 0;
    for (; p < end; p++) {
        sum_mg += p->count[0] * mg[p->weight];
        sum_eg += p->count[0] * eg[p->weight];
    }
    for (; p < danger_end; p++) {
        danger[WHITE][0] += p->count[WHITE] * mg[p->weight];
        danger[WHITE][1] += p->count[WHITE] * eg[p->weight];
        danger[BLACK][0] += p->count[BLACK] * mg[p->weight];
        danger[BLACK][1] += p->count[BLACK] * eg[p->weight];
    }
    /* white's danger is black's king's loss, and the other way round */
    sum_mg += danger_mg(danger[WHITE][0]) - danger_mg(danger[BLACK][0]);
    sum_eg += danger_eg(danger[WHITE][1]) - danger_eg(danger[BLACK][1]);
    return sum_mg * s->mg_share + sum_eg * s->eg_share;
}

/* Returns the mean squared error of sigmoid(k * eval) against the targets. */
static double set_error(const SampleSet *set, const Term *terms, const double *mg, const double *eg, double k)
{
    double sum = 0, danger[2][2];
    long i;
    for (i = 0; i < set->size; i++) {
        double e = sigmoid(k * sample_eval(&set->samples[i], terms, mg, eg, danger)) - set->samples[i].target;
        sum += e * e;
    }
    return set->size ? sum / (double)set->size : 0;
}

/* Golden-section search for the k in [K_LOW, K_HIGH] that minimises error(k). */
enum { K_STEPS = 60 };
#define K_LOW 0.0002
#define K_HIGH 0.05

/* Returns the scale at which the data's scores best predict its results. */
static double fit_k_data(const SampleSet *set)
{
    double lo = K_LOW, hi = K_HIGH, g = 0.6180339887498949;
    int step;
    for (step = 0; step < K_STEPS; step++) {
        double a = hi - g * (hi - lo), b = lo + g * (hi - lo), ea = 0, eb = 0;
        long i;
        for (i = 0; i < set->size; i++) {
            const Sample *s = &set->samples[i];
            double da = sigmoid(a * s->score) - s->result, db = sigmoid(b * s->score) - s->result;
            ea += da * da;
            eb += db * db;
        }
        if (ea < eb)
            hi = b;
        else
            lo = a;
    }
    return (lo + hi) / 2;
}

/* Returns the scale at which the evaluation under mg and eg best predicts the targets. */
static double fit_k(const SampleSet *set, const Term *terms, const double *mg, const double *eg)
{
    double lo = K_LOW, hi = K_HIGH, g = 0.6180339887498949;
    int step;
    for (step = 0; step < K_STEPS; step++) {
        double a = hi - g * (hi - lo), b = lo + g * (hi - lo);
        if (set_error(set, terms, mg, eg, a) < set_error(set, terms, mg, eg, b))
            hi = b;
        else
            lo = a;
    }
    return (lo + hi) / 2;
}

static void set_targets(SampleSet *set, double k_data, double lambda)
{
    long i;
    for (i = 0; i < set->size; i++) {
        Sample *s = &set->samples[i];
        s->target = (float)(lambda * s->result + (1 - lambda) * sigmoid(k_data * s->score));
    }
}

/* Adds d error / d weight of one sample to the gradients. */
static void add_gradient(const Sample *s, const Term *terms, const double *mg, const double *eg, double k,
                         double *grad_mg, double *grad_eg)
{
    double danger[2][2], e = sample_eval(s, terms, mg, eg, danger), p = sigmoid(k * e);
    double g = 2 * (p - s->target) * p * (1 - p) * k;
    double g_mg = g * s->mg_share, g_eg = g * s->eg_share;
    /* d penalty / d danger, signed: white's danger raises white's score */
    double slope_mg[2], slope_eg[2];
    const Term *q = terms + s->first, *end = q + s->linear_count, *danger_end = end + s->danger_count;
    int c;
    for (c = WHITE; c <= BLACK; c++) {
        double sign = c == WHITE ? 1 : -1;
        slope_mg[c] = danger[c][0] > 0 ? sign * 2 * danger[c][0] / KING_DANGER_MG_DIVISOR : 0;
        slope_eg[c] = danger[c][1] > 0 ? sign / KING_DANGER_EG_DIVISOR : 0;
    }
    for (; q < end; q++) {
        grad_mg[q->weight] += g_mg * q->count[0];
        grad_eg[q->weight] += g_eg * q->count[0];
    }
    for (; q < danger_end; q++) {
        grad_mg[q->weight] += g_mg * (slope_mg[WHITE] * q->count[WHITE] + slope_mg[BLACK] * q->count[BLACK]);
        grad_eg[q->weight] += g_eg * (slope_eg[WHITE] * q->count[WHITE] + slope_eg[BLACK] * q->count[BLACK]);
    }
}

/* Mini-batch Adam over the training set, in an order the seed shuffles each epoch; the
 * rate falls linearly to a tenth. Prints the errors every tenth of the epochs. */
static void train(Tuner *t, const Options *o, double k, double *mg, double *eg)
{
    const double beta1 = 0.9, beta2 = 0.999, epsilon = 1e-8;
    int n = t->weight_count, epoch, i;
    double *grad = calloc((size_t)n * 6, sizeof(double)), *m1, *m2;
    long *order = malloc(sizeof(long) * (size_t)(t->train.size ? t->train.size : 1)), step = 0, j;
    uint64_t r;
    if (!grad || !order) {
        fprintf(stderr, "error: out of memory for the gradients\n");
        exit(1);
    }
    m1 = grad + 2 * n;
    m2 = grad + 4 * n;
    r = random_seed(o->seed);
    for (j = 0; j < t->train.size; j++)
        order[j] = j;
    for (epoch = 1; epoch <= o->epochs; epoch++) {
        double rate = o->rate * (1 - 0.9 * (epoch - 1) / (o->epochs > 1 ? o->epochs - 1 : 1));
        for (j = t->train.size - 1; j > 0; j--) {
            long other = (long)(random_next(&r) % (uint64_t)(j + 1)), tmp = order[j];
            order[j] = order[other];
            order[other] = tmp;
        }
        for (j = 0; j < t->train.size; j += o->batch) {
            long end = j + o->batch < t->train.size ? j + o->batch : t->train.size, q;
            double c1, c2;
            memset(grad, 0, sizeof(double) * 2 * (size_t)n);
            for (q = j; q < end; q++)
                add_gradient(&t->train.samples[order[q]], t->terms, mg, eg, k, grad, grad + n);
            step++;
            c1 = 1 - pow(beta1, (double)step);
            c2 = 1 - pow(beta2, (double)step);
            for (i = 0; i < 2 * n; i++) {
                double gi = grad[i] / (double)(end - j), *w = i < n ? &mg[i] : &eg[i - n];
                m1[i] = beta1 * m1[i] + (1 - beta1) * gi;
                m2[i] = beta2 * m2[i] + (1 - beta2) * gi * gi;
                *w -= rate * (m1[i] / c1) / (sqrt(m2[i] / c2) + epsilon);
            }
        }
        if (epoch % (o->epochs >= 10 ? o->epochs / 10 : 1) == 0 || epoch == o->epochs)
            printf("epoch %4d: training %.6f, validation %.6f\n", epoch, set_error(&t->train, t->terms, mg, eg, k),
                   set_error(&t->validation, t->terms, mg, eg, k));
        fflush(stdout);
    }
    free(grad);
    free(order);
}

/* Writes the weights, rounded, as tables/hce.h is laid out: one commented block per group. */
static int write_table(const Tuner *t, const Options *o, const double *mg, const double *eg, const char *summary,
                       char *err, size_t err_size)
{
    FILE *f = begin_output(o->out, err, err_size);
    int g, i;
    if (!f)
        return 0;
    fprintf(f, "/* %s: the hand-written evaluation's weights, S(middlegame, endgame) in centipawns,\n"
               " * in the order of extra.c's weight groups (eval_groups). Generated by tools/tune.c\n"
               " * (`make tune`) from positions labelled by Stockfish 15.1 (GPL-3; its scores and\n"
               " * game results are the training labels); do not edit by hand.\n%s */\n", o->out, summary);
    fprintf(f, "static const int HCE_WEIGHTS[] = {\n");
    for (g = 0; g < t->group_count; g++) {
        const EvalGroup *grp = &t->groups[g];
        fprintf(f, "    /* %s */\n", grp->name);
        for (i = 0; i < grp->count; i++) {
            int w = grp->first + i;
            fprintf(f, "%sS(%d, %d),%s", i % grp->row == 0 ? "    " : " ", (int)lround(mg[w]), (int)lround(eg[w]),
                    (i + 1) % grp->row == 0 || i + 1 == grp->count ? "\n" : "");
        }
    }
    fprintf(f, "};\n");
    if (ferror(f)) {
        snprintf(err, err_size, "cannot write %s", o->out);
        abandon_output(f, o->out);
        return 0;
    }
    return commit_output(f, o->out, err, err_size);
}

int main(int argc, char **argv)
{
    static Tuner t;
    Options o;
    char err[400], summary[2000];
    double *mg, *eg, k_data, k, before[2], after[2];
    const int *weights;
    int i, d;
    size_t used;
    setvbuf(stdout, NULL, _IOLBF, 0); /* a line an epoch, also into a log */
    if (!eval_init()) {
        fprintf(stderr, "error: out of memory for the network\n");
        return 1;
    }
    if (!parse_options(argc, argv, &o))
        return EXIT_USAGE;
    t.groups = eval_groups(&t.group_count);
    t.weight_count = eval_weight_count();
    weights = eval_weights();
    mg = malloc(sizeof(double) * (size_t)t.weight_count);
    eg = malloc(sizeof(double) * (size_t)t.weight_count);
    t.danger = calloc((size_t)t.weight_count, sizeof(int));
    if (!mg || !eg || !t.danger) {
        fprintf(stderr, "error: out of memory\n");
        return 1;
    }
    for (i = 0; i < t.weight_count; i++) {
        mg[i] = eval_weight_mg(weights[i]);
        eg[i] = eval_weight_eg(weights[i]);
    }
    t.start_mg = mg;
    t.start_eg = eg;
    for (i = 0; i < t.group_count; i++)
        for (d = 0; d < t.groups[i].count; d++)
            t.danger[t.groups[i].first + d] = t.groups[i].danger;
    if (!tool_read_data(&o, add_position, &t, &t.failure))
        return 1;
    if (!t.train.size || !t.validation.size) {
        fprintf(stderr, "error: too few positions to tune and validate (%ld and %ld)\n", t.train.size, t.validation.size);
        return 1;
    }
    printf("%ld training and %ld validation positions, %ld decided by special knowledge skipped, %d weights\n",
           t.train.size, t.validation.size, t.special, t.weight_count);
    printf("the features give back the evaluation within %.1f cp\n", t.worst_gap);
    k_data = fit_k_data(&t.train);
    set_targets(&t.train, k_data, o.lambda);
    set_targets(&t.validation, k_data, o.lambda);
    k = fit_k(&t.train, t.terms, mg, eg);
    before[0] = set_error(&t.train, t.terms, mg, eg, k);
    before[1] = set_error(&t.validation, t.terms, mg, eg, k);
    printf("K_data %.6f (scores to results), K %.6f (evaluation to targets, lambda %.2f)\n", k_data, k, o.lambda);
    printf("before: training %.6f, validation %.6f\n", before[0], before[1]);
    train(&t, &o, k, mg, eg);
    after[0] = set_error(&t.train, t.terms, mg, eg, k);
    after[1] = set_error(&t.validation, t.terms, mg, eg, k);
    printf("after:  training %.6f, validation %.6f\n", after[0], after[1]);
    used = tool_command(summary, sizeof summary, "tune", &o, argc, argv, NULL);
    snprintf(summary + used, sizeof summary - used,
             "\n * %ld training and %ld validation positions; K_data %.6f, K %.6f, lambda %.2f, %d epochs.\n"
             " * Mean squared error before: training %.6f, validation %.6f; after: %.6f, %.6f.\n",
             t.train.size, t.validation.size, k_data, k, o.lambda, o.epochs, before[0], before[1], after[0], after[1]);
    if (!write_table(&t, &o, mg, eg, summary, err, sizeof err)) {
        fprintf(stderr, "error: %s\n", err);
        return 1;
    }
    printf("wrote %s\n", o.out);
    return 0;
}
