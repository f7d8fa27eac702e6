/* SPDX-License-Identifier: MIT */
/* dlasim merge DIR: the JSON results of a sweep as one CSV or JSON table. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/args.h"
#include "results/csv.h"
#include "lib/diag.h"
#include "lib/grow.h"
#include "results/json.h"
#include "results/jsonread.h"
#include "lib/lines.h"
#include "results/outfile.h"
#include "lib/strmap.h"
#include "commands.h"
#include "jsonflat.h"

#define CMD "merge"

struct result {
	char *file;		/* DIR/runs/NNNN.json */
	long run;		/* NNNN, or -1 */
	struct jf_doc doc;
};

struct table {
	char **param_name;	/* params.csv header after "run" */
	int nparams;
	char ***param;		/* [run - 1][k] */
	int nruns;		/* rows of params.csv */
	struct result *res;
	int nres;
	char **col;		/* JSON keys, in order of first appearance */
	int ncols;
	struct dl_strmap col_index;	/* key -> its index in col */
	int *row;		/* per column: the pair of the result written, or -1 */
	int param_cap, res_cap, col_cap;	/* dl_grow() */
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: dlasim merge DIR [--json] [-o FILE] [--partial]\n"
		"  DIR         a sweep's directory (dlasim sweep --out): its runs/*.json and\n"
		"              params.csv; or any directory of dlasim JSON results\n"
		"  --json      one JSON array of objects instead of CSV\n"
		"  -o FILE     write here instead of standard output\n"
		"  --partial   merge the runs that have a result even if some have none\n"
		"One row per run: 'run', the sweep's parameters as sweep.KEY, then every\n"
		"key of the results (nested objects as outer.inner).\n");
}

/* A dlasim result is a few kilobytes; past this a file is not one (and an
 * endless input, a FIFO or a device, stops here). */

/* ---- params.csv: run,KEY,... (RFC 4180: a value may hold a comma) ---- */

/* A row holds at most SWEEP_MAX_KEYS values of a spec line's length
 * (8190): well under this bound, which stops an endless input. */
#define PARAMS_LINE_MAX (1 << 20)

static int read_params(struct table *t, const char *dir)
{
	char path[PATH_MAX + 16], *line;
	struct dl_lines in;
	const char *why;
	int ret = -1, got;

	snprintf(path, sizeof(path), "%s/params.csv", dir);
	if (access(path, F_OK) && errno == ENOENT)
		return 0;	/* a directory of results without a sweep */
	if (dl_outfile_reads(path) || dl_lines_open(&in, path, PARAMS_LINE_MAX, "sweep parameters"))
		return -1;
	while ((got = dl_lines_next(&in, &line)) > 0) {
		char **v = NULL;
		int n = 0, no = in.no;

		if ((why = dl_csv_split(line, &v, &n))) {
			dl_err("%s:%d: %s", path, no, why);
			goto out;
		}
		if (no == 1) {
			if (n < 1 || strcmp(v[0], "run")) {
				dl_err("%s:1: the header does not start with 'run'", path);
				dl_csv_free(v, n);
				goto out;
			}
			free(v[0]);
			memmove(v, v + 1, (n - 1) * sizeof(*v));
			t->param_name = v;
			t->nparams = n - 1;
			continue;
		}
		if (n != t->nparams + 1 || atol(v[0]) != no - 1) {
			dl_err("%s:%d: not run %d with %d values", path, no, no - 1, t->nparams);
			dl_csv_free(v, n);
			goto out;
		}
		if (t->nruns == INT_MAX ||
		    dl_grow((void **)&t->param, &t->param_cap, t->nruns + 1, sizeof(*t->param))) {
			dl_err("%s: out of memory", path);
			dl_csv_free(v, n);
			goto out;
		}
		free(v[0]);
		memmove(v, v + 1, (n - 1) * sizeof(*v));
		t->param[t->nruns++] = v;
	}
	ret = got;
out:
	dl_lines_close(&in);
	return ret;
}

/* ---- the results ---- */

static int by_file(const void *a, const void *b)
{
	return strcmp(((const struct result *)a)->file, ((const struct result *)b)->file);
}

/* Columns are found by a hash of their keys: a result of 200,000 keys
 * merges in linear time. */
static int add_column(struct table *t, const char *key)
{
	if (dl_strmap_get(&t->col_index, key) >= 0)
		return 0;
	if (t->ncols == INT_MAX ||
	    dl_grow((void **)&t->col, &t->col_cap, t->ncols + 1, sizeof(*t->col)) ||
	    dl_strmap_put(&t->col_index, key, t->ncols))
		return dl_err("out of memory");
	t->col[t->ncols++] = (char *)key;
	return 0;
}

static int read_results(struct table *t, const char *dir)
{
	char rdir[PATH_MAX + 16];
	struct dirent *e;
	struct stat st;
	DIR *d;

	snprintf(rdir, sizeof(rdir), "%s/runs", dir);
	if (stat(rdir, &st) || !S_ISDIR(st.st_mode))
		snprintf(rdir, sizeof(rdir), "%s", dir);
	if (!(d = opendir(rdir)))
		return dl_err("%s: %s", rdir, strerror(errno));
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);
		struct result *r;

		if (n < 6 || strcmp(e->d_name + n - 5, ".json"))
			continue;
		if (dl_grow((void **)&t->res, &t->res_cap, t->nres + 1, sizeof(*t->res))) {
			closedir(d);
			return dl_err("out of memory");
		}
		r = &t->res[t->nres++];
		memset(r, 0, sizeof(*r));
		if (asprintf(&r->file, "%s/%s", rdir, e->d_name) < 0) {
			r->file = NULL;
			closedir(d);
			return dl_err("out of memory");
		}
		r->run = strspn(e->d_name, "0123456789") == n - 5 ? atol(e->d_name) : -1;
	}
	closedir(d);
	if (t->nres)
		qsort(t->res, t->nres, sizeof(*t->res), by_file);
	for (int i = 0; i < t->nres; i++) {
		char *text = dl_outfile_reads(t->res[i].file) ? NULL : dl_json_slurp(t->res[i].file);
		int bad = !text || jf_parse(&t->res[i].doc, text, t->res[i].file);

		free(text);
		if (bad)
			return -1;
		for (int k = 0; k < t->res[i].doc.n; k++)
			if (add_column(t, t->res[i].doc.pair[k].key))
				return -1;
	}
	return 0;
}

/* Every run of params.csv has its result, unless --partial. */
static int check_complete(const struct table *t, const char *dir, bool partial)
{
	long missing = 0, first = 0;
	bool *found = calloc((size_t)t->nruns + 1, sizeof(*found));

	if (!found)
		return dl_err("out of memory");
	for (int i = 0; i < t->nres; i++)
		if (t->res[i].run >= 1 && t->res[i].run <= t->nruns)
			found[t->res[i].run] = true;
	for (long run = 1; run <= t->nruns; run++)
		if (!found[run] && !missing++)
			first = run;
	free(found);
	if (missing && !partial)
		return dl_err("%s: %ld of %d runs have no result (the first: run %ld); --partial merges the others",
			      dir, missing, t->nruns, first);
	if (!t->nres)
		return dl_err("%s: no JSON result to merge", dir);
	return 0;
}

/* ---- output ---- */

static const char *param_of(const struct table *t, const struct result *r, int k)
{
	return r->run >= 1 && r->run <= t->nruns ? t->param[r->run - 1][k] : "";
}

/* t->row[c]: the pair of `r` holding column c (its first, as jf_get()). */
static void index_row(const struct table *t, const struct result *r)
{
	for (int c = 0; c < t->ncols; c++)
		t->row[c] = -1;
	for (int p = r->doc.n - 1; p >= 0; p--)
		t->row[dl_strmap_get(&t->col_index, r->doc.pair[p].key)] = p;
}

static void write_csv(const struct table *t, FILE *f)
{
	fputs("run", f);
	for (int k = 0; k < t->nparams; k++) {
		fputs(",sweep.", f);
		dl_csv_field(f, t->param_name[k]);
	}
	for (int c = 0; c < t->ncols; c++) {
		fputc(',', f);
		dl_csv_field(f, t->col[c]);
	}
	fputc('\n', f);
	for (int i = 0; i < t->nres; i++) {
		const struct result *r = &t->res[i];
		const char *b = strrchr(r->file, '/');

		dl_csv_field(f, b ? b + 1 : r->file);
		for (int k = 0; k < t->nparams; k++) {
			fputc(',', f);
			dl_csv_field(f, param_of(t, r, k));
		}
		index_row(t, r);
		for (int c = 0; c < t->ncols; c++) {
			fputc(',', f);
			dl_csv_field(f, t->row[c] >= 0 ? r->doc.pair[t->row[c]].value : "");
		}
		fputc('\n', f);
	}
}

static void write_json(const struct table *t, FILE *f)
{
	struct dl_json j;
	char key[512];

	dl_json_init(&j, f);
	dl_json_array_begin(&j, NULL);
	for (int i = 0; i < t->nres; i++) {
		const struct result *r = &t->res[i];
		const char *b = strrchr(r->file, '/');

		dl_json_object_begin(&j, NULL);
		dl_json_str(&j, "run", b ? b + 1 : r->file);
		for (int k = 0; k < t->nparams; k++) {
			snprintf(key, sizeof(key), "sweep.%s", t->param_name[k]);
			dl_json_str(&j, key, param_of(t, r, k));
		}
		for (int p = 0; p < r->doc.n; p++) {
			const struct jf_pair *x = &r->doc.pair[p];

			if (x->is_string)
				dl_json_str(&j, x->key, x->value);
			else if (!*x->value)
				dl_json_null(&j, x->key);
			else if (strcmp(x->value, "true") == 0 || strcmp(x->value, "false") == 0)
				dl_json_bool(&j, x->key, x->value[0] == 't');
			else
				dl_json_num(&j, x->key, strtod(x->value, NULL));
		}
		dl_json_object_end(&j);
	}
	dl_json_array_end(&j);
	fputc('\n', f);
}

static void free_table(struct table *t)
{
	for (long r = 0; r < t->nruns; r++) {
		for (int k = 0; k < t->nparams; k++)
			free(t->param[r][k]);
		free(t->param[r]);
	}
	free(t->param);
	for (int k = 0; k < t->nparams; k++)
		free(t->param_name[k]);
	free(t->param_name);
	for (int i = 0; i < t->nres; i++) {
		jf_free(&t->res[i].doc);
		free(t->res[i].file);
	}
	free(t->res);
	free(t->col);
	free(t->row);
	dl_strmap_free(&t->col_index);
}

int cmd_merge(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "output", required_argument, NULL, 'o' },
		{ "partial", no_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *output = NULL, *dir;
	bool json = false, partial = false;
	struct table t = { 0 };
	struct dl_outfile out;
	int c, ret = DL_EXIT_ERROR;

	while ((c = dl_getopt(argc, argv, CMD, "o:", opts)) != -1) {
		switch (c) {
		case 'j': json = true; break;
		case 'o': output = optarg; break;
		case 'p': partial = true; break;
		case 'h': usage(stdout); return DL_EXIT_OK;
		default: return DL_EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		dl_err("%s: give one DIR (see 'dlasim merge --help')", CMD);
		return DL_EXIT_USAGE;
	}
	dir = argv[optind];
	dl_strmap_init(&t.col_index);
	if (read_params(&t, dir) || read_results(&t, dir) || check_complete(&t, dir, partial))
		goto out;
	if (!(t.row = calloc((size_t)t.ncols + 1, sizeof(*t.row)))) {
		dl_err("out of memory");
		goto out;
	}
	if (dl_outfile_open(&out, output, "-o"))
		goto out;
	if (json)
		write_json(&t, out.f);
	else
		write_csv(&t, out.f);
	if (dl_outfile_commit(&out) == 0)
		ret = DL_EXIT_OK;
out:
	free_table(&t);
	return ret;
}
