/* SPDX-License-Identifier: MIT */
#include "sgcfg.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lib/units.h"

enum cfg_type { CFG_BOOL, CFG_INT, CFG_DOUBLE, CFG_ENUM, CFG_TEXT };

struct sgcfg {
	const char *name;
	enum cfg_type type;
	double min, max;		/* CFG_INT, CFG_DOUBLE */
	const char *const *values;	/* CFG_ENUM, NULL-terminated */
	const char *what;
};

/*
 * Left out on purpose: the Constant network model (it refuses links),
 * tracing/basic (pajeng cannot read what it writes), network/optim:Full (SimGrid 3.32 then writes trace
 * events out of time order), network/maxmin-selective-update (aborts
 * under the lazy update dlasim uses), the SMPI, IB and ns-3 network models
 * (they need what dlasim does not start), and anything that changes what
 * a run computes behind dlasim's back (plugins, chaos monkey, SMPI).
 */
static const char *const net_models[] = { "CM02", "LV08", NULL };
static const char *const factories[] = { "thread", "ucontext", "raw", "boost", NULL };

static const struct sgcfg options[] = {
	/* With --trace, which sets tracing, its file, actor states and usage
	 * (alone, SimGrid would draw the topology and abort, see paje.h). */
	{ "tracing/categorized", CFG_BOOL, 0, 0, NULL, "usage per tracing category" },
	{ "tracing/platform", CFG_BOOL, 0, 0, NULL, "the zone hierarchy as containers" },
	{ "tracing/precision", CFG_INT, 0, 15, NULL, "digits after the decimal point of timestamps" },
	{ "tracing/comment", CFG_TEXT, 0, 0, NULL, "a comment line at the top of the trace" },
	{ "tracing/disable_link", CFG_BOOL, 0, 0, NULL, "no link bandwidth and latency variables" },
	{ "tracing/disable_power", CFG_BOOL, 0, 0, NULL, "no host speed variables" },
	{ "network/model", CFG_ENUM, 0, 0, net_models, "network model (dlasim: CM02)" },
	{ "network/crosstraffic", CFG_BOOL, 0, 0, NULL, "uploads and downloads interfere (dlasim: no)" },
	{ "network/TCP-gamma", CFG_DOUBLE, 0, 1e300, NULL, "TCP window bound, bytes (dlasim: 0, none)" },
	{ "network/weight-S", CFG_DOUBLE, 0, 1e300, NULL, "RTT weight of competing flows" },
	{ "maxmin/precision", CFG_DOUBLE, 1e-300, 1, NULL, "sharing precision, bytes/s or flop/s" },
	{ "surf/precision", CFG_DOUBLE, 1e-300, 1, NULL, "time precision, s" },
	{ "contexts/factory", CFG_ENUM, 0, 0, factories, "how actors switch" },
	{ "contexts/stack-size", CFG_INT, 16, 1 << 20, NULL, "actor stack, KiB (dlasim: 256)" },
	{ "contexts/guard-size", CFG_INT, 0, 1 << 10, NULL, "stack guard pages" },
	{ "debug/verbose-exit", CFG_BOOL, 0, 0, NULL, "actors' state at exit" },
};

#define NOPTIONS (sizeof(options) / sizeof(options[0]))

static const char *const type_names[] = {
	[CFG_BOOL] = "yes|no", [CFG_INT] = "integer", [CFG_DOUBLE] = "number",
	[CFG_ENUM] = "choice", [CFG_TEXT] = "text",
};

/* SimGrid's spellings of a boolean. */
static bool is_bool(const char *v)
{
	static const char *const words[] = { "yes", "no", "on", "off", "true", "false", "1", "0" };

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strcmp(v, words[i]) == 0)
			return true;
	return false;
}

static const char *check_value(const struct sgcfg *o, const char *v)
{
	double x;
	long n;

	switch (o->type) {
	case CFG_BOOL:
		return is_bool(v) ? NULL : "not yes or no";
	case CFG_INT:
		return dl_parse_int(v, (long)o->min, (long)o->max, &n);
	case CFG_DOUBLE:
		if (dl_parse_number(v, o->min, &x))
			return "not a number in range";
		return x <= o->max ? NULL : "too large";
	case CFG_ENUM:
		for (const char *const *e = o->values; *e; e++)
			if (strcmp(v, *e) == 0)
				return NULL;
		return "not one of the values '--cfg help' lists";
	case CFG_TEXT:
		/* SimGrid reads options up to the end of the argument. */
		return strchr(v, '\n') ? "contains a newline" : NULL;
	}
	return "unknown type";
}

const char *dl_sgcfg_check(const char *nameval)
{
	const char *colon = strchr(nameval, ':');

	if (!colon || colon == nameval)
		return "not NAME:VALUE";
	for (size_t i = 0; i < NOPTIONS; i++) {
		size_t n = strlen(options[i].name);

		if ((size_t)(colon - nameval) == n && strncmp(nameval, options[i].name, n) == 0)
			return check_value(&options[i], colon + 1);
	}
	return "not a SimGrid option dlasim passes through ('--cfg help' lists them)";
}

void dl_sgcfg_list(FILE *f)
{
	fprintf(f, "SimGrid options accepted by --cfg NAME:VALUE:\n");
	for (size_t i = 0; i < NOPTIONS; i++) {
		const struct sgcfg *o = &options[i];
		char type[96] = "";

		if (o->type == CFG_ENUM) {
			for (const char *const *e = o->values; *e; e++)
				snprintf(type + strlen(type), sizeof(type) - strlen(type), "%s%s",
					 e == o->values ? "" : "|", *e);
		} else {
			snprintf(type, sizeof(type), "%s", type_names[o->type]);
		}
		fprintf(f, "  %-32s %-22s %s\n", o->name, type, o->what);
	}
}
