/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/diag.h"

#define LINE_MAX_LEN 4096

/* ---- the keys ---- */

enum key_type { K_INT, K_LONG, K_DOUBLE, K_WORD };

struct key {
	const char *name;
	enum key_type type;
	size_t offset;
	double min, max;	/* numbers */
};

#define I(n, lo, hi) { #n, K_INT, offsetof(struct memdev_config, n), lo, hi }
#define D(n, lo, hi) { #n, K_DOUBLE, offsetof(struct memdev_config, n), lo, hi }

/* Ranks of a channel, from 'ranks' or from channel_size. */
#define MAX_RANKS 64

static const struct key keys[] = {
	I(bankgroups, 1, 64), I(banks_per_group, 1, 64), I(ranks, 1, MAX_RANKS), I(channels, 1, 64),
	{ "rows", K_LONG, offsetof(struct memdev_config, rows), 1, 1 << 30 },
	I(columns, 1, 1 << 20), I(device_width, 1, 1024), I(bus_width, 1, 4096), I(BL, 1, 64),
	{ "channel_size", K_LONG, offsetof(struct memdev_config, channel_size_mb), 1, 1L << 40 },
	I(AL, 0, 1000), I(CL, 1, 1000), I(CWL, 1, 1000), I(tRCD, 1, 1000), I(tRP, 1, 1000),
	I(tRAS, 1, 10000), I(tRFC, 1, 100000), I(tREFI, 0, 10000000), I(tRRD_S, 1, 1000),
	I(tRRD_L, 1, 1000), I(tWTR_S, 0, 1000), I(tWTR_L, 0, 1000), I(tFAW, 0, 10000),
	I(tWR, 0, 1000), I(tRTP, 0, 1000), I(tCCD_S, 1, 1000), I(tCCD_L, 1, 1000),
	I(tRTRS, 0, 1000), I(tRPRE, 0, 100), I(tWPRE, 0, 100),
	D(read_ns, 1e-3, 1e9), D(write_ns, 1e-3, 1e9), I(line_bytes, 1, 1 << 20),
	{ "page_bytes", K_LONG, offsetof(struct memdev_config, page_bytes), 1, 1L << 40 },
	/* NVM: banks per rank (one bank group) */
	{ "banks", K_INT, offsetof(struct memdev_config, banks_per_group), 1, 4096 },
	I(cmd_queue_size, 1, 64), I(step_every_cycle, 0, 2), I(trans_queue_size, 1, 1 << 16), I(write_buf_size, 0, 1 << 16),
	{ "protocol", K_WORD, 0, 0, 0 },
	{ "address_mapping", K_WORD, 0, 0, 0 },
	{ "queue_structure", K_WORD, 0, 0, 0 },
	{ "refresh_policy", K_WORD, 0, 0, 0 },
	{ "row_buf_policy", K_WORD, 0, 0, 0 },
	{ "scheduler", K_WORD, 0, 0, 0 },
	{ "interleave", K_WORD, 0, 0, 0 },
	{ "unified_queue", K_WORD, 0, 0, 0 },
	{ "tCK", K_DOUBLE, offsetof(struct memdev_config, tCK_ns), 1e-3, 1e6 },
};

/* DRAMsim3 keys this model does not use (power, self-refresh, output):
 * accepted so that a DRAMsim3 configuration can be read unchanged. */
static const char *const unused_keys[] = {
	"tRFC2", "tRFC4", "tRFCb", "tREFIb", "tCKE", "tCKESR", "tXS", "tXP", "tWR2",
	"tRREFD", "tPPD", "t32AW", "tRCDRD", "tRCDWR", "VDD", "IDD0", "IPP0", "IDD2P",
	"IDD2N", "IDD3P", "IDD3N", "IDD4W", "IDD4R", "IDD5AB", "IDD6x", "IDD5B",
	"epoch_period", "output_level", "output_prefix", "enable_self_refresh",
	"sref_threshold", "aggressive_precharging_enabled", "enable_hbm_dual_cmd",
	"req_buffering_enabled", "bankgroup", "ideal_memory_latency",
};

static const struct key *find_key(const char *name)
{
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (strcmp(keys[i].name, name) == 0)
			return &keys[i];
	return NULL;
}

static bool unused_key(const char *name)
{
	for (size_t i = 0; i < sizeof(unused_keys) / sizeof(unused_keys[0]); i++)
		if (strcmp(unused_keys[i], name) == 0)
			return true;
	return false;
}

/* ---- words ---- */

static int set_word(struct memdev_config *c, const char *key, const char *v, const char **why)
{
	if (strcmp(key, "protocol") == 0) {
		if (strcmp(v, "DDR4") == 0)
			c->kind = MEMDEV_DDR;
		else if (strcmp(v, "NVM") == 0)
			c->kind = MEMDEV_NVM;
		else
			*why = "this model knows DDR4 and NVM";
	} else if (strcmp(key, "address_mapping") == 0) {
		if (strlen(v) != 12)
			*why = "six two-letter fields, e.g. robabgrachco";
		else
			memcpy(c->mapping, v, 13);
	} else if (strcmp(key, "queue_structure") == 0) {
		if (strcmp(v, "PER_BANK") != 0)
			*why = "this model has per-bank command queues (PER_BANK)";
	} else if (strcmp(key, "unified_queue") == 0) {
		if (strcasecmp(v, "false") != 0 && strcmp(v, "0") != 0)
			*why = "this model has separate read and write queues (false)";
	} else if (strcmp(key, "refresh_policy") == 0) {
		if (strcmp(v, "RANK_LEVEL_STAGGERED") == 0)
			c->refresh = MEMDEV_REF_STAGGERED;
		else if (strcmp(v, "RANK_LEVEL_SIMULTANEOUS") == 0)
			c->refresh = MEMDEV_REF_SIMULTANEOUS;
		else if (strcmp(v, "NONE") == 0)
			c->refresh = MEMDEV_REF_NONE;
		else
			*why = "RANK_LEVEL_STAGGERED, RANK_LEVEL_SIMULTANEOUS or NONE";
	} else if (strcmp(key, "row_buf_policy") == 0) {
		if (strcmp(v, "OPEN_PAGE") == 0)
			c->page_policy = MEMDEV_OPEN_PAGE;
		else if (strcmp(v, "CLOSE_PAGE") == 0)
			c->page_policy = MEMDEV_CLOSE_PAGE;
		else
			*why = "OPEN_PAGE or CLOSE_PAGE";
	} else if (strcmp(key, "scheduler") == 0) {
		if (strcmp(v, "FRFCFS") == 0)
			c->sched = MEMDEV_FRFCFS;
		else if (strcmp(v, "FCFS") == 0)
			c->sched = MEMDEV_FCFS;
		else
			*why = "FRFCFS (first ready in queue order) or FCFS";
	} else if (strcmp(key, "interleave") == 0) {
		if (strcmp(v, "page") == 0)
			c->interleave = MEMDEV_PAGE;
		else if (strcmp(v, "line") == 0)
			c->interleave = MEMDEV_LINE;
		else
			*why = "page or line";
	}
	return *why ? -1 : 0;
}

static int set_number(struct memdev_config *c, const struct key *k, const char *v, const char **why)
{
	char *end;
	double d;

	errno = 0;
	d = strtod(v, &end);
	if (end == v || *end) {
		*why = "not a number";
		return -1;
	}
	if (!isfinite(d) || errno == ERANGE) {
		*why = "not a finite number";
		return -1;
	}
	if (k->type != K_DOUBLE && d != floor(d)) {
		*why = "not a whole number";
		return -1;
	}
	if (d < k->min || d > k->max) {
		static char range[96];

		snprintf(range, sizeof(range), "out of range [%g, %g]", k->min, k->max);
		*why = range;
		return -1;
	}
	switch (k->type) {
	case K_INT:
		*(int *)((char *)c + k->offset) = (int)d;
		break;
	case K_LONG:
		*(long *)((char *)c + k->offset) = (long)d;
		break;
	default:
		*(double *)((char *)c + k->offset) = d;
	}
	return 0;
}

/* ---- defaults and derived values ---- */

/* DRAMsim3's defaults where its configurations leave a value out. */
static void defaults(struct memdev_config *c)
{
	memset(c, 0, sizeof(*c));
	c->kind = MEMDEV_DDR;
	c->tRPRE = 1;
	c->tWPRE = 1;
	c->cmd_queue_size = 8;
	c->trans_queue_size = 32;
	c->write_buf_size = 8;
	c->page_policy = MEMDEV_OPEN_PAGE;
	c->sched = MEMDEV_FRFCFS;
	c->refresh = MEMDEV_REF_STAGGERED;
	c->interleave = MEMDEV_PAGE;
}

static int log2_exact(long v)
{
	int b = 0;

	if (v < 1 || (v & (v - 1)))
		return -1;
	while ((1L << b) < v)
		b++;
	return b;
}

static int parse_mapping(struct memdev_config *c, const char *where)
{
	static const char *const names[MF_FIELDS] = { "ro", "ba", "bg", "ra", "ch", "co" };
	int order[MF_FIELDS], shift = 0;

	for (int f = 0; f < MF_FIELDS; f++)
		order[f] = -1;
	for (int i = 0; i < MF_FIELDS; i++) {
		int f;

		for (f = 0; f < MF_FIELDS; f++)
			if (strncmp(c->mapping + 2 * i, names[f], 2) == 0)
				break;
		if (f == MF_FIELDS || order[f] >= 0)
			return dl_err("%s: address_mapping '%s' must name ro, ba, bg, ra, ch and co once each",
				      where, c->mapping);
		order[f] = i;
	}
	/* The last field is the least significant, above the block offset. */
	for (int i = MF_FIELDS - 1; i >= 0; i--) {
		for (int f = 0; f < MF_FIELDS; f++) {
			if (order[f] != i)
				continue;
			c->shift[f] = shift;
			shift += c->bits[f];
		}
	}
	if (shift + c->offset_bits > 62)
		return dl_err("%s: the address space needs %d bits, more than this model's 62",
			      where, shift + c->offset_bits);
	return 0;
}

static int field_bits(struct memdev_config *c, enum memdev_field f, long count,
		      const char *what, const char *where)
{
	c->bits[f] = log2_exact(count);
	if (c->bits[f] < 0)
		return dl_err("%s: %s = %ld: the address mapping needs a power of two", where, what, count);
	return 0;
}

/* Bytes in a rank (bus_width / device_width devices); -1 when its bits
 * overflow a long (2^60 bytes: beyond the 62-bit address space anyway). */
static long rank_size(const struct memdev_config *c)
{
	long n = c->rows;
	const long factors[] = {
		c->columns, c->device_width, c->bankgroups, c->banks_per_group,
		c->bus_width / c->device_width,
	};

	for (size_t i = 0; i < sizeof(factors) / sizeof(factors[0]); i++)
		if (__builtin_mul_overflow(n, factors[i], &n))
			return -1;
	return n / 8;	/* device_width is in bits */
}

static int finish_ddr(struct memdev_config *c, const char *where)
{
	static const char *const need[] = {
		"bankgroups", "banks_per_group", "rows", "columns", "device_width", "BL",
		"channels", "bus_width", "tCK", "CL", "CWL", "tRCD", "tRP", "tRAS", "tRFC",
		"tRRD_S", "tRRD_L", "tCCD_S", "tCCD_L", "address_mapping",
	};
	const int *v[] = {
		&c->bankgroups, &c->banks_per_group, NULL, &c->columns, &c->device_width, &c->BL,
		&c->channels, &c->bus_width, NULL, &c->CL, &c->CWL, &c->tRCD, &c->tRP, &c->tRAS,
		&c->tRFC, &c->tRRD_S, &c->tRRD_L, &c->tCCD_S, &c->tCCD_L, NULL,
	};
	long rank_bytes;

	for (size_t i = 0; i < sizeof(need) / sizeof(need[0]); i++) {
		bool missing = v[i] ? *v[i] == 0 :
			       i == 2 ? c->rows == 0 : i == 8 ? c->tCK_ns == 0 : !c->mapping[0];

		if (missing)
			return dl_err("%s: DDR4 needs '%s'", where, need[i]);
	}
	if (c->bus_width % c->device_width)
		return dl_err("%s: bus_width %d is not a multiple of device_width %d", where,
			      c->bus_width, c->device_width);
	if (c->columns % c->BL)
		return dl_err("%s: columns %d is not a multiple of BL %d", where, c->columns, c->BL);
	/* DRAMsim3: a rank is bus_width / device_width devices; the ranks are
	 * what channel_size holds. */
	rank_bytes = rank_size(c);
	if (rank_bytes < 1)
		return dl_err("%s: a rank (%d devices of %d x %d banks x %ld rows x %d columns x %d bits) is %s",
			      where, c->bus_width / c->device_width, c->bankgroups,
			      c->banks_per_group, c->rows, c->columns, c->device_width,
			      rank_bytes < 0 ? "more than 2^60 bytes" : "less than a byte");
	if (c->channel_size_mb) {
		long ranks = c->channel_size_mb * 1048576L / rank_bytes;

		if (ranks < 1 || ranks * rank_bytes != c->channel_size_mb * 1048576L)
			return dl_err("%s: channel_size %ld MB is not a whole number of ranks of %ld bytes",
				      where, c->channel_size_mb, rank_bytes);
		if (ranks > MAX_RANKS)
			return dl_err("%s: channel_size %ld MB holds %ld ranks of %ld bytes, more than %d",
				      where, c->channel_size_mb, ranks, rank_bytes, MAX_RANKS);
		if (c->ranks && c->ranks != ranks)
			return dl_err("%s: ranks %d, but channel_size %ld MB holds %ld ranks", where,
				      c->ranks, c->channel_size_mb, ranks);
		c->ranks = (int)ranks;
	}
	if (!c->ranks)
		return dl_err("%s: DDR4 needs 'ranks' or 'channel_size'", where);
	if (c->tCCD_L < c->tCCD_S || c->tRRD_L < c->tRRD_S)
		return dl_err("%s: tCCD_L and tRRD_L must not be below tCCD_S and tRRD_S", where);
	if (c->tREFI && c->tREFI / c->ranks <= c->tRFC)
		return dl_err("%s: tREFI %d leaves no time between refreshes of %d ranks (tRFC %d)",
			      where, c->tREFI, c->ranks, c->tRFC);
	c->banks = c->bankgroups * c->banks_per_group;
	if (c->refresh != MEMDEV_REF_NONE && c->tREFI) {
		int least = md_ddr_refresh_need(c);

		if (c->tREFI <= least)
			return dl_err("%s: tREFI %d is too short to serve a request between refreshes (tRFC %d): it must exceed %d (docs/memdev.md, Refresh)",
				      where, c->tREFI, c->tRFC, least);
	}
	c->block_bytes = c->bus_width / 8 * c->BL;
	c->row_bytes = (long)c->columns * c->bus_width / 8;
	c->offset_bits = log2_exact(c->block_bytes);
	if (c->offset_bits < 0)
		return dl_err("%s: a request of %d bytes (bus_width / 8 x BL) is not a power of two",
			      where, c->block_bytes);
	if (field_bits(c, MF_RO, c->rows, "rows", where) ||
	    field_bits(c, MF_BA, c->banks_per_group, "banks_per_group", where) ||
	    field_bits(c, MF_BG, c->bankgroups, "bankgroups", where) ||
	    field_bits(c, MF_RA, c->ranks, "ranks", where) ||
	    field_bits(c, MF_CH, c->channels, "channels", where) ||
	    field_bits(c, MF_CO, c->columns / c->BL, "columns / BL", where))
		return -1;
	c->capacity_bytes = (double)c->channels * c->ranks * c->banks * c->rows * c->row_bytes;
	return parse_mapping(c, where);
}

/* The NVM: a flat address space interleaved over the banks by pages or
 * lines; only the occupancy times matter. */
static int finish_nvm(struct memdev_config *c, const char *where)
{
	long lines;

	if (!c->channels)
		c->channels = 1;
	if (!c->ranks)
		c->ranks = 1;
	if (!c->bankgroups)
		c->bankgroups = 1;
	if (!c->banks_per_group || !c->line_bytes || !(c->read_ns > 0) || !(c->write_ns > 0) ||
	    !c->channel_size_mb)
		return dl_err("%s: NVM needs banks_per_group, line_bytes, read_ns, write_ns and channel_size",
			      where);
	if (!c->page_bytes)
		c->page_bytes = 4096;
	if (c->page_bytes % c->line_bytes)
		return dl_err("%s: page_bytes %ld is not a multiple of line_bytes %d", where,
			      c->page_bytes, c->line_bytes);
	if (!(c->tCK_ns > 0))
		c->tCK_ns = 1;
	c->banks = c->bankgroups * c->banks_per_group;
	c->block_bytes = c->line_bytes;
	c->capacity_bytes = (double)c->channels * c->channel_size_mb * 1048576.0;
	lines = (long)(c->capacity_bytes / c->line_bytes);
	if (lines < (long)c->channels * c->ranks * c->banks)
		return dl_err("%s: channel_size too small for its banks", where);
	return 0;
}

int memdev_config_finish(struct memdev_config *c, const char *where)
{
	if (c->kind == MEMDEV_NVM)
		return finish_nvm(c, where);
	return finish_ddr(c, where);
}

/* ---- the file ---- */

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

static int read_line(FILE *f, char *buf, size_t len, const char *file, long lineno, bool *eof)
{
	size_t n = 0;
	int ch;

	*eof = false;
	while ((ch = getc(f)) != EOF && ch != '\n') {
		if (ch == '\0')
			return dl_err("%s:%ld: a NUL byte: not a text file", file, lineno);
		if (n + 1 >= len)
			return dl_err("%s:%ld: line longer than %zu bytes", file, lineno, len - 1);
		buf[n++] = (char)ch;
	}
	buf[n] = '\0';
	if (ch == EOF && n == 0)
		*eof = true;
	return 0;
}

static int apply(struct memdev_config *c, char *line, const char *file, long lineno)
{
	char shown[160], *eq, *key, *val, *cut;
	const struct key *k;
	const char *why = NULL;

	/* Comments: ';' (DRAMsim3's ini) or '#', whole-line or trailing. */
	for (cut = line; *cut; cut++)
		if ((*cut == ';' || *cut == '#') && (cut == line || isspace((unsigned char)cut[-1])))
			break;
	*cut = '\0';
	line = trim(line);
	if (!*line)
		return 0;
	if (*line == '[') {
		if (line[strlen(line) - 1] != ']')
			return dl_err("%s:%ld: section header without ']'", file, lineno);
		return 0;
	}
	eq = strchr(line, '=');
	if (!eq) {
		dl_printable(shown, sizeof(shown), line);
		return dl_err("%s:%ld: '%s' is not key = value", file, lineno, shown);
	}
	*eq = '\0';
	key = trim(line);
	val = trim(eq + 1);
	dl_printable(shown, sizeof(shown), key);
	if (unused_key(key))
		return 0;
	k = find_key(key);
	if (!k)
		return dl_err("%s:%ld: unknown key '%s' (docs/memdev.md lists the keys)", file, lineno, shown);
	if (!*val)
		return dl_err("%s:%ld: '%s' has no value", file, lineno, shown);
	if (k->type == K_WORD ? set_word(c, key, val, &why) : set_number(c, k, val, &why)) {
		char v[160];

		dl_printable(v, sizeof(v), val);
		return dl_err("%s:%ld: %s = %s: %s", file, lineno, shown, v, why);
	}
	return 0;
}

int memdev_config_read(const char *file, struct memdev_config *c)
{
	char line[LINE_MAX_LEN];
	long lineno = 0;
	struct stat st;
	bool eof;
	FILE *f;
	const char *base;
	int ret = 0;

	defaults(c);
	f = fopen(file, "r");
	if (!f)
		return dl_err("%s: cannot open DRAM configuration: %s", file, strerror(errno));
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(f);
		return dl_err("%s: a directory, not a DRAM configuration", file);
	}
	errno = 0;
	while (ret == 0) {
		lineno++;
		ret = read_line(f, line, sizeof(line), file, lineno, &eof);
		if (ret || eof)
			break;
		ret = apply(c, line, file, lineno);
	}
	if (ferror(f) && ret == 0)
		ret = dl_err("%s: cannot read: %s", file, strerror(errno ? errno : EIO));
	fclose(f);
	if (ret)
		return -1;
	base = strrchr(file, '/');
	snprintf(c->name, sizeof(c->name), "%s", base ? base + 1 : file);
	return memdev_config_finish(c, file);
}

/* ---- presets ---- */

/*
 * Seed 003, Table 5.3 (DDR4-2400, ro 32768, ba 4, bg 4, ra 2, ch 2, co 128,
 * 1 KB page, 8 B block, robabgrachco, FCFS) with the timing of a 4 Gb x8
 * DDR4-2400 device (JEDEC JESD79-4 speed bin DDR4-2400R, 17-17-17;
 * Micron MT40A512M8 datasheet), as DRAMsim3's DDR4_4Gb_x8_2400.ini.
 */
static void ddr4_2400_x8_2ch2rk(struct memdev_config *c)
{
	defaults(c);
	snprintf(c->name, sizeof(c->name), "ddr4-2400-x8-2ch2rk");
	c->bankgroups = 4;
	c->banks_per_group = 4;
	c->rows = 32768;
	c->columns = 1024;
	c->device_width = 8;
	c->bus_width = 8;
	c->BL = 8;
	c->channels = 2;
	c->ranks = 2;
	c->tCK_ns = 0.833;
	c->CL = 17;
	c->CWL = 12;
	c->tRCD = 17;
	c->tRP = 17;
	c->tRAS = 39;
	c->tRFC = 312;
	c->tREFI = 9360;
	c->tRRD_S = 4;
	c->tRRD_L = 6;
	c->tWTR_S = 3;
	c->tWTR_L = 9;
	c->tFAW = 26;
	c->tWR = 18;
	c->tRTP = 9;
	c->tCCD_S = 4;
	c->tCCD_L = 6;
	c->tRTRS = 1;
	snprintf(c->mapping, sizeof(c->mapping), "robabgrachco");
}

/* Seed 003, Table 4.1: one channel, one rank, 8 banks, 8 GB, 300 ns
 * writes, 48 ns reads, 64 B lines; page interleaving by default. */
static void nvm(struct memdev_config *c)
{
	defaults(c);
	snprintf(c->name, sizeof(c->name), "nvm");
	c->kind = MEMDEV_NVM;
	c->channels = 1;
	c->ranks = 1;
	c->bankgroups = 1;
	c->banks_per_group = 8;
	c->line_bytes = 64;
	c->page_bytes = 4096;
	c->read_ns = 48;
	c->write_ns = 300;
	c->tCK_ns = 1;
	c->channel_size_mb = 8192;
}

static const struct preset {
	const char *name;
	void (*fill)(struct memdev_config *c);
} presets[] = {
	{ "ddr4-2400-x8-2ch2rk", ddr4_2400_x8_2ch2rk },
	{ "nvm", nvm },
};

int memdev_preset(const char *name, struct memdev_config *c)
{
	for (size_t i = 0; i < sizeof(presets) / sizeof(presets[0]); i++) {
		if (strcmp(presets[i].name, name) == 0) {
			presets[i].fill(c);
			return memdev_config_finish(c, name);
		}
	}
	return -1;
}

const char *memdev_preset_names(void)
{
	return "ddr4-2400-x8-2ch2rk, nvm";
}
