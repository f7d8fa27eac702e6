/* SPDX-License-Identifier: MIT */
/* Options `dlasim nna` and `dlasim study nna` share. */
#include "options.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "lib/args.h"
#include "lib/datadir.h"
#include "lib/diag.h"
#include "lib/units.h"

/* N or NxN with both the same. */
static const char *parse_sa(const char *s, int *n)
{
	long a, b;
	char buf[64], *x;

	snprintf(buf, sizeof(buf), "%s", s);
	x = strchr(buf, 'x');
	if (x)
		*x = '\0';
	if (dl_parse_int(buf, 1, 4096, &a) || (x && dl_parse_int(x + 1, 1, 4096, &b)))
		return "not N or NxN with N from 1 to 4096";
	if (x && a != b)
		return "the array must be square (its columns are the next layer's channel groups)";
	*n = (int)a;
	return NULL;
}

int nna_parse_option(struct nna_config *cfg, int c, const char *arg, const char *cmd)
{
	const char *why = NULL;
	long v;

	switch (c) {
	case 'a':
		why = parse_sa(arg, &cfg->sa);
		return why ? dl_bad_option(cmd, "--sa", arg, why) : 0;
	case 's':
		why = dl_parse_size(arg, &cfg->spm_bytes);
		return why ? dl_bad_option(cmd, "--spm", arg, why) : 0;
	case 'e':
		if (dl_parse_int(arg, 1, 4, &v) || v == 3)
			return dl_bad_option(cmd, "--elem-bytes", arg, "must be 1, 2 or 4");
		cfg->elem_bytes = (int)v;
		return 0;
	case 'b':
		if ((why = dl_parse_int(arg, 1, 128, &v)))
			return dl_bad_option(cmd, "--burst", arg, why);
		cfg->burst = (int)v;
		return 0;
	default:
		return DL_EXIT_USAGE;
	}
}

int nna_default_config(struct nna_config *cfg, char *dram, size_t len)
{
	char dir[PATH_MAX];

	dl_data_dir("platforms/dram", dir, sizeof(dir));
	if (snprintf(dram, len, "%s/%s", dir, NNA_DRAM_DEFAULT) >= (int)len)
		return dl_err("path too long: %s", dir);
	*cfg = (struct nna_config){ .dataflow = "ws", .placement = "roma", .dram = dram,
				    .sa = 32, .spm_bytes = 2 << 20, .elem_bytes = 1,
				    .burst = NNA_BURST_DEFAULT };
	return 0;
}

