/* SPDX-License-Identifier: MIT */
/* dlasim plugins: list every plugin found on the search path. */
#include <stdio.h>
#include <string.h>

#include "lib/diag.h"
#include "results/json.h"
#include "plugin/plugin.h"
#include "cli.h"

#define CMD "plugins"

struct listing {
	bool json;
	int count;
	struct dl_json j;
};

static void show(const char *path, const struct dlasim_plugin *d, const char *problem, void *arg)
{
	struct listing *l = arg;

	if (problem) {
		dl_warn("%s: skipped: %s", path, problem);
		return;
	}
	l->count++;
	if (!l->json) {
		printf("%-16s %-14s %s\n%-16s %-14s   %s\n", dl_plugin_kind_name(d->kind),
		       d->name, d->description, "", "", path);
		return;
	}
	dl_json_object_begin(&l->j, NULL);
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
	} else {
		printf("%-16s %-14s %s\n", "KIND", "NAME", "DESCRIPTION / PATH");
	}
	dl_plugin_scan(show, &l);
	if (l.json)
		dl_json_array_end(&l.j);
	else if (!l.count)
		printf("(no plugin found in %s)\n", dl_plugin_search_path());
	return DL_EXIT_OK;
}
