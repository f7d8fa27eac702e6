/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE	/* strndup */
#include "jsonread.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/diag.h"
#include "lib/grow.h"

#define MAX_DEPTH 32

char *dl_json_slurp(const char *file)
{
	FILE *f = fopen(file, "r");
	char *b = NULL;
	size_t len = 0, got;
	int cap = 0;

	if (!f) {
		dl_err("%s: %s", file, strerror(errno));
		return NULL;
	}
	errno = 0;
	do {
		if (len > DL_JSON_READ_MAX) {
			dl_err("%s: more than %d MiB: not a dlasim result", file, DL_JSON_READ_MAX >> 20);
			goto fail;
		}
		if (dl_grow((void **)&b, &cap, (int)len + 65536 + 1, 1)) {
			dl_err("%s: out of memory", file);
			goto fail;
		}
		got = fread(b + len, 1, (size_t)cap - len - 1, f);
		len += got;
	} while (got);
	if (ferror(f)) {
		dl_err("%s: cannot read: %s", file, strerror(errno ? errno : EIO));
		goto fail;
	}
	b[len] = '\0';
	if (strlen(b) != len) {
		dl_err("%s: byte %zu: a NUL byte: not a text file", file, strlen(b));
		goto fail;
	}
	fclose(f);
	return b;
fail:
	free(b);
	fclose(f);
	return NULL;
}

struct parser {
	const char *s, *start, *file;
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

/* One escape after the backslash into *c (\uXXXX below 0x80 only, else '?'). */
static int escape(struct parser *p, char *c)
{
	char hex[5] = { 0 };
	long v;

	switch (*c = *p->s++) {
	case 'n': *c = '\n'; return 0;
	case 't': *c = '\t'; return 0;
	case 'r': *c = '\r'; return 0;
	case 'b': *c = '\b'; return 0;
	case 'f': *c = '\f'; return 0;
	case '"': case '\\': case '/': return 0;
	case 'u': break;
	default: return fail(p, "bad escape");
	}
	memcpy(hex, p->s, 4);
	if (strspn(hex, "0123456789abcdefABCDEF") < 4)
		return fail(p, "bad \\u escape");
	v = strtol(hex, NULL, 16);
	if (v == 0)
		return fail(p, "\\u0000: a NUL in a string (it would end there)");
	*c = v < 0x80 ? (char)v : '?';
	p->s += 4;
	return 0;
}

/* A string literal into a new buffer. */
static int string(struct parser *p, char **out)
{
	size_t cap = 64, n = 0;
	char *b = malloc(cap);

	if (!b)
		return dl_err("out of memory");
	p->s++;
	while (*p->s && *p->s != '"') {
		char c = *p->s++;

		if (c == '\\' && escape(p, &c)) {
			free(b);
			return -1;
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

static int value(struct parser *p, struct dl_jv *v);

/* A new last item of container `v`. */
static struct dl_jv *push(struct dl_jv *v, int *cap)
{
	if (dl_grow((void **)&v->item, cap, v->n + 1, sizeof(*v->item)))
		return NULL;
	memset(&v->item[v->n], 0, sizeof(*v->item));
	return &v->item[v->n++];
}

/* Members (`close` '}') or elements (']'), comma-separated. */
static int items(struct parser *p, struct dl_jv *v, char close)
{
	int cap = 0;

	if (++p->depth > MAX_DEPTH)
		return fail(p, "nested too deep");
	p->s++;
	skip_ws(p);
	if (*p->s == close) {
		p->s++;
		p->depth--;
		return 0;
	}
	for (;;) {
		struct dl_jv *it = push(v, &cap);

		if (!it)
			return dl_err("out of memory");
		skip_ws(p);
		if (close == '}') {
			if (*p->s != '"')
				return fail(p, "expected a member name");
			if (string(p, &it->key))
				return -1;
			skip_ws(p);
			if (*p->s++ != ':')
				return fail(p, "expected ':'");
		}
		if (value(p, it))
			return -1;
		skip_ws(p);
		if (*p->s == ',') {
			p->s++;
			continue;
		}
		if (*p->s == close) {
			p->s++;
			p->depth--;
			return 0;
		}
		return fail(p, close == '}' ? "expected ',' or '}'" : "expected ',' or ']'");
	}
}

/* A number, true, false or null. */
static int word(struct parser *p, struct dl_jv *v)
{
	static const char *const words[] = { "true", "false", "null" };
	const char *b = p->s;

	if (*p->s == '-' || isdigit((unsigned char)*p->s)) {
		strtod(p->s, (char **)&p->s);
		v->type = DL_JV_NUM;
	}
	for (int i = 0; i < 3 && p->s == b; i++) {
		if (strncmp(p->s, words[i], strlen(words[i])) == 0) {
			p->s += strlen(words[i]);
			v->type = i < 2 ? DL_JV_BOOL : DL_JV_NULL;
		}
	}
	if (p->s == b)
		return fail(p, "expected a value");
	if (v->type != DL_JV_NULL && !(v->text = strndup(b, p->s - b)))
		return dl_err("out of memory");
	return 0;
}

static int value(struct parser *p, struct dl_jv *v)
{
	skip_ws(p);
	switch (*p->s) {
	case '{':
		v->type = DL_JV_OBJ;
		return items(p, v, '}');
	case '[':
		v->type = DL_JV_ARR;
		return items(p, v, ']');
	case '"':
		v->type = DL_JV_STR;
		return string(p, &v->text);
	default:
		return word(p, v);
	}
}

int dl_jv_parse(struct dl_jv *v, const char *text, const char *file)
{
	struct parser p = { text, text, file, 0 };

	memset(v, 0, sizeof(*v));
	if (value(&p, v))
		return -1;
	skip_ws(&p);
	return *p.s ? fail(&p, v->type == DL_JV_OBJ ? "text after the object" :
				 "text after the value") : 0;
}

void dl_jv_free(struct dl_jv *v)
{
	for (int i = 0; i < v->n; i++)
		dl_jv_free(&v->item[i]);
	free(v->item);
	free(v->key);
	free(v->text);
	memset(v, 0, sizeof(*v));
}

const struct dl_jv *dl_jv_get(const struct dl_jv *o, const char *key)
{
	for (int i = 0; o && o->type == DL_JV_OBJ && i < o->n; i++)
		if (strcmp(o->item[i].key, key) == 0)
			return &o->item[i];
	return NULL;
}

double dl_jv_num(const struct dl_jv *v)
{
	return v && v->type == DL_JV_NUM ? strtod(v->text, NULL) : NAN;
}

const char *dl_jv_str(const struct dl_jv *v)
{
	return v && v->type == DL_JV_STR ? v->text : NULL;
}
