/* SPDX-License-Identifier: MIT */
/* The .llm reader: a transformer's shape, one key per line. */
#include "model.h"

#include <stdio.h>
#include <string.h>

#include "lib/diag.h"
#include "lib/lines.h"
#include "lib/units.h"

#define MAX_LINE 4096
#define MAX_DIM (1L << 40)

struct key {
	const char *name;
	long *v;
	long min;
	bool required;
};

static const char *const dtype_names[] = {
	[LLM_FP32] = "fp32", [LLM_BF16] = "bf16", [LLM_FP16] = "fp16", [LLM_FP8] = "fp8",
};

double llm_dtype_bytes(enum llm_dtype t)
{
	return t == LLM_FP32 ? 4 : t == LLM_FP8 ? 1 : 2;
}

const char *llm_dtype_name(enum llm_dtype t)
{
	return dtype_names[t];
}

int llm_dtype_parse(const char *s, enum llm_dtype *t)
{
	for (int i = 0; i < (int)(sizeof(dtype_names) / sizeof(dtype_names[0])); i++)
		if (strcmp(s, dtype_names[i]) == 0) {
			*t = (enum llm_dtype)i;
			return 0;
		}
	return -1;
}

static int set_text(struct llm_model *m, const char *file, int line, const char *key,
		    const char *val, bool *seen_dtype, bool *seen_name)
{
	if (strcmp(key, "name") == 0) {
		if (*seen_name)
			return dl_err("%s:%d: 'name' given twice", file, line);
		if (strlen(val) >= sizeof(m->name))
			return dl_err("%s:%d: name longer than %zu characters", file, line,
				      sizeof(m->name) - 1);
		snprintf(m->name, sizeof(m->name), "%s", val);
		*seen_name = true;
		return 0;
	}
	if (*seen_dtype)
		return dl_err("%s:%d: 'dtype' given twice", file, line);
	if (llm_dtype_parse(val, &m->dtype))
		return dl_err("%s:%d: dtype '%s': not fp32, bf16, fp16 or fp8", file, line, val);
	*seen_dtype = true;
	return 0;
}

static int set_number(struct key *k, bool *seen, const char *file, int line, const char *val)
{
	const char *why;

	if (*seen)
		return dl_err("%s:%d: '%s' given twice", file, line, k->name);
	if ((why = dl_parse_int(val, k->min, MAX_DIM, k->v)))
		return dl_err("%s:%d: %s '%s': %s", file, line, k->name, val, why);
	*seen = true;
	return 0;
}

static int parse_line(struct llm_model *m, struct key *keys, int nkeys, bool *seen,
		      const char *file, int line, char *text, bool *seen_dtype, bool *seen_name)
{
	char *key, *val, *extra, *save;

	if ((key = strchr(text, '#')))
		*key = '\0';
	if (!(key = strtok_r(text, " \t\r", &save)))
		return 0;
	val = strtok_r(NULL, " \t\r", &save);
	extra = strtok_r(NULL, " \t\r", &save);
	if (!val || extra)
		return dl_err("%s:%d: expected 'KEY VALUE'", file, line);
	if (strcmp(key, "name") == 0 || strcmp(key, "dtype") == 0)
		return set_text(m, file, line, key, val, seen_dtype, seen_name);
	for (int i = 0; i < nkeys; i++)
		if (strcmp(key, keys[i].name) == 0)
			return set_number(&keys[i], &seen[i], file, line, val);
	return dl_err("%s:%d: unknown key '%s' (docs/llm.md lists them)", file, line, key);
}

/* Defaults and the relations between keys, once all are read. */
static int finish(struct llm_model *m, struct key *keys, int nkeys, const bool *seen,
		  const char *file, long gated)
{
	for (int i = 0; i < nkeys; i++)
		if (keys[i].required && !seen[i])
			return dl_err("%s: '%s' is missing", file, keys[i].name);
	if (!m->kv_heads)
		m->kv_heads = m->heads;
	m->gated_ffn = gated;
	if (m->hidden % m->heads)
		return dl_err("%s: hidden %ld is not a multiple of heads %ld", file, m->hidden, m->heads);
	if (m->heads % m->kv_heads)
		return dl_err("%s: heads %ld is not a multiple of kv_heads %ld", file, m->heads,
			      m->kv_heads);
	if (m->topk > m->experts)
		return dl_err("%s: topk %ld exceeds experts %ld", file, m->topk, m->experts);
	if (!m->name[0]) {
		const char *base = strrchr(file, '/');

		snprintf(m->name, sizeof(m->name), "%.*s", (int)strcspn(base ? base + 1 : file, "."),
			 base ? base + 1 : file);
	}
	return 0;
}

int llm_model_read(struct llm_model *m, const char *file)
{
	long gated = 0;
	struct key keys[] = {
		{ "layers", &m->layers, 1, true }, { "hidden", &m->hidden, 1, true },
		{ "heads", &m->heads, 1, true }, { "seq", &m->seq, 1, true },
		{ "vocab", &m->vocab, 1, true }, { "ffn", &m->ffn, 1, true },
		{ "kv_heads", &m->kv_heads, 1, false }, { "experts", &m->experts, 1, false },
		{ "topk", &m->topk, 1, false }, { "gated_ffn", &gated, 0, false },
	};
	enum { NKEYS = sizeof(keys) / sizeof(keys[0]) };
	bool seen[NKEYS] = { false }, seen_dtype = false, seen_name = false;
	struct dl_lines l;
	char *text;
	int rc, ret = -1;

	memset(m, 0, sizeof(*m));
	m->experts = m->topk = 1;
	m->dtype = LLM_BF16;
	if (dl_lines_open(&l, file, MAX_LINE, "workload"))
		return -1;
	while ((rc = dl_lines_next(&l, &text)) > 0)
		if (parse_line(m, keys, NKEYS, seen, file, l.no, text, &seen_dtype, &seen_name))
			goto out;
	if (rc < 0)
		goto out;
	if (gated > 1) {
		dl_err("%s: gated_ffn %ld: 0 or 1", file, gated);
		goto out;
	}
	ret = finish(m, keys, NKEYS, seen, file, gated);
out:
	dl_lines_close(&l);
	return ret;
}
