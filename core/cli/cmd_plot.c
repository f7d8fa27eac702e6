/* SPDX-License-Identifier: MIT */
/*
 * dlasim plot FILE [-o DIR]: a study's figures drawn again from its saved
 * JSON (its --json output, or the results.json its --plot DIR wrote) or
 * its --csv output (plot_csv.c),
 * through the study's own figure code, without running anything.  The
 * JSON's "study" member names the study.
 */
#define _GNU_SOURCE	/* strndup */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/args.h"
#include "lib/diag.h"
#include "llm/commands.h"
#include "mcdla/commands.h"
#include "nna/commands.h"
#include "nvm/commands.h"
#include "tier/commands.h"
#include "results/jsonread.h"
#include "results/outfile.h"
#include "results/plot.h"
#include "cli.h"
#include "plot_csv.h"

#define CMD "plot"

static const struct {
	const char *study;
	int (*replot)(const struct dl_jv *doc, const char *file, const char *dir);
} studies[] = {
	{ "mcdla", study_mcdla_replot },
	{ "nna", study_nna_replot },
	{ "tm", study_tm_replot },
	{ "nvm", study_nvm_replot },
	{ "llm", study_llm_replot },
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: dlasim plot FILE [-o DIR]\n"
		"  Draw a study's figures again from its saved results: the output of\n"
		"  'dlasim study NAME --json' (or --csv), or DIR/results.json that\n"
		"  '--plot DIR' writes beside the figures (study mcdla, tm, nna, nvm, llm).\n"
		"  Nothing is run.\n"
		"  -o DIR   where the figures go (default: FILE's directory)\n"
		"Figures: docs/figures.md.\n");
}

/* FILE's directory: "." for a bare name. */
static char *dir_of(const char *file)
{
	const char *slash = strrchr(file, '/');

	if (!slash)
		return strdup(".");
	return slash == file ? strdup("/") : strndup(file, slash - file);
}

static int replot(const char *file, const char *dir)
{
	const char *name;
	struct dl_jv doc;
	char *text, first;
	int ret = -1;

	if (dl_outfile_reads(file) || !(text = dl_json_slurp(file)))
		return -1;
	/* JSON starts with an object or array; anything else is read as CSV. */
	first = text[strspn(text, " \t\r\n")];
	if (first && first != '{' && first != '[' ? plot_csv_read(text, file, &doc) :
						       dl_jv_parse(&doc, text, file))
		goto out;
	if (doc.type != DL_JV_OBJ) {
		dl_err("%s: not the JSON of a study (an object with a \"study\" member)", file);
		goto out;
	}
	name = dl_jv_str(dl_jv_get(&doc, "study"));
	if (!name) {
		dl_err("%s: not the JSON of a study that draws figures (no \"study\" member; give the --json output of study mcdla, tm, nna, nvm or llm)",
		       file);
		goto out;
	}
	for (size_t i = 0; i < sizeof(studies) / sizeof(studies[0]); i++) {
		if (strcmp(studies[i].study, name) == 0) {
			ret = dl_plot_dir(dir, "-o") ? -1 : studies[i].replot(&doc, file, dir);
			goto out;
		}
	}
	dl_err("%s: study '%s' has no figures dlasim plot draws (it draws study mcdla's, tm's, nna's, nvm's and llm's)",
	       file, name);
out:
	dl_jv_free(&doc);
	free(text);
	return ret;
}

int cmd_plot(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *out = NULL;
	char *dir;
	int c, ret;

	while ((c = dl_getopt(argc, argv, CMD, "o:", opts)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'h': usage(stdout); return DL_EXIT_OK;
		default: return DL_EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		dl_err("%s: give one results FILE (see 'dlasim plot --help')", CMD);
		return DL_EXIT_USAGE;
	}
	if (!(dir = out ? strdup(out) : dir_of(argv[optind]))) {
		dl_err("out of memory");
		return DL_EXIT_ERROR;
	}
	ret = replot(argv[optind], dir) ? DL_EXIT_ERROR : DL_EXIT_OK;
	free(dir);
	return ret;
}
