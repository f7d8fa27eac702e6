/* SPDX-License-Identifier: MIT */
/*
 * dlasim plot on a study's --csv output: the CSV read into the tree its
 * --json would give (results/jsonread.h), which the study's own reader
 * then takes.  The header names the study: the cells of study tm, nna
 * or nvm (figure,ROW,COLUMN,metric,value; a row's key is its table's
 * row name in JSON, "row" here) or the runs of study mcdla.  CSV numbers
 * have 9 significant digits, so figures drawn from them agree with the
 * JSON's to that; a CSV does not say how a run was reduced.
 */
#define _GNU_SOURCE	/* strdup */
#include <stdlib.h>
#include <string.h>

#include "lib/diag.h"
#include "lib/grow.h"
#include "results/csv.h"
#include "plot_csv.h"

static const struct {
	const char *header, *study;
} headers[] = {
	{ "figure,model,column,metric,value", "nna" },
	{ "figure,row,policy,metric,value", "tm" },
	{ "figure,row,design,metric,value", "nvm" },
	{ "parallel,design,workload,iteration_time_s,", "mcdla" },
	{ "figure,config,column,metric,value", "llm" },
};

/* A new member (or element, key NULL) of `v`; its text copied. */
static struct dl_jv *add(struct dl_jv *v, int *cap, const char *key, enum dl_jv_type type,
			 const char *text)
{
	struct dl_jv *it;

	if (dl_grow((void **)&v->item, cap, v->n + 1, sizeof(*v->item)))
		return NULL;
	it = &v->item[v->n++];
	memset(it, 0, sizeof(*it));
	it->type = type;
	if ((key && !(it->key = strdup(key))) || (text && !(it->text = strdup(text))))
		return NULL;
	return it;
}

/* A field as a number (empty: null) or, `str`, a string. */
static struct dl_jv *field(struct dl_jv *o, int *cap, const char *key, const char *v, bool str)
{
	if (str)
		return add(o, cap, key, DL_JV_STR, v);
	return add(o, cap, key, *v ? DL_JV_NUM : DL_JV_NULL, *v ? v : NULL);
}

/* One record into an object of `list`: the cells' keys (the metric's
 * name the value's key), or every column of a run. */
static int record(struct dl_jv *list, int *cap, char **name, char **f, int n, bool cells,
		  struct dl_jv *batches, int *bcap)
{
	struct dl_jv *o = add(list, cap, NULL, DL_JV_OBJ, NULL);
	int ocap = 0;

	if (!o)
		return -1;
	if (cells) {
		for (int i = 0; i < 3; i++)
			if (!field(o, &ocap, name[i], f[i], true))
				return -1;
		return field(o, &ocap, f[3], f[4], false) ? 0 : -1;
	}
	for (int i = 0; i < n; i++) {
		bool str = i < 3;

		if (!field(o, &ocap, name[i], f[i], str))
			return -1;
		if (strcmp(name[i], "batch") == 0) {
			int b;

			for (b = 0; b < batches->n && strcmp(batches->item[b].text, f[i]); b++)
				;
			if (b == batches->n && !add(batches, bcap, NULL, DL_JV_NUM, f[i]))
				return -1;
		}
	}
	return 0;
}

static int compare_batch(const void *a, const void *b)
{
	double x = strtod(((const struct dl_jv *)a)->text, NULL);
	double y = strtod(((const struct dl_jv *)b)->text, NULL);

	return (x > y) - (x < y);
}

/* The lines of text, each split (RFC 4180) into the tree. */
static int records(const char *text, const char *file, struct dl_jv *doc, int *cap,
		   bool cells)
{
	struct dl_jv *list = add(doc, cap, cells ? "cells" : "runs", DL_JV_ARR, NULL);
	struct dl_jv *batches = cells ? NULL : add(doc, cap, "batches", DL_JV_ARR, NULL);
	char **name = NULL, **f, *line = NULL;
	int lcap = 0, bcap = 0, nname = 0, n, no = 0, ret = -1;
	const char *why;

	if (!list || (!cells && !batches))
		return dl_err("out of memory");
	for (const char *s = text, *e; *s; s = *e ? e + 1 : e) {
		e = s + strcspn(s, "\n");
		no++;
		if (!(line = strndup(s, e - s)))
			goto oom;
		if ((why = dl_csv_split(line, no == 1 ? &name : &f, no == 1 ? &nname : &n))) {
			dl_err("%s:%d: %s", file, no, why);
			goto out;
		}
		free(line);
		line = NULL;
		if (no == 1)
			continue;
		if (n != nname) {
			dl_csv_free(f, n);
			dl_err("%s:%d: %d fields, the header has %d", file, no, n, nname);
			goto out;
		}
		if (record(list, &lcap, name, f, n, cells, batches, &bcap)) {
			dl_csv_free(f, n);
			goto oom;
		}
		dl_csv_free(f, n);
	}
	if (batches)
		qsort(batches->item, batches->n, sizeof(*batches->item), compare_batch);
	ret = 0;
	goto out;
oom:
	dl_err("out of memory");
out:
	free(line);
	if (name)
		dl_csv_free(name, nname);
	return ret;
}

int plot_csv_read(const char *text, const char *file, struct dl_jv *doc)
{
	int cap = 0;

	memset(doc, 0, sizeof(*doc));
	doc->type = DL_JV_OBJ;
	for (size_t i = 0; i < sizeof(headers) / sizeof(headers[0]); i++) {
		if (strncmp(text, headers[i].header, strlen(headers[i].header)))
			continue;
		if (!add(doc, &cap, "study", DL_JV_STR, headers[i].study))
			return dl_err("out of memory");
		return records(text, file, doc, &cap, strcmp(headers[i].study, "mcdla") != 0);
	}
	return dl_err("%s: neither JSON nor the CSV of a study that draws figures (study mcdla, tm, nna, nvm or llm --csv)",
		      file);
}
