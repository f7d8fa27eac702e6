/* SPDX-License-Identifier: MIT */
/* dlasim plugins: list every plugin found on the search path. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/diag.h"
#include "results/json.h"
#include "plugin/plugin.h"
#include "cli.h"

#define CMD "plugins"

/* A row of the table, kept until every row is known so that the columns
 * are as wide as their longest entry (kind names differ by 12 letters). */
struct row {
	char *kind, *name, *description, *path;
};

struct listing {
	bool json;
	int count;
	struct dl_json j;
	struct row *rows;
	int nrows;
	bool lost;		/* a row did not fit in memory */
};

static int keep_row(struct listing *l, const char *path, const struct dlasim_plugin *d)
{
	struct row *rows = realloc(l->rows, (size_t)(l->nrows + 1) * sizeof(*rows));
	struct row *r;

	if (!rows)
		return -1;
	l->rows = rows;
	r = &rows[l->nrows];
	r->kind = strdup(dl_plugin_kind_name(d->kind));
	r->name = strdup(d->name);
	r->description = strdup(d->description);
	r->path = strdup(path);
	l->nrows++;
	return r->kind && r->name && r->description && r->path ? 0 : -1;
}

static void print_rows(const struct listing *l)
{
	int wk = (int)strlen("KIND"), wn = (int)strlen("NAME");

	for (int i = 0; i < l->nrows; i++) {
		if ((int)strlen(l->rows[i].kind) > wk)
			wk = (int)strlen(l->rows[i].kind);
		if ((int)strlen(l->rows[i].name) > wn)
			wn = (int)strlen(l->rows[i].name);
	}
	printf("%-*s  %-*s  %s\n", wk, "KIND", wn, "NAME", "DESCRIPTION / PATH");
	for (int i = 0; i < l->nrows; i++) {
		const struct row *r = &l->rows[i];

		printf("%-*s  %-*s  %s\n%-*s  %-*s    %s\n", wk, r->kind, wn, r->name,
		       r->description, wk, "", wn, "", r->path);
	}
}

static void free_rows(struct listing *l)
{
	for (int i = 0; i < l->nrows; i++) {
		free(l->rows[i].kind);
		free(l->rows[i].name);
		free(l->rows[i].description);
		free(l->rows[i].path);
	}
	free(l->rows);
}

static void show(const char *path, const struct dlasim_plugin *d, const char *problem, void *arg)
{
	struct listing *l = arg;

	if (problem) {
		dl_warn("%s: skipped: %s", path, problem);
		return;
	}
	l->count++;
	if (!l->json) {
		if (keep_row(l, path, d))
			l->lost = true;
		return;
	}
	dl_json_object_begin(&l->j, NULL);
	dl_json_version(&l->j);
	dl_json_str(&l->j, "kind", dl_plugin_kind_name(d->kind));
	dl_json_str(&l->j, "name", d->name);
	dl_json_str(&l->j, "description", d->description);
	dl_json_str(&l->j, "path", path);
	dl_json_object_end(&l->j);
}

int cmd_plugins(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct listing l = { 0 };
	int c;

	while ((c = dl_getopt(argc, argv, CMD, NULL, opts)) != -1) {
		switch (c) {
		case 'j': l.json = true; break;
		case 'h':
			printf("usage: dlasim plugins [--json]\n"
			       "Lists kind, name, description and path of every plugin found in:\n  %s\n"
			       "(set DLASIM_PLUGIN_PATH to add directories in front)\n",
			       dl_plugin_search_path());
			return DL_EXIT_OK;
		default: return DL_EXIT_USAGE;
		}
	}
	if (dl_no_operands(argc, argv, CMD))
		return DL_EXIT_USAGE;
	if (l.json) {
		dl_json_init(&l.j, stdout);
		dl_json_array_begin(&l.j, NULL);
	}
	dl_plugin_scan(show, &l);
	if (l.json)
		dl_json_array_end(&l.j);
	else if (l.lost)
		dl_err("%s: out of memory listing the plugins", CMD);
	else if (!l.count)
		printf("(no plugin found in %s)\n", dl_plugin_search_path());
	else
		print_rows(&l);
	free_rows(&l);
	return l.lost ? DL_EXIT_ERROR : DL_EXIT_OK;
}
