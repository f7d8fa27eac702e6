/* SPDX-License-Identifier: MIT */
/* DRAM configuration files: key = value, DRAMsim3's key names
 * (docs/memdev.md, "Configuration files"). */
#include "memdev.h"

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "kernel/diag.h"

#define MAX_LINE 512	/* bytes of one line, its newline included */

/* An integer field of struct memdev_ddr or of the configuration. */
struct key {
	const char *name;
	size_t offset;		/* in struct memdev_config */
	bool required;
	long min, max;
};

#define DDR(f) offsetof(struct memdev_config, ddr) + offsetof(struct memdev_ddr, f)
#define CFG(f) offsetof(struct memdev_config, f)

static const struct key keys[] = {
	{ "channels", CFG(channels), true, 1, 64 },
	{ "ranks", CFG(ranks), true, 1, 64 },
	{ "bankgroups", DDR(bankgroups), true, 1, 8 },
	{ "banks_per_group", DDR(banks_per_group), true, 1, 64 },
	{ "rows", DDR(rows), true, 1, 1L << 24 },
	{ "columns", DDR(columns), true, 1, 1L << 16 },
	{ "device_width", DDR(device_width), true, 1, 1024 },
	{ "bus_width", DDR(bus_width), true, 8, 1024 },
	{ "BL", DDR(BL), true, 2, 64 },
	{ "AL", DDR(AL), false, 0, 1000 },
	{ "CL", DDR(CL), true, 1, 1000 },
	{ "CWL", DDR(CWL), true, 1, 1000 },
	{ "tRCD", DDR(tRCD), true, 1, 1000 },
	{ "tRP", DDR(tRP), true, 1, 1000 },
	{ "tRAS", DDR(tRAS), true, 1, 1000 },
	{ "tRFC", DDR(tRFC), true, 1, 100000 },
	{ "tREFI", DDR(tREFI), true, 1, 10000000 },
	{ "tRRD_S", DDR(tRRD_S), true, 1, 1000 },
	{ "tRRD_L", DDR(tRRD_L), true, 1, 1000 },
	{ "tWTR_S", DDR(tWTR_S), true, 0, 1000 },
	{ "tWTR_L", DDR(tWTR_L), true, 0, 1000 },
	{ "tFAW", DDR(tFAW), true, 0, 1000 },
	{ "tWR", DDR(tWR), true, 0, 1000 },
	{ "tRTP", DDR(tRTP), true, 0, 1000 },
	{ "tCCD_S", DDR(tCCD_S), true, 1, 1000 },
	{ "tCCD_L", DDR(tCCD_L), true, 1, 1000 },
	{ "tRTRS", DDR(tRTRS), true, 0, 1000 },
	{ "trans_queue_size", DDR(trans_queue_size), false, 1, 65536 },
	{ "cmd_queue_size", DDR(cmd_queue_size), false, 1, 65536 },
};

#define NKEYS (sizeof(keys) / sizeof(keys[0]))

static char name[PATH_MAX];

static int line_err(const char *file, int no, const char *fmt, const char *a, const char *b)
{
	char msg[256];

	snprintf(msg, sizeof(msg), fmt, a, b);
	return dl_err("%s:%d: %s", file, no, msg);
}

static int set_int(struct memdev_config *cfg, const struct key *k, const char *file, int no,
		   const char *value)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(value, &end, 10);
	if (errno || end == value || *end || v < k->min || v > k->max) {
		char range[96];

		snprintf(range, sizeof(range), "an integer from %ld to %ld", k->min, k->max);
		return line_err(file, no, "%s: must be %s", k->name, range);
	}
	*(int *)((char *)cfg + k->offset) = (int)v;
	return 0;
}

/* One "key = value" line; `seen` marks the keys given. */
static int set(struct memdev_config *cfg, const char *file, int no, char *key, char *value,
	       bool *seen, bool *seen_tck, bool *seen_map)
{
	if (strcmp(key, "protocol") == 0)
		return strcmp(value, "DDR4") == 0 ? 0 :
		       line_err(file, no, "protocol %s: only %s is modelled", value, "DDR4");
	if (strcmp(key, "row_buf_policy") == 0)
		return strcmp(value, "OPEN_PAGE") == 0 ? 0 :
		       line_err(file, no, "row_buf_policy %s: only %s is modelled", value, "OPEN_PAGE");
	if (strcmp(key, "tCK") == 0) {
		char *end;

		errno = 0;
		cfg->ddr.tCK_s = strtod(value, &end) * 1e-9;
		if (errno || end == value || *end || !(cfg->ddr.tCK_s > 0) || cfg->ddr.tCK_s > 1e-6)
			return line_err(file, no, "tCK %s: must be a clock period in ns (0 to %s)", value, "1000");
		*seen_tck = true;
		return 0;
	}
	if (strcmp(key, "address_mapping") == 0) {
		if (strlen(value) >= sizeof(cfg->ddr.mapping))
			return line_err(file, no, "address_mapping %s: %s", value, "too long");
		strcpy(cfg->ddr.mapping, value);
		*seen_map = true;
		return 0;
	}
	for (size_t i = 0; i < NKEYS; i++) {
		if (strcmp(key, keys[i].name) == 0) {
			if (seen[i])
				return line_err(file, no, "%s given twice%s", key, "");
			seen[i] = true;
			return set_int(cfg, &keys[i], file, no, value);
		}
	}
	return line_err(file, no, "unknown key '%s'%s (docs/memdev.md lists the keys)", key, "");
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' || e[-1] == '\n'))
		*--e = '\0';
	return s;
}

static int read_lines(FILE *f, const char *file, struct memdev_config *cfg, bool *seen,
		      bool *seen_tck, bool *seen_map)
{
	char *text = NULL;
	size_t cap = 0;
	ssize_t n;
	int no = 0, ret = -1;

	while ((n = getline(&text, &cap, f)) >= 0) {
		char *hash, *eq, *s;

		no++;
		if (n > MAX_LINE) {
			line_err(file, no, "line longer than %s characters%s", "512", "");
			goto out;
		}
		if ((size_t)n != strlen(text)) {
			line_err(file, no, "%s%s", "a NUL byte", "");
			goto out;
		}
		hash = strchr(text, '#');
		if (hash)
			*hash = '\0';
		s = trim(text);
		if (!*s || (*s == '[' && s[strlen(s) - 1] == ']'))
			continue;	/* blank, or a DRAMsim3 section header */
		eq = strchr(s, '=');
		if (!eq) {
			line_err(file, no, "'%s' is not key = value%s", s, "");
			goto out;
		}
		*eq = '\0';
		if (set(cfg, file, no, trim(s), trim(eq + 1), seen, seen_tck, seen_map))
			goto out;
	}
	if (ferror(f))
		dl_err("%s: read error: %s", file, strerror(errno));
	else
		ret = 0;
out:
	free(text);
	return ret;
}

int memdev_config_read(const char *file, struct memdev_config *out)
{
	bool seen[NKEYS] = { false }, seen_tck = false, seen_map = false;
	struct memdev_config cfg = { .kind = MEMDEV_DDR };
	FILE *f = fopen(file, "r");
	int ret;

	if (!f)
		return dl_err("%s: %s", file, strerror(errno));
	cfg.ddr.trans_queue_size = 32;	/* DRAMsim3's defaults */
	cfg.ddr.cmd_queue_size = 8;
	ret = read_lines(f, file, &cfg, seen, &seen_tck, &seen_map);
	fclose(f);
	if (ret)
		return -1;
	for (size_t i = 0; i < NKEYS; i++)
		if (keys[i].required && !seen[i])
			return dl_err("%s: missing key '%s'", file, keys[i].name);
	if (!seen_tck || !seen_map)
		return dl_err("%s: missing key '%s'", file, seen_tck ? "address_mapping" : "tCK");
	cfg.banks = cfg.ddr.bankgroups * cfg.ddr.banks_per_group;
	cfg.line_bytes = cfg.ddr.bus_width / 8 * cfg.ddr.BL;
	cfg.page_bytes = (long)cfg.ddr.columns / cfg.ddr.BL * cfg.line_bytes;
	cfg.capacity_bytes = (double)cfg.channels * cfg.ranks * cfg.banks * cfg.ddr.rows *
			     (double)cfg.page_bytes;
	snprintf(name, sizeof(name), "%s", file);
	cfg.name = name;
	*out = cfg;
	return 0;
}
