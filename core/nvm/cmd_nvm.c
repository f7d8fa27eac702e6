/* SPDX-License-Identifier: MIT */
/* dlasim nvm: one workload of crash-consistent transactions on NVM under a
 * persist plugin and a log-allocation plugin; or the kernels' write sets. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/args.h"
#include "lib/diag.h"
#include "results/json.h"
#include "lib/units.h"
#include "commands.h"
#include "nvmsys.h"
#include "report.h"
#include "run.h"

#define CMD "nvm"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: dlasim nvm --workload NAME --persist NAME[:OPTS] [--log-alloc NAME[:OPTS]]\n"
		"                  [--interleave page|line] [--adr N] [--staging N] [--logq N]\n"
		"                  [--tx N] [--cores N] [--seed N] [--ipc F] [--check] [--json | --csv]\n"
		"       dlasim nvm --write-sets [--tx N] [--seed N] [--json | --csv]\n"
		"  --workload NAME   mix1 .. mix6 (Table 3.1, 4 cores), or a kernel on every core:\n"
		"                    array, btree, rbtree, hashtable, chainqueue, tpcc, tatp (--mix: the same)\n"
		"  --persist NAME    persistence logging: lad, lad_rdlog, tste, vadr, redu, or a .so;\n"
		"                    options after ':' (e.g. redu:blom=1, tste:logpar=8, vadr:admission=mudf)\n"
		"  --log-alloc NAME  log-entry allocation: seq (default), lalea, or a .so\n"
		"  --interleave      NVM address mapping: page (4 KB, default) or line (64 B)\n"
		"  --adr N           ADR buffer entries (default %d; the virtual ADRs have as many)\n"
		"  --staging N       staging buffer entries (default %d), --logq N log queue (default %d)\n"
		"  --tx N            transactions in each core's workload (default 2000)\n"
		"  --cores N         cores of a kernel workload (default 4; a mix runs on its 4)\n"
		"  --seed N          random numbers of the kernels (default 1)\n"
		"  --ipc F           instructions per cycle at 2 GHz, 0.001 to 64 (default 1)\n"
		"  --check           audit the controller against I1-I6 after every event\n"
		"  --write-sets      the lines each kernel's transactions write (Figure 3.1)\n",
		NVM_ADR, NVM_STAGING, NVM_LOGQ);
}

static int int_option(const char *opt, const char *s, long min, long max, long *v)
{
	const char *why = dl_parse_int(s, min, max, v);

	return why ? dl_bad_option(CMD, opt, s, why) : 0;
}

int cmd_nvm(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "workload", required_argument, NULL, 'w' },
		{ "mix", required_argument, NULL, 'w' },
		{ "persist", required_argument, NULL, 'p' },
		{ "log-alloc", required_argument, NULL, 'l' },
		{ "interleave", required_argument, NULL, 'i' },
		{ "adr", required_argument, NULL, 'a' },
		{ "staging", required_argument, NULL, 's' },
		{ "logq", required_argument, NULL, 'q' },
		{ "tx", required_argument, NULL, 't' },
		{ "cores", required_argument, NULL, 'c' },
		{ "seed", required_argument, NULL, 'S' },
		{ "ipc", required_argument, NULL, 'I' },
		{ "check", no_argument, NULL, 'k' },
		{ "write-sets", no_argument, NULL, 'W' },
		{ "json", no_argument, NULL, 'j' },
		{ "csv", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct nvm_config cfg = { .log_alloc = "seq", .adr = NVM_ADR, .staging = NVM_STAGING,
				  .logq = NVM_LOGQ, .ntx = 2000, .cores = NVM_CORES, .seed = 1,
				  .ipc = 1 };
	enum nvm_format f = NVM_TABLE;
	struct nvm_result res;
	bool write_sets = false;
	const char *why;
	long v;
	int c;

	while ((c = dl_getopt(argc, argv, CMD, NULL, opts)) != -1) {
		switch (c) {
		case 'w': cfg.workload = optarg; break;
		case 'p': cfg.persist = optarg; break;
		case 'l': cfg.log_alloc = optarg; break;
		case 'k': cfg.check = true; break;
		case 'W': write_sets = true; break;
		case 'j': f = NVM_JSON; break;
		case 'v': f = NVM_CSV; break;
		case 'i':
			if (strcmp(optarg, "page") && strcmp(optarg, "line"))
				return dl_bad_option(CMD, "--interleave", optarg, "not page or line");
			cfg.line_interleave = optarg[0] == 'l';
			break;
		case 'a':
			if (int_option("--adr", optarg, 1, 4096, &v))
				return DL_EXIT_USAGE;
			cfg.adr = (int)v;
			break;
		case 's':
			if (int_option("--staging", optarg, 1, 4096, &v))
				return DL_EXIT_USAGE;
			cfg.staging = (int)v;
			break;
		case 'q':
			if (int_option("--logq", optarg, 1, 4096, &v))
				return DL_EXIT_USAGE;
			cfg.logq = (int)v;
			break;
		case 't':
			if (int_option("--tx", optarg, 1, 10000000, &v))
				return DL_EXIT_USAGE;
			cfg.ntx = (int)v;
			break;
		case 'c':
			if (int_option("--cores", optarg, 1, 64, &v))
				return DL_EXIT_USAGE;
			cfg.cores = (int)v;
			break;
		case 'S':
			if (int_option("--seed", optarg, 0, 1L << 40, &v))
				return DL_EXIT_USAGE;
			cfg.seed = (uint64_t)v;
			break;
		case 'I':
			/* An IPC below 1/1000 is no core's; far below it a
			 * run outlasts the precision of SimGrid's clock. */
			if ((why = dl_parse_number(optarg, 0, &cfg.ipc)) ||
			    (why = cfg.ipc >= 1e-3 && cfg.ipc <= 64 ? NULL : "not from 0.001 to 64"))
				return dl_bad_option(CMD, "--ipc", optarg, why);
			break;
		case 'h': usage(stdout); return DL_EXIT_OK;
		default: return DL_EXIT_USAGE;
		}
	}
	if (dl_no_operands(argc, argv, CMD))
		return DL_EXIT_USAGE;
	if (write_sets)
		return nvm_print_write_sets(cfg.ntx, cfg.seed, f) ? DL_EXIT_ERROR : DL_EXIT_OK;
	if (!cfg.workload || !cfg.persist) {
		dl_err("%s: --workload and --persist are required (see 'dlasim nvm --help')", CMD);
		return DL_EXIT_USAGE;
	}
	if (nvm_run(&cfg, &res))
		return DL_EXIT_ERROR;
	nvm_print_result(&res, f);
	/* A run audited to its end passed: a violation stops it with one
	 * line.  Say so, where a person reads the table. */
	if (cfg.check && f == NVM_TABLE)
		printf("audit (--check): passed, invariants I1-I6 held at each of %ld audits\n",
		       res.audits);
	return fflush(stdout) ? DL_EXIT_ERROR : DL_EXIT_OK;
}
