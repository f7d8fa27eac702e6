/* SPDX-License-Identifier: MIT */
#include "workload.h"

#include <ctype.h>
#include <stdbool.h>
#include <stddef.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/diag.h"
#include "lib/lines.h"
#include "lib/units.h"

struct key {
	const char *name;
	size_t offset;
	bool required;
	long max;
};

#define K(f, req, max) { #f, offsetof(struct tier_workload, f), req, max }

/* The largest value of each key (docs/tier.md): far beyond any published
 * model, and small enough that counts fit an int and sizes stay finite. */
static const struct key keys[] = {
	K(layers, true, TIER_MAX_LAYERS), K(decoder_layers, false, TIER_MAX_LAYERS),
	K(d_model, true, TIER_MAX_WIDTH),
	K(heads, true, TIER_MAX_WIDTH), K(kv_heads, false, TIER_MAX_WIDTH),
	K(head_dim, true, TIER_MAX_WIDTH), K(d_ff, true, TIER_MAX_WIDTH),
	K(ff_matrices, false, 3), K(vocab, true, TIER_MAX_WIDTH), K(seq, true, TIER_MAX_WIDTH),
	K(batch, true, TIER_MAX_BATCH), K(pods, false, TIER_MAX_CHIPS),
	K(model_parallel, true, TIER_MAX_CHIPS), K(data_parallel, true, TIER_MAX_CHIPS),
};

#define NKEYS (sizeof(keys) / sizeof(keys[0]))
#define MAX_LINE 1022

static char *trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

static int set_key(struct tier_workload *w, const char *file, int line,
		   const char *key, const char *value, unsigned *seen)
{
	const char *why;
	long v;

	if (strcmp(key, "name") == 0) {
		snprintf(w->name, sizeof(w->name), "%s", value);
		return 0;
	}
	if (strcmp(key, "params") == 0) {
		if ((why = dl_parse_number(value, 1, &w->params)))
			return dl_err("%s:%d: params '%s': %s", file, line, value, why);
		return 0;
	}
	for (size_t i = 0; i < NKEYS; i++) {
		if (strcmp(key, keys[i].name) != 0)
			continue;
		if (*seen & (1u << i))
			return dl_err("%s:%d: '%s' given twice", file, line, key);
		if ((why = dl_parse_int(value, 1, keys[i].max, &v)))
			return dl_err("%s:%d: %s '%s': %s", file, line, key, value, why);
		*(long *)((char *)w + keys[i].offset) = v;
		*seen |= 1u << i;
		return 0;
	}
	return dl_err("%s:%d: unknown key '%s' (see docs/tier.md)", file, line, key);
}

static int parse_line(struct tier_workload *w, const char *file, int line,
		      char *text, unsigned *seen)
{
	char *hash = strchr(text, '#'), *s, *value;

	if (hash)
		*hash = '\0';
	s = trim(text);
	if (!*s)
		return 0;
	value = s;
	while (*value && !isspace((unsigned char)*value))
		value++;
	if (!*value)
		return dl_err("%s:%d: '%s' has no value", file, line, s);
	*value++ = '\0';
	return set_key(w, file, line, s, trim(value), seen);
}

static int check(struct tier_workload *w, const char *file, unsigned seen)
{
	for (size_t i = 0; i < NKEYS; i++)
		if (keys[i].required && !(seen & (1u << i)))
			return dl_err("%s: missing key '%s'", file, keys[i].name);
	if (!w->kv_heads)
		w->kv_heads = w->heads;
	if (!w->ff_matrices)
		w->ff_matrices = 2;
	if (!w->pods)
		w->pods = 1;
	if (w->ff_matrices != 2 && w->ff_matrices != 3)
		return dl_err("%s: ff_matrices is %ld, not 2 or 3", file, w->ff_matrices);
	if (w->batch % (w->pods * w->data_parallel))
		return dl_err("%s: batch %ld does not split over pods %ld x data_parallel %ld chips",
			      file, w->batch, w->pods, w->data_parallel);
	if (w->heads % w->model_parallel || w->d_ff % w->model_parallel)
		return dl_err("%s: heads %ld and d_ff %ld must split over model_parallel %ld chips",
			      file, w->heads, w->d_ff, w->model_parallel);
	if (w->kv_heads % w->model_parallel && w->model_parallel % w->kv_heads)
		return dl_err("%s: kv_heads %ld neither split over nor divide model_parallel %ld",
			      file, w->kv_heads, w->model_parallel);
	if (!w->name[0])
		snprintf(w->name, sizeof(w->name), "%s", file);
	return 0;
}

int tier_workload_read(struct tier_workload *w, const char *file)
{
	struct dl_lines in;
	unsigned seen = 0;
	char *text;
	int ret = 0, rc;

	memset(w, 0, sizeof(*w));
	if (dl_lines_open(&in, file, MAX_LINE, "workload"))
		return -1;
	while (!ret && (rc = dl_lines_next(&in, &text)) > 0)
		ret = parse_line(w, file, in.no, text, &seen);
	if (!ret && rc < 0)
		ret = -1;
	dl_lines_close(&in);
	if (!ret)
		ret = check(w, file, seen);
	if (!ret && !(w->file = strdup(file)))
		ret = dl_err("out of memory");
	return ret;
}

void tier_workload_free(struct tier_workload *w)
{
	free(w->file);
	w->file = NULL;
}

/* Attention (Q, K, V, output projections), feed-forward, and for a
 * decoder layer the cross-attention; one embedding shared with the head. */
double tier_workload_params(const struct tier_workload *w)
{
	double d = w->d_model, q = (double)w->heads * w->head_dim;
	double kv = (double)w->kv_heads * w->head_dim;
	double attn = d * q * 2 + d * kv * 2, ff = w->ff_matrices * d * (double)w->d_ff;
	double dec = w->decoder_layers * (2 * attn + ff);

	return w->layers * (attn + ff) + dec + (double)w->vocab * d;
}
