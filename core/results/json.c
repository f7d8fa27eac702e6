/* SPDX-License-Identifier: MIT */
#include "json.h"

#include <math.h>
#include <stdlib.h>

#include "lib/version.h"

void dl_json_init(struct dl_json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->has_items[0] = false;
}

void dl_json_result_begin(struct dl_json *j, FILE *f)
{
	dl_json_init(j, f);
	dl_json_object_begin(j, NULL);
	dl_json_version(j);
}

void dl_json_version(struct dl_json *j)
{
	dl_json_str(j, "dlasim_version", dl_version());
}

void dl_json_write_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; p && *p; p++) {
		switch (*p) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\t': fputs("\\t", f); break;
		case '\r': fputs("\\r", f); break;
		default:
			if (*p < 0x20)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

/* Separator, indentation and key before a value. */
static void item(struct dl_json *j, const char *key)
{
	if (j->has_items[j->depth])
		fputc(',', j->f);
	if (j->depth > 0) {
		fputc('\n', j->f);
		for (int i = 0; i < j->depth; i++)
			fputs("  ", j->f);
	}
	j->has_items[j->depth] = true;
	if (key) {
		dl_json_write_string(j->f, key);
		fputs(": ", j->f);
	}
}

static void open_scope(struct dl_json *j, const char *key, char c)
{
	item(j, key);
	fputc(c, j->f);
	if (j->depth + 1 < DL_JSON_MAX_DEPTH)
		j->depth++;
	j->has_items[j->depth] = false;
}

static void close_scope(struct dl_json *j, char c)
{
	bool had = j->has_items[j->depth];

	if (j->depth > 0)
		j->depth--;
	if (had) {
		fputc('\n', j->f);
		for (int i = 0; i < j->depth; i++)
			fputs("  ", j->f);
	}
	fputc(c, j->f);
	if (j->depth == 0)
		fputc('\n', j->f);
}

void dl_json_object_begin(struct dl_json *j, const char *key) { open_scope(j, key, '{'); }
void dl_json_object_end(struct dl_json *j) { close_scope(j, '}'); }
void dl_json_array_begin(struct dl_json *j, const char *key) { open_scope(j, key, '['); }
void dl_json_array_end(struct dl_json *j) { close_scope(j, ']'); }

/* The fewest digits (15 to 17) that read back as v: a result read again
 * (dlasim plot, merge) has the very numbers the run had. */
static void write_number(FILE *f, double v)
{
	char buf[32];

	for (int digits = 15; digits <= 17; digits++) {
		snprintf(buf, sizeof(buf), "%.*g", digits, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	fputs(buf, f);
}

void dl_json_num(struct dl_json *j, const char *key, double v)
{
	item(j, key);
	if (isfinite(v))
		write_number(j->f, v);
	else
		fputs("null", j->f);	/* JSON has no infinity */
}

void dl_json_bytes(struct dl_json *j, const char *key, double v)
{
	item(j, key);
	if (isfinite(v))
		fprintf(j->f, "%.0f", v);
	else
		fputs("null", j->f);
}

void dl_json_int(struct dl_json *j, const char *key, long long v)
{
	item(j, key);
	fprintf(j->f, "%lld", v);
}

void dl_json_str(struct dl_json *j, const char *key, const char *v)
{
	item(j, key);
	dl_json_write_string(j->f, v);
}

void dl_json_bool(struct dl_json *j, const char *key, bool v)
{
	item(j, key);
	fputs(v ? "true" : "false", j->f);
}

void dl_json_null(struct dl_json *j, const char *key)
{
	item(j, key);
	fputs("null", j->f);
}
