/* SPDX-License-Identifier: MIT */
#include "jsonflat.h"

#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/diag.h"

#define MAX_DEPTH 32

struct parser {
	const char *s, *start, *file;
	struct jf_doc *d;
	int depth;
};

static int fail(struct parser *p, const char *what)
{
	return dl_err("%s: byte %ld: %s", p->file, (long)(p->s - p->start), what);
}

static void skip_ws(struct parser *p)
{
	while (isspace((unsigned char)*p->s))
		p->s++;
}

static int add(struct parser *p, const char *key, char *value, int is_string)
{
	struct jf_doc *d = p->d;

	if (d->n == d->cap) {
		struct jf_pair *np = realloc(d->pair, (d->cap = d->cap ? 2 * d->cap : 32) * sizeof(*np));

		if (!np) {
			free(value);
			return dl_err("out of memory");
		}
		d->pair = np;
	}
	d->pair[d->n].key = strdup(key);
	d->pair[d->n].value = value;
	d->pair[d->n].is_string = is_string;
	if (!d->pair[d->n++].key)
		return dl_err("out of memory");
	return 0;
}

/* A string literal into a new buffer (\uXXXX below 0x80 only, else '?'). */
static int string(struct parser *p, char **out)
{
	size_t cap = 64, n = 0;
	char *b = malloc(cap);

	if (!b)
		return dl_err("out of memory");
	p->s++;
	while (*p->s && *p->s != '"') {
		char c = *p->s++;

		if (c == '\\') {
			c = *p->s++;
			switch (c) {
			case 'n': c = '\n'; break;
			case 't': c = '\t'; break;
			case 'r': c = '\r'; break;
			case 'b': c = '\b'; break;
			case 'f': c = '\f'; break;
			case 'u': {
				char hex[5] = { 0 };
				long v;

				memcpy(hex, p->s, 4);
				if (strlen(hex) < 4) {
					free(b);
					return fail(p, "bad \\u escape");
				}
				v = strtol(hex, NULL, 16);
				c = v < 0x80 ? (char)v : '?';
				p->s += 4;
				break;
			}
			case '"': case '\\': case '/': break;
			default:
				free(b);
				return fail(p, "bad escape");
			}
		}
		if (n + 2 > cap) {
			char *nb = realloc(b, cap *= 2);

			if (!nb) {
				free(b);
				return dl_err("out of memory");
			}
			b = nb;
		}
		b[n++] = c;
	}
	if (*p->s != '"') {
		free(b);
		return fail(p, "unterminated string");
	}
	p->s++;
	b[n] = '\0';
	*out = b;
	return 0;
}

static int value(struct parser *p, const char *key);

/* Members become "prefix.name" pairs; a NULL prefix keeps nothing. */
static int object(struct parser *p, const char *prefix)
{
	if (++p->depth > MAX_DEPTH)
		return fail(p, "nested too deep");
	p->s++;
	skip_ws(p);
	if (*p->s == '}') {
		p->s++;
		p->depth--;
		return 0;
	}
	for (;;) {
		char *k, *full;
		int r;

		skip_ws(p);
		if (*p->s != '"')
			return fail(p, "expected a member name");
		if (string(p, &k))
			return -1;
		skip_ws(p);
		if (*p->s++ != ':') {
			free(k);
			return fail(p, "expected ':'");
		}
		full = prefix ? malloc(strlen(prefix) + strlen(k) + 2) : NULL;
		if (prefix && !full) {
			free(k);
			return dl_err("out of memory");
		}
		if (full)
			sprintf(full, "%s%s%s", prefix, *prefix ? "." : "", k);
		free(k);
		r = value(p, full);
		free(full);
		if (r)
			return -1;
		skip_ws(p);
		if (*p->s == ',') {
			p->s++;
			continue;
		}
		if (*p->s == '}') {
			p->s++;
			p->depth--;
			return 0;
		}
		return fail(p, "expected ',' or '}'");
	}
}

/* Arrays are walked but not kept (nor what they hold). */
static int array(struct parser *p)
{
	if (++p->depth > MAX_DEPTH)
		return fail(p, "nested too deep");
	p->s++;
	skip_ws(p);
	if (*p->s == ']') {
		p->s++;
		p->depth--;
		return 0;
	}
	for (;;) {
		if (value(p, NULL))
			return -1;
		skip_ws(p);
		if (*p->s == ',') {
			p->s++;
			continue;
		}
		if (*p->s == ']') {
			p->s++;
			p->depth--;
			return 0;
		}
		return fail(p, "expected ',' or ']'");
	}
}

static int word(struct parser *p, const char *key)
{
	const char *b = p->s;
	char *v;

	if (*p->s == '-' || isdigit((unsigned char)*p->s)) {
		strtod(p->s, (char **)&p->s);
	} else {
		static const char *const words[] = { "true", "false", "null" };

		for (int i = 0; i < 3 && p->s == b; i++)
			if (strncmp(p->s, words[i], strlen(words[i])) == 0)
				p->s += strlen(words[i]);
	}
	if (p->s == b)
		return fail(p, "expected a value");
	if (!key)
		return 0;
	if (!(v = strndup(b, p->s - b)))
		return dl_err("out of memory");
	if (strcmp(v, "null") == 0)
		*v = '\0';
	return add(p, key, v, 0);
}

static int value(struct parser *p, const char *key)
{
	char *v;

	skip_ws(p);
	switch (*p->s) {
	case '{':
		return object(p, key);
	case '[':
		return array(p);
	case '"':
		if (string(p, &v))
			return -1;
		if (!key) {
			free(v);
			return 0;
		}
		return add(p, key, v, 1);
	default:
		return word(p, key);
	}
}

int jf_parse(struct jf_doc *d, const char *text, const char *file)
{
	struct parser p = { text, text, file, d, 0 };

	memset(d, 0, sizeof(*d));
	skip_ws(&p);
	if (*p.s != '{')
		return fail(&p, "not a JSON object");
	if (object(&p, ""))
		return -1;
	skip_ws(&p);
	return *p.s ? fail(&p, "text after the object") : 0;
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
