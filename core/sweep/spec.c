/* SPDX-License-Identifier: MIT */
#include "spec.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/diag.h"
#include "lib/lines.h"
#include "results/outfile.h"

/* Characters of a spec line, its newline excluded. */
#define SPEC_LINE_MAX 8190

/*
 * The options a run may vary, per command: what `dlasim COMMAND --help`
 * lists, less the outputs (--json, --link-stats, --trace), which the
 * sweep sets itself.
 */
static const char *const train_keys[] = {
	"platform", "workload", "batch", "parallel", "page-alloc", "coll", "device-memory",
	"page-size", "cfg", NULL,
};
static const char *const coll_keys[] = { "platform", "op", "bytes", "coll", "root", "cfg", NULL };
static const char *const tier_keys[] = {
	"workload", "policy", "tier1-ratio", "batch-scale", "tier2-bw-scale", "platform", "cfg", NULL,
};
static const char *const nna_keys[] = {
	"workload", "dataflow", "dram-place", "sa", "spm", "elem-bytes", "dram", "burst", NULL,
};
static const char *const nvm_keys[] = {
	"workload", "persist", "log-alloc", "interleave", "adr", "staging", "logq", "tx", "cores",
	"seed", "ipc", NULL,
};
static const char *const dram_keys[] = { "config", "trace", "cycles", NULL };
static const char *const llm_keys[] = {
	"workload", "platform", "global-batch", "tp", "pp", "dp", "ep", "micro-batch", "zero",
	"recompute", "device", "coll", "cfg", NULL,
};
/* Options of `dlasim platform` (cli/cmd_platform.c) a grid may vary. */
static const char *const generator_keys[] = {
	"topology", "devices", "links-per-device", "link-bandwidth", "link-latency",
	"pcie-bandwidth", "cpu-memory-bandwidth", "dimm", "block", NULL,
};

static const struct {
	const char *name;
	const char *const *keys;
} commands[] = {
	{ "train", train_keys }, { "coll", coll_keys }, { "tier", tier_keys },
	{ "nna", nna_keys }, { "nvm", nvm_keys }, { "dram", dram_keys }, { "llm", llm_keys },
	/* A new command is sweepable with a line here: its name and the
	 * options a run may vary.  It needs a --json
	 * output, and its runs are checked before the list is written by
	 * its own option checks (lib/checkrun.h: through the engine, or its
	 * own call where it simulates without one). */
};

static bool listed(const char *const *list, const char *name)
{
	for (; *list; list++)
		if (strcmp(*list, name) == 0)
			return true;
	return false;
}

static const char *const *keys_of(const char *command)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(commands[i].name, command) == 0)
			return commands[i].keys;
	return NULL;
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

static int add_values(struct sweep_key *k, char *text, const char *file)
{
	for (char *save, *v = strtok_r(text, " \t", &save); v; v = strtok_r(NULL, " \t", &save)) {
		if (k->nvalues == SWEEP_MAX_VALUES)
			return dl_err("%s:%d: more than %d values for '%s'", file, k->line,
				      SWEEP_MAX_VALUES, k->name);
		/* Any byte: the run list quotes it (cmd_sweep.c, shell_word()). */
		if (!(k->value[k->nvalues++] = strdup(v)))
			return dl_err("out of memory");
	}
	if (!k->nvalues)
		return dl_err("%s:%d: '%s' has no value", file, k->line, k->name);
	return 0;
}

static int read_line(struct sweep_spec *s, char *line, int no)
{
	char *eq, *key, *hash = strchr(line, '#');
	struct sweep_key *k;

	if (hash)
		*hash = '\0';
	line = trim(line);
	if (!*line)
		return 0;
	if (!(eq = strchr(line, '=')))
		return dl_err("%s:%d: not KEY = VALUE ...", s->file, no);
	*eq = '\0';
	key = trim(line);
	if (!*key)
		return dl_err("%s:%d: no key before '='", s->file, no);
	for (int i = 0; i < s->nkeys; i++)
		if (strcmp(s->key[i].name, key) == 0)
			return dl_err("%s:%d: '%s' given twice (first at line %d): list its values on one line",
				      s->file, no, key, s->key[i].line);
	if (strcmp(key, "command") == 0 || strcmp(key, "name") == 0) {
		char *v = trim(eq + 1), **dst = key[0] == 'c' ? &s->command : &s->name;

		if (!*v || strpbrk(v, " \t/"))
			return dl_err("%s:%d: %s takes one word", s->file, no, key);
		if (*dst)
			return dl_err("%s:%d: '%s' given twice", s->file, no, key);
		return (*dst = strdup(v)) ? 0 : dl_err("out of memory");
	}
	if (s->nkeys == SWEEP_MAX_KEYS)
		return dl_err("%s:%d: more than %d keys", s->file, no, SWEEP_MAX_KEYS);
	k = &s->key[s->nkeys++];
	k->line = no;
	k->generator = strncmp(key, "platform.", 9) == 0;
	k->name = strdup(key);
	k->value = calloc(SWEEP_MAX_VALUES, sizeof(char *));
	if (!k->name || !k->value)
		return dl_err("out of memory");
	return add_values(k, eq + 1, s->file);
}

/* Keys belong to the command; platform.* keys to the generator, and then
 * no key names the platform itself. */
static int check_keys(struct sweep_spec *s)
{
	const char *const *keys = keys_of(s->command);
	bool gen = false, platform = false;

	if (!keys)
		return dl_err("%s: command '%s' is not train, coll, tier, nna, nvm, dram or llm", s->file, s->command);
	for (int i = 0; i < s->nkeys; i++) {
		struct sweep_key *k = &s->key[i];

		if (k->generator && !listed(generator_keys, k->name + 9))
			return dl_err("%s:%d: '%s' is not an option of dlasim platform", s->file, k->line,
				      k->name + 9);
		if (!k->generator && !listed(keys, k->name))
			return dl_err("%s:%d: '%s' is not an option of dlasim %s a sweep can vary",
				      s->file, k->line, k->name, s->command);
		gen |= k->generator;
		platform |= !k->generator && strcmp(k->name, "platform") == 0;
		if (gen && platform)
			return dl_err("%s:%d: platform.* keys generate the platforms: no 'platform' key beside them",
				      s->file, k->line);
	}
	return 0;
}

/* The spec's base name without its extension. */
static char *default_name(const char *file)
{
	const char *b = strrchr(file, '/');
	char *n = strdup(b ? b + 1 : file), *dot;

	if (n && (dot = strrchr(n, '.')) && dot != n)
		*dot = '\0';
	return n;
}

int sweep_spec_read(struct sweep_spec *s, const char *file)
{
	struct dl_lines in;
	char *line;
	int ret;

	memset(s, 0, sizeof(*s));
	if (!(s->file = strdup(file)))
		return dl_err("out of memory");
	if (dl_outfile_reads(file) || dl_lines_open(&in, file, SPEC_LINE_MAX, "sweep spec"))
		return -1;
	while ((ret = dl_lines_next(&in, &line)) > 0 && !(ret = read_line(s, line, in.no)))
		;
	dl_lines_close(&in);
	if (ret)
		return -1;
	if (!s->command)
		return dl_err("%s: no 'command = train|coll|tier|nna|nvm|dram|llm' line", file);
	if (!s->name && !(s->name = default_name(file)))
		return dl_err("out of memory");
	return check_keys(s);
}

void sweep_spec_free(struct sweep_spec *s)
{
	for (int i = 0; i < s->nkeys; i++) {
		for (int v = 0; v < s->key[i].nvalues; v++)
			free(s->key[i].value[v]);
		free(s->key[i].value);
		free(s->key[i].name);
	}
	free(s->command);
	free(s->name);
	free(s->file);
}

long sweep_grid_size(const struct sweep_spec *s, int gen)
{
	long n = 1;

	for (int i = 0; i < s->nkeys; i++)
		if (s->key[i].generator == gen)
			n *= s->key[i].nvalues;
	return n;
}

void sweep_grid_point(const struct sweep_spec *s, int gen, long i, int *index)
{
	for (int k = s->nkeys - 1; k >= 0; k--) {
		if (s->key[k].generator != gen)
			continue;
		index[k] = (int)(i % s->key[k].nvalues);
		i /= s->key[k].nvalues;
	}
}
