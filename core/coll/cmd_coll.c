/* SPDX-License-Identifier: MIT */
/* dlasim coll: simulate one collective operation on a platform. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <simgrid/engine.h>

#include "lib/args.h"
#include "lib/datadir.h"
#include "lib/diag.h"
#include "machine/engine.h"
#include "results/json.h"
#include "lib/units.h"
#include "coll.h"
#include "commands.h"

#define CMD "coll"

struct coll_run {
	struct dl_coll *coll;
	char algorithm[128];	/* the plugin's name and its options */
	struct dlasim_coll_call call;
	double *finish;		/* per rank, NAN until done */
};

struct rank_arg {
	struct coll_run *run;
	int rank;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: dlasim coll --platform FILE --op OP --bytes SIZE [--coll NAME|PATH.so]\n"
		"                   [--root RANK] [--trace FILE] [--cfg NAME:VALUE] [--json]\n"
		"  --platform FILE  SimGrid platform (see 'dlasim platform') or a shipped one's name\n"
		"  --op OP          allreduce, allgather, reducescatter, broadcast or alltoall\n"
		"  --bytes SIZE     buffer size S, e.g. 4096, 1GB (1e9), 64MiB (2^26)\n"
		"  --coll ALGO      collective plugin name or path to a .so (default: the\n"
		"                   platform's, as train picks it)\n"
		"  --root RANK      broadcast root (default 0)\n"
		DL_ENGINE_USAGE
		"  --json           print one JSON object instead of a sentence\n");
}

static void rank_main(void *arg)
{
	struct rank_arg *a = arg;

	dl_coll_call(a->run->coll, a->rank, &a->run->call);
	a->run->finish[a->rank] = simgrid_get_clock();
}

static void print_result(const struct coll_run *run, const struct dl_platform *p,
			 double t, bool json)
{
	struct dl_json j;
	char size[64];
	double algbw = run->call.bytes / t;
	double busbw = algbw * dl_coll_bus_factor(run->call.op, p->ndevices);

	if (!json) {
		printf("%s of %s (%.0f bytes) on %d device%s, %d ring%s, algorithm %s: %.9g s\n"
		       "  algorithm bandwidth %.6g GB/s, bus bandwidth %.6g GB/s\n",
		       dl_coll_op_name(run->call.op), dl_format_size(run->call.bytes, size, sizeof(size)),
		       run->call.bytes, p->ndevices, p->ndevices == 1 ? "" : "s", p->nrings,
		       p->nrings == 1 ? "" : "s", run->algorithm, t,
		       algbw / 1e9, busbw / 1e9);
		return;
	}
	dl_json_result_begin(&j, stdout);
	dl_json_str(&j, "op", dl_coll_op_name(run->call.op));
	dl_json_str(&j, "algorithm", run->algorithm);
	dl_json_str(&j, "plugin_path", dl_coll_path(run->coll));
	dl_json_str(&j, "platform", p->file);
	dl_json_int(&j, "devices", p->ndevices);
	dl_json_int(&j, "rings", p->nrings);
	dl_json_num(&j, "bytes", run->call.bytes);
	if (run->call.op == DLASIM_COLL_BROADCAST)
		dl_json_int(&j, "root", run->call.root);
	dl_json_num(&j, "simulated_time_s", t);
	dl_json_num(&j, "algorithm_bandwidth_Bps", algbw);
	dl_json_num(&j, "bus_bandwidth_Bps", busbw);
	dl_json_object_end(&j);
}

static int simulate(const char *platform, const char *algo, struct dlasim_coll_call *call,
		    long root, bool json)
{
	struct coll_run run = { .call = *call };
	struct rank_arg *args = NULL;
	struct dl_platform *p;
	int ret = DL_EXIT_ERROR;
	double t = 0;

	if ((algo && dl_coll_check(algo, "--coll")) || dl_engine_start(platform, &p))
		return DL_EXIT_ERROR;
	if (dl_platform_require_rings(p))
		goto out;
	if (root >= p->ndevices) {
		dl_err("%s: --root %ld: the platform has %d devices (ranks 0 to %d)", CMD, root,
		       p->ndevices, p->ndevices - 1);
		goto out;
	}
	run.call.ranks = p->ndevices;
	run.call.rings = p->nrings;
	run.call.root = (int)root;
	if (!algo)
		algo = dl_coll_default_op(p, call->op);	/* as train picks it */
	if (dl_coll_open(&run.coll, p, algo, "--coll") || dl_coll_require(run.coll, call->op, "--coll"))
		goto out;
	/* "ring:bidir=1": the options follow the name as they were given. */
	snprintf(run.algorithm, sizeof(run.algorithm), "%s%s", dl_coll_name(run.coll),
		 strchr(algo, ':') ? strchr(algo, ':') : "");
	run.finish = malloc(p->ndevices * sizeof(double));
	args = malloc(p->ndevices * sizeof(*args));
	if (!run.finish || !args) {
		dl_err("out of memory");
		goto out;
	}
	for (int i = 0; i < p->ndevices; i++) {
		run.finish[i] = NAN;
		args[i] = (struct rank_arg){ &run, i };
		dl_actor_start("rank", p->hosts[p->devices[i]].sg, rank_main, &args[i]);
	}
	if (dl_engine_run())
		goto out;
	for (int i = 0; i < p->ndevices; i++) {
		if (isnan(run.finish[i])) {
			dl_err("collective plugin '%s' (%s) deadlocked: rank %d never finished %s",
			       dl_coll_name(run.coll), dl_coll_path(run.coll), i,
			       dl_coll_op_name(call->op));
			goto out;
		}
		t = fmax(t, run.finish[i]);
	}
	print_result(&run, p, t, json);
	ret = DL_EXIT_OK;
out:
	free(args);
	free(run.finish);
	dl_coll_close(run.coll);
	dl_platform_free(p);
	return ret;
}

int cmd_coll(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "platform", required_argument, NULL, 'p' },
		{ "op", required_argument, NULL, 'o' },
		{ "bytes", required_argument, NULL, 'b' },
		{ "coll", required_argument, NULL, 'c' },
		{ "root", required_argument, NULL, 'r' },
		{ "json", no_argument, NULL, 'j' },
		DL_ENGINE_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct dlasim_coll_call call = { .op = DLASIM_COLL_ALLREDUCE };
	const char *platform = NULL, *algo = NULL, *op = NULL, *bytes = NULL, *why;
	char pbuf[PATH_MAX];
	bool json = false;
	long root = 0;
	int c, rc;

	while ((c = dl_getopt(argc, argv, CMD, NULL, opts)) != -1) {
		switch (c) {
		case 'p': platform = optarg; break;
		case 'o': op = optarg; break;
		case 'b': bytes = optarg; break;
		case 'c': algo = optarg; break;
		case 'j': json = true; break;
		case 'r':
			if ((why = dl_parse_int(optarg, 0, 1 << 30, &root)))
				return dl_bad_option(CMD, "--root", optarg, why);
			break;
		case DL_ENGINE_OPT_TRACE:
		case DL_ENGINE_OPT_CFG:
			if ((rc = dl_engine_option(CMD, c, optarg)) >= 0)
				return rc;
			break;
		case 'h': usage(stdout); return DL_EXIT_OK;
		default: return DL_EXIT_USAGE;
		}
	}
	if (dl_no_operands(argc, argv, CMD))
		return DL_EXIT_USAGE;
	if (!platform || !op || !bytes) {
		dl_err("%s: --platform, --op and --bytes are required (see 'dlasim coll --help')", CMD);
		return DL_EXIT_USAGE;
	}
	if (dl_coll_op_parse(op, &call.op))
		return dl_bad_option(CMD, "--op", op, "not allreduce, allgather, reducescatter, broadcast or alltoall");
	if ((why = dl_parse_size(bytes, &call.bytes)))
		return dl_bad_option(CMD, "--bytes", bytes, why);
	if (call.bytes > DL_MAX_TRANSFER_BYTES)
		return dl_bad_option(CMD, "--bytes", bytes,
				     "more than the 2^62 bytes (4.6e18) a transfer can carry");
	platform = dl_data_find("platforms", platform, dl_platform_exts, pbuf, sizeof(pbuf));
	return simulate(platform, algo, &call, root, json);
}
