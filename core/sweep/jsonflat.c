/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE	/* asprintf */
#include "jsonflat.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/diag.h"
#include "results/jsonread.h"

static int add(struct jf_doc *d, const char *key, const char *value, int is_string)
{
	if (d->n == d->cap) {
		struct jf_pair *np = realloc(d->pair, (d->cap = d->cap ? 2 * d->cap : 32) * sizeof(*np));

		if (!np)
			return dl_err("out of memory");
		d->pair = np;
	}
	d->pair[d->n].key = strdup(key);
	d->pair[d->n].value = strdup(value);
	d->pair[d->n].is_string = is_string;
	if (!d->pair[d->n].key || !d->pair[d->n].value) {
		free(d->pair[d->n].key);
		free(d->pair[d->n].value);
		return dl_err("out of memory");
	}
	d->n++;
	return 0;
}

/* The members of object `o` as "prefix.name" pairs; arrays left out. */
static int flatten(struct jf_doc *d, const struct dl_jv *o, const char *prefix)
{
	for (int i = 0; i < o->n; i++) {
		const struct dl_jv *m = &o->item[i];
		char *key;
		int r = 0;

		if (m->type == DL_JV_ARR)
			continue;
		if (asprintf(&key, "%s%s%s", prefix, *prefix ? "." : "", m->key) < 0)
			return dl_err("out of memory");
		if (m->type == DL_JV_OBJ)
			r = flatten(d, m, key);
		else
			r = add(d, key, m->type == DL_JV_NULL ? "" : m->text, m->type == DL_JV_STR);
		free(key);
		if (r)
			return -1;
	}
	return 0;
}

int jf_parse(struct jf_doc *d, const char *text, const char *file)
{
	const char *s = text;
	struct dl_jv v;
	int ret;

	memset(d, 0, sizeof(*d));
	while (isspace((unsigned char)*s))
		s++;
	if (*s != '{')
		return dl_err("%s: byte %ld: not a JSON object", file, (long)(s - text));
	if (dl_jv_parse(&v, text, file))
		ret = -1;
	else
		ret = flatten(d, &v, "");
	dl_jv_free(&v);
	return ret;
}

void jf_free(struct jf_doc *d)
{
	for (int i = 0; i < d->n; i++) {
		free(d->pair[i].key);
		free(d->pair[i].value);
	}
	free(d->pair);
	memset(d, 0, sizeof(*d));
}

const char *jf_get(const struct jf_doc *d, const char *key)
{
	for (int i = 0; i < d->n; i++)
		if (strcmp(d->pair[i].key, key) == 0)
			return d->pair[i].value;
	return NULL;
}
