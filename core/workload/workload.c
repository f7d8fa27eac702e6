/* SPDX-License-Identifier: MIT */
/* Reading .dnn workload files (format: docs/workloads.md). */
#include "workload.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/diag.h"
#include "lib/lines.h"

#define MAX_LINE 4094
#define MAX_KEYS 16
#define MAX_DIM (1L << 30)

struct kind_info {
	const char *name;
	const char *keys;	/* allowed keys, space-separated */
	bool heavy;
	int gates;
};

static const struct kind_info kinds[MC_KINDS] = {
	[MC_INPUT] = { "input", "channels height width features steps", false, 0 },
	[MC_CONV] = { "conv", "out kernel stride pad groups from", true, 0 },
	[MC_FC] = { "fc", "out from", true, 0 },
	[MC_RELU] = { "relu", "from", false, 0 },
	[MC_POOL] = { "pool", "kernel stride pad from", false, 0 },
	[MC_LRN] = { "lrn", "from", false, 0 },
	[MC_BN] = { "bn", "from", false, 0 },
	[MC_ADD] = { "add", "from", false, 0 },
	[MC_CONCAT] = { "concat", "from", false, 0 },
	[MC_RNN] = { "rnn", "hidden from", true, 1 },
	[MC_LSTM] = { "lstm", "hidden from", true, 4 },
	[MC_GRU] = { "gru", "hidden from", true, 3 },
};

const char *mc_layer_kind_name(enum mc_layer_kind k)
{
	return k < MC_KINDS ? kinds[k].name : "?";
}

bool mc_layer_heavy(const struct mc_layer *l)
{
	return kinds[l->kind].heavy;
}

int mc_layer_gates(const struct mc_layer *l)
{
	return kinds[l->kind].gates;
}

bool mc_layer_recurrent(const struct mc_layer *l)
{
	return kinds[l->kind].gates > 0;
}

/* One parsed line: kind, name and key=value pairs. */
struct line {
	const char *file;
	int no;
	char *word[2 + MAX_KEYS];
	int nwords;
	char *key[MAX_KEYS], *val[MAX_KEYS];
	bool used[MAX_KEYS];
	int nkeys;
};

static int line_err(const struct line *ln, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int line_err(const struct line *ln, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return dl_err("%s:%d: %s", ln->file, ln->no, msg);
}

/* Split into words; words after the second must be key=value. */
static int tokenize(struct line *ln, char *text)
{
	char *save = NULL, *hash = strchr(text, '#');

	if (hash)
		*hash = '\0';
	ln->nwords = 0;
	ln->nkeys = 0;
	for (char *t = strtok_r(text, " \t\r\n", &save); t; t = strtok_r(NULL, " \t\r\n", &save)) {
		if (ln->nwords < 2) {
			ln->word[ln->nwords++] = t;
			continue;
		}
		if (ln->nkeys == MAX_KEYS)
			return line_err(ln, "too many key=value pairs (at most %d)", MAX_KEYS);
		char *eq = strchr(t, '=');

		if (!eq || eq == t || !eq[1])
			return line_err(ln, "'%s' is not key=value", t);
		*eq = '\0';
		for (int i = 0; i < ln->nkeys; i++)
			if (strcmp(ln->key[i], t) == 0)
				return line_err(ln, "key '%s' given twice", t);
		ln->key[ln->nkeys] = t;
		ln->val[ln->nkeys] = eq + 1;
		ln->used[ln->nkeys] = false;
		ln->nkeys++;
	}
	return 0;
}

static const char *find_key(struct line *ln, const char *key)
{
	for (int i = 0; i < ln->nkeys; i++) {
		if (strcmp(ln->key[i], key) == 0) {
			ln->used[i] = true;
			return ln->val[i];
		}
	}
	return NULL;
}

/* A positive integer key; `def` > 0 when optional, 0 when required. */
static int get_dim(struct line *ln, const char *key, long def, long min, long *v)
{
	const char *s = find_key(ln, key);
	char *end;

	if (!s) {
		if (def <= 0 && min > 0)
			return line_err(ln, "%s '%s': missing %s=", ln->word[0], ln->word[1], key);
		*v = def;
		return 0;
	}
	errno = 0;
	*v = strtol(s, &end, 10);
	if (errno || *end || end == s || *v < min || *v > MAX_DIM)
		return line_err(ln, "%s '%s': %s=%s: must be an integer from %ld to %ld",
				ln->word[0], ln->word[1], key, s, min, MAX_DIM);
	return 0;
}

static int check_keys(const struct line *ln, enum mc_layer_kind k)
{
	for (int i = 0; i < ln->nkeys; i++) {
		const char *allowed = kinds[k].keys, *p;
		size_t n = strlen(ln->key[i]);

		for (p = strstr(allowed, ln->key[i]); p; p = strstr(p + 1, ln->key[i]))
			if ((p == allowed || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
				break;
		if (!p)
			return line_err(ln, "%s '%s': unknown key '%s' (allowed: %s)",
					kinds[k].name, ln->word[1], ln->key[i], allowed);
	}
	return 0;
}

static int find_layer(const struct mc_workload *w, const char *name)
{
	return dl_strmap_get(&w->by_name, name);
}

/* from=a,b,...: default the previous layer. */
static int parse_from(struct line *ln, const struct mc_workload *w, struct mc_layer *l)
{
	const char *s = find_key(ln, "from");
	char buf[1024], *save = NULL;

	l->nin = 0;
	if (!s) {
		if (w->nlayers == 0)
			return line_err(ln, "%s '%s' has no input: the first layer must be 'input'",
					ln->word[0], ln->word[1]);
		l->in[l->nin++] = w->nlayers - 1;
		return 0;
	}
	snprintf(buf, sizeof(buf), "%s", s);
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		int j = find_layer(w, t);

		if (j < 0)
			return line_err(ln, "%s '%s': from=%s: no earlier layer named '%s'",
					ln->word[0], ln->word[1], s, t);
		if (l->nin == MC_MAX_INPUTS)
			return line_err(ln, "%s '%s': at most %d inputs", ln->word[0], ln->word[1],
					MC_MAX_INPUTS);
		l->in[l->nin++] = j;
	}
	return 0;
}

static int shape_input(struct line *ln, struct mc_layer *l)
{
	long c, h, wd, f, t;

	if (find_key(ln, "features")) {
		if (get_dim(ln, "features", 0, 1, &f) || get_dim(ln, "steps", 0, 1, &t))
			return -1;
		l->c = f;
		l->h = l->w = 1;
		l->steps = t;
		return 0;
	}
	if (get_dim(ln, "channels", 0, 1, &c) || get_dim(ln, "height", 0, 1, &h) ||
	    get_dim(ln, "width", 0, 1, &wd))
		return -1;
	l->c = c;
	l->h = h;
	l->w = wd;
	l->steps = 1;
	return 0;
}

/* Sliding window output size; reports a window that does not fit. */
static int window(struct line *ln, long in, long k, long s, long pad, long *out)
{
	if (in + 2 * pad < k)
		return line_err(ln, "%s '%s': kernel %ld does not fit an input of %ld (pad %ld)",
				ln->word[0], ln->word[1], k, in, pad);
	*out = (in + 2 * pad - k) / s + 1;
	return 0;
}

static int shape_conv_pool(struct line *ln, const struct mc_layer *x, struct mc_layer *l)
{
	bool conv = l->kind == MC_CONV;
	long out = 0;

	if ((conv && get_dim(ln, "out", 0, 1, &out)) || get_dim(ln, "kernel", 0, 1, &l->kernel) ||
	    get_dim(ln, "stride", conv ? 1 : l->kernel, 1, &l->stride) ||
	    get_dim(ln, "pad", 0, 0, &l->pad) || (conv && get_dim(ln, "groups", 1, 1, &l->groups)))
		return -1;
	if (x->steps > 1)
		return line_err(ln, "%s '%s': its input is a sequence", ln->word[0], ln->word[1]);
	if (window(ln, x->h, l->kernel, l->stride, l->pad, &l->h) ||
	    window(ln, x->w, l->kernel, l->stride, l->pad, &l->w))
		return -1;
	l->c = conv ? out : x->c;
	if (conv && (x->c % l->groups || out % l->groups))
		return line_err(ln, "conv '%s': groups=%ld must divide input (%ld) and output (%ld) channels",
				ln->word[1], l->groups, x->c, out);
	if (conv) {
		l->macs = (double)l->c * l->h * l->w * (x->c / l->groups) * l->kernel * l->kernel;
		l->weights = (double)l->c * (x->c / l->groups) * l->kernel * l->kernel + l->c;
	} else {
		l->macs = (double)l->c * l->h * l->w * l->kernel * l->kernel;
	}
	return 0;
}

static int shape_merge(struct line *ln, const struct mc_workload *w, struct mc_layer *l)
{
	const struct mc_layer *a = &w->layer[l->in[0]];

	if (l->nin < 2)
		return line_err(ln, "%s '%s': needs from= with at least two layers", ln->word[0], ln->word[1]);
	l->c = 0;
	l->h = a->h;
	l->w = a->w;
	l->steps = a->steps;
	for (int i = 0; i < l->nin; i++) {
		const struct mc_layer *b = &w->layer[l->in[i]];

		if (b->h != a->h || b->w != a->w || b->steps != a->steps ||
		    (l->kind == MC_ADD && b->c != a->c))
			return line_err(ln, "%s '%s': input '%s' is %ldx%ldx%ld, '%s' is %ldx%ldx%ld",
					ln->word[0], ln->word[1], a->name, a->c, a->h, a->w,
					b->name, b->c, b->h, b->w);
		l->c = l->kind == MC_ADD ? a->c : l->c + b->c;
	}
	l->macs = l->kind == MC_ADD ? (double)l->c * l->h * l->w * (l->nin - 1) : 0;
	return 0;
}

static int shape_recurrent(struct line *ln, const struct mc_layer *x, struct mc_layer *l)
{
	long hidden;
	int g = mc_layer_gates(l);

	if (get_dim(ln, "hidden", 0, 1, &hidden))
		return -1;
	if (x->h != 1 || x->w != 1)
		return line_err(ln, "%s '%s': its input must be a sequence (input features= steps=)",
				ln->word[0], ln->word[1]);
	l->c = hidden;
	l->h = l->w = 1;
	l->steps = x->steps;
	l->features = x->c;
	/* Per step: gates x hidden outputs over [x_t, h_t-1]. */
	l->macs = (double)g * hidden * (x->c + hidden);
	l->weights = (double)g * hidden * (x->c + hidden) + (double)g * hidden;
	return 0;
}

static int shape(struct line *ln, const struct mc_workload *w, struct mc_layer *l)
{
	const struct mc_layer *x = l->nin ? &w->layer[l->in[0]] : NULL;

	if (l->kind != MC_ADD && l->kind != MC_CONCAT && l->nin > 1)
		return line_err(ln, "%s '%s': takes one input (from= names %d)", ln->word[0],
				ln->word[1], l->nin);
	switch (l->kind) {
	case MC_INPUT:
		return shape_input(ln, l);
	case MC_CONV:
	case MC_POOL:
		return shape_conv_pool(ln, x, l);
	case MC_FC:
		if (get_dim(ln, "out", 0, 1, &l->c))
			return -1;
		if (x->steps > 1)
			return line_err(ln, "fc '%s': its input is a sequence", ln->word[1]);
		l->h = l->w = l->steps = 1;
		l->macs = (double)x->c * x->h * x->w * l->c;
		l->weights = (double)x->c * x->h * x->w * l->c + l->c;
		return 0;
	case MC_ADD:
	case MC_CONCAT:
		return shape_merge(ln, w, l);
	case MC_RNN:
	case MC_LSTM:
	case MC_GRU:
		return shape_recurrent(ln, x, l);
	default:	/* relu, lrn, bn: same shape */
		l->c = x->c;
		l->h = x->h;
		l->w = x->w;
		l->steps = x->steps;
		/* Operations per output element: LRN sums a window of 5 channels. */
		l->macs = (double)l->c * l->h * l->w * (l->kind == MC_LRN ? 5 : l->kind == MC_BN ? 2 : 1);
		l->weights = l->kind == MC_BN ? 2.0 * l->c : 0;
		return 0;
	}
}

static int parse_kind(const struct line *ln, enum mc_layer_kind *k)
{
	for (int i = 0; i < MC_KINDS; i++) {
		if (strcmp(ln->word[0], kinds[i].name) == 0) {
			*k = i;
			return 0;
		}
	}
	return line_err(ln, "unknown layer type '%s' (known: input conv fc relu pool lrn bn add concat rnn lstm gru)",
			ln->word[0]);
}

/* Steps of the iteration so far (the plan has one per timestep of every
 * layer of a sequence), in 64 bits: four layers of 2^30 steps wrap an int. */
static int count_steps(struct mc_workload *w, struct line *ln, const struct mc_layer *l)
{
	w->nsteps += l->steps;
	if (w->nsteps > MC_MAX_STEPS)
		return line_err(ln, "%s '%s': the workload now has %lld steps per iteration (layers times their timesteps), more than %d",
				ln->word[0], ln->word[1], w->nsteps, MC_MAX_STEPS);
	return 0;
}

static int add_layer(struct mc_workload *w, struct line *ln, int *cap)
{
	struct mc_layer l = { .line = ln->no, .groups = 1, .steps = 1 };

	if (ln->nwords < 2)
		return line_err(ln, "'%s' needs a layer name", ln->word[0]);
	if (parse_kind(ln, &l.kind) || check_keys(ln, l.kind))
		return -1;
	if (find_layer(w, ln->word[1]) >= 0)
		return line_err(ln, "layer name '%s' used twice", ln->word[1]);
	/* Every later 'input' starts a chain of its own (independent layers,
	 * e.g. a benchmark's set of convolutions). */
	if (l.kind != MC_INPUT && w->nlayers == 0)
		return line_err(ln, "the first layer must be 'input'");
	if (l.kind != MC_INPUT && parse_from(ln, w, &l))
		return -1;
	if (shape(ln, w, &l))
		return -1;
	for (int i = 0; i < l.nin; i++)
		l.in_elems += w->layer[l.in[i]].out_elems;
	l.out_elems = (double)l.c * l.h * l.w;
	if (count_steps(w, ln, &l))
		return -1;
	if (w->nlayers == MC_MAX_LAYERS)
		return line_err(ln, "more than %d layers", MC_MAX_LAYERS);
	if (w->nlayers == *cap) {
		struct mc_layer *grown = realloc(w->layer, (size_t)(*cap = *cap ? 2 * *cap : 64) * sizeof(l));

		if (!grown)
			return dl_err("out of memory");
		w->layer = grown;
	}
	l.name = strdup(ln->word[1]);
	if (!l.name)
		return dl_err("out of memory");
	w->layer[w->nlayers] = l;
	if (dl_strmap_put(&w->by_name, l.name, w->nlayers))
		return dl_err("out of memory");
	w->nlayers++;
	return 0;
}

/* "dtype TYPE", once, before the layers: what every tensor is stored and
 * computed in. */
static int parse_dtype(struct mc_workload *w, struct line *ln)
{
	if (ln->nwords != 2 || ln->nkeys || dl_dtype_parse(ln->word[1], &w->dtype))
		return line_err(ln, "expected 'dtype fp32|bf16|fp16|fp8'");
	if (w->dtype_given || w->nlayers)
		return line_err(ln, "'dtype' given twice or after a layer");
	w->dtype_given = true;
	w->elem_bytes = dl_dtype_bytes(w->dtype);
	return 0;
}

static int parse_line(struct mc_workload *w, struct line *ln, char *text, int *cap)
{
	if (tokenize(ln, text))
		return -1;
	if (ln->nwords == 0)
		return 0;
	if (strcmp(ln->word[0], "network") == 0) {
		if (ln->nwords != 2 || ln->nkeys)
			return line_err(ln, "expected 'network NAME'");
		if (w->name)
			return line_err(ln, "'network' given twice");
		w->name = strdup(ln->word[1]);
		return w->name ? 0 : dl_err("out of memory");
	}
	if (strcmp(ln->word[0], "dtype") == 0)
		return parse_dtype(w, ln);
	return add_layer(w, ln, cap);
}

static int read_lines(struct mc_workload *w, struct dl_lines *in)
{
	struct line ln = { .file = w->file };
	char *text;
	int cap = 0, rc;

	while ((rc = dl_lines_next(in, &text)) > 0) {
		ln.no = in->no;
		if (parse_line(w, &ln, text, &cap))
			return -1;
	}
	if (rc < 0)
		return -1;
	if (w->nlayers < 2)
		return dl_err("%s: no layers (an 'input' and at least one more are needed)", w->file);
	return 0;
}

int mc_workload_read(struct mc_workload **out, const char *file)
{
	struct mc_workload *w = calloc(1, sizeof(*w));
	struct dl_lines in = { 0 };
	int ret = -1;

	*out = NULL;
	if (!w || !(w->file = strdup(file))) {
		free(w);
		return dl_err("out of memory");
	}
	dl_strmap_init(&w->by_name);
	w->dtype = DL_FP32;
	w->elem_bytes = dl_dtype_bytes(DL_FP32);
	if (dl_lines_open(&in, file, MAX_LINE, "workload") || read_lines(w, &in))
		goto out;
	if (!w->name && !(w->name = strdup(w->layer[0].name))) {
		dl_err("out of memory");
		goto out;
	}
	*out = w;
	ret = 0;
out:
	dl_lines_close(&in);
	if (ret)
		mc_workload_free(w);
	return ret;
}

void mc_workload_free(struct mc_workload *w)
{
	if (!w)
		return;
	for (int i = 0; i < w->nlayers; i++)
		free(w->layer[i].name);
	dl_strmap_free(&w->by_name);
	free(w->layer);
	free(w->name);
	free(w->file);
	free(w);
}

double mc_workload_weights(const struct mc_workload *w)
{
	double s = 0;

	for (int i = 0; i < w->nlayers; i++)
		s += w->layer[i].weights;
	return s;
}

double mc_workload_macs(const struct mc_workload *w)
{
	double s = 0;

	for (int i = 0; i < w->nlayers; i++)
		if (mc_layer_heavy(&w->layer[i]))
			s += w->layer[i].macs * w->layer[i].steps;
	return s;
}
