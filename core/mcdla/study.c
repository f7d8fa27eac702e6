/* SPDX-License-Identifier: MIT */
/*
 * dlasim study mcdla: the design points of the memory-centric paper x its
 * 8 benchmarks, data- and model-parallel (Figures 11-13), over one or
 * several batch sizes (Figure 14), with the machines of its sensitivity
 * studies and the system power (Section V-B, V-C) on request.  Platforms
 * come from the generator; each run is one process (results/jobs.h).
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "coll/coll.h"
#include "lib/args.h"
#include "lib/cleanup.h"
#include "lib/datadir.h"
#include "lib/diag.h"
#include "results/plot.h"
#include "lib/units.h"
#include "commands.h"
#include "study.h"

#define CMD "study mcdla"
/* Section IV: 16 GB of HBM per device (the oracle has no limit). */
#define MC_STUDY_DEVICE_MEMORY 16e9
#define MC_STUDY_DEVICE_MEMORY_TEXT "16GB"
/* Section IV: "a batch size of 512 for all our evaluations". */
#define MC_STUDY_BATCH 512
static void usage(FILE *f)
{
	fprintf(f,
		"usage: dlasim study mcdla [--devices N[,N...]] [--batch B[,B...]] [--parallel data|model|both]\n"
		"                          [--designs NAME,...] [--sensitivity] [--power] [--dimm SIZE]\n"
		"                          [--coll NAME|PATH] [--overlay all|spill]\n"
		"                          [--dx-collective allreduce|reducescatter]\n"
		"                          [--workloads DIR] [--jobs N] [--timeout T]\n"
		"                          [--json|--csv] [--plot DIR]\n"
		"  Six design points (DC-DLA, HC-DLA, MC-DLA(S), MC-DLA(L), MC-DLA(B), DC-DLA(O))\n"
		"  x 8 benchmarks: speedup over DC-DLA with harmonic means (Figure 13), latency\n"
		"  breakdown (Figure 11), CPU memory bandwidth (Figure 12).\n"
		"  --devices N     devices per platform (default 8); several (8,64,512):\n"
		"                  a scaling sweep of speedup and per-device throughput\n"
		"  --batch B,...   global batch, or several (Figure 14: 128,256,1024,2048;\n"
		"                  default 512)\n"
		"  --parallel M    data, model or both (default both)\n"
		"  --designs LIST  design points to run (default the six; the DC-DLA each is\n"
		"                  compared with is added)\n"
		"  --sensitivity   also the machines of Section V-B: PCIe gen4 (device links\n"
		"                  and uplinks, device links only), Power9 sockets, cDMA,\n"
		"                  TPUv2-like and DGX-2-like nodes, HC-DLA's links as one\n"
		"                  ring (hc-ring); a table of their gaps\n"
		"  --power         a table of system power and performance per watt (V-C)\n"
		"  --dimm SIZE     memory-node DIMMs, Table IV: 8GB..128GB (default 128GB)\n"
		"  --scale-out     each size N as N/8 system nodes of 8 devices joined by\n"
		"                  device-side switches (Figure 15; N a multiple of 8);\n"
		"                  MC-DLA(S) has no scale-out machine and is left out\n"
		"  --coll ALGO     collective plugin (default: one-direction rings, the paper's\n"
		"                  accounting: ring up to 64 devices, ring_flow beyond,\n"
		"                  hier scaled out)\n"
		"  --overlay P     all (Section IV: every feature map out and back, default)\n"
		"                  or spill (only what does not fit leaves; docs/model.md)\n"
		"  --dx-collective OP  model-parallel input gradients: allreduce (Figure 4,\n"
		"                  default) or reducescatter\n"
		"  --workloads DIR where the .dnn files are (default: the shipped workloads/)\n"
		DL_JOBS_USAGE
		"  --json, --csv   machine-readable output (every field with its unit)\n"
		"  --plot DIR      draw Figures 11-14 into DIR as PNG and SVG (docs/figures.md);\n"
		"                  without --batch, DC-DLA and MC-DLA(B) also run at\n"
		"                  128,256,1024,2048 for Figure 14\n"
		"  A run that fails is named with the command line that repeats it and\n"
		"  shown as n/a (with the means it enters); the study then exits 1.\n"
		"  Design names: DC-DLA HC-DLA MC-DLA(S) MC-DLA(L) MC-DLA(B) DC-DLA(O)\n"
		"  DC-DLA/gen4 DC-DLA/gen4-link HC-DLA/power9 DC-DLA/cdma DC-DLA/tpuv2\n"
		"  MC-DLA(B)/tpuv2 DC-DLA/dgx2 MC-DLA(B)/dgx2 (docs/studies.md).\n");
}

/* ---- runs ---- */

/* The generator's options for design d, as `dlasim platform` takes them. */
static void platform_options(const struct study *st, int d, struct dl_platgen *g, char *buf,
			     size_t len)
{
	const struct mc_design *x = &mc_designs[d];
	char dimm[32];
	int devices = x->devices ? x->devices : st->devices;
	enum dl_generation gen;
	int n;

	dl_platgen_defaults(g, x->topo, devices);
	if (x->generation && dl_generation_parse(x->generation, &gen) == 0)
		dl_platgen_generation(g, gen);
	if (st->scale_out && !x->devices) {
		g->nodes = devices / DL_NODE_DEVICES;
		n = snprintf(buf, len, "--topology %s --nodes %d", dl_topology_name(x->topo),
			     g->nodes);
	} else {
		n = snprintf(buf, len, "--topology %s --devices %d", dl_topology_name(x->topo),
			     devices);
	}
	if (x->generation)
		n += snprintf(buf + n, len - n, " --generation %s", x->generation);
	if (st->dimm_bytes != g->dimm_bytes)
		n += snprintf(buf + n, len - n, " --dimm %s", dl_format_size(st->dimm_bytes, dimm,
									     sizeof(dimm)));
	g->dimm_bytes = st->dimm_bytes;
	if (x->socket) {
		g->cpu_mem_bw = dl_socket_memory_bw(x->socket);
		n += snprintf(buf + n, len - n, " --socket %s", x->socket);
	}
	if (x->uplink_bw) {
		g->pcie_uplink_bw = x->uplink_bw;
		n += snprintf(buf + n, len - n, " --pcie-uplink-bandwidth %.0fGBps", x->uplink_bw / 1e9);
	}
	if (x->links) {
		g->links = x->links;
		n += snprintf(buf + n, len - n, " --links-per-device %d", x->links);
	}
	if (x->link_bw) {
		g->link_bw = x->link_bw;
		n += snprintf(buf + n, len - n, " --link-bandwidth %.0fGBps", x->link_bw / 1e9);
	}
	if (x->device_tdp_w) {
		g->device_tdp_w = x->device_tdp_w;
		snprintf(buf + n, len - n, " --device-tdp %gW", x->device_tdp_w);
	}
}

/* The configuration of run `index` (`wl` holds the workload's path). */
static void run_cfg(const struct study *st, int index, struct mc_train_cfg *cfg, char *wl,
		    size_t len)
{
	const struct mc_run *r = &st->run[index];
	const struct mc_design *x = &mc_designs[r->design];
	int devices = x->devices ? x->devices : st->devices;
	int nodes = st->scale_out && !x->devices ? devices / DL_NODE_DEVICES : 0;

	snprintf(wl, len, "%s/%s.dnn", st->workloads, mc_benches[r->bench]);
	*cfg = (struct mc_train_cfg){
		/* The paper's accounting: rings in one direction (Section
		 * II-C's (N/2) x B), unless --coll says otherwise. */
		.coll = st->coll ? st->coll : dl_coll_default_for(devices, nodes, false),
		.batch = st->batches[r->batch], .page_bytes = MC_DEFAULT_PAGE_BYTES,
		.workload = wl, .platform = st->platform[r->design], .page_alloc = x->page_alloc,
		.mode = st->modes[r->mode],
		.device_memory = x->oracle ? INFINITY : MC_STUDY_DEVICE_MEMORY,
		.device = x->device, .compression = x->compression,
		.overlay_spill = st->overlay_spill, .dx_reduce_scatter = st->dx_reduce_scatter,
	};
}

/* In the child: one training run, its result as raw bytes. */
static int job(int index, FILE *out, void *arg)
{
	struct mc_train_cfg cfg;
	char wl[PATH_MAX + 128];
	struct mc_train_result r;

	run_cfg(arg, index, &cfg, wl, sizeof(wl));
	if (mc_train_run(&cfg, &r))
		return 1;
	return fwrite(&r, sizeof(r), 1, out) == 1 ? 0 : 1;
}

/* The commands that repeat run `index`: its platform from the generator,
 * then the training run. */
static void describe(int index, void *arg, char *buf, size_t len)
{
	const struct study *st = arg;
	const struct mc_design *x = &mc_designs[st->run[index].design];
	struct mc_train_cfg cfg;
	struct dl_platgen g;
	char wl[PATH_MAX + 128], gen[256], extra[128] = "";
	int n = 0;

	run_cfg(st, index, &cfg, wl, sizeof(wl));
	platform_options(st, st->run[index].design, &g, gen, sizeof(gen));
	if (x->device)
		n += snprintf(extra + n, sizeof(extra) - n, " --device %s", x->device);
	if (x->compression)
		n += snprintf(extra + n, sizeof(extra) - n, " --overlay-compression %g", x->compression);
	if (st->overlay_spill)
		n += snprintf(extra + n, sizeof(extra) - n, " --overlay spill");
	if (st->dx_reduce_scatter)
		snprintf(extra + n, sizeof(extra) - n, " --dx-collective reducescatter");
	snprintf(buf, len,
		 "dlasim platform %s -o %s-%d.xml && "
		 "dlasim train --platform %s-%d.xml --workload %s --batch %.0f --parallel %s "
		 "--page-alloc %s%s%s --device-memory %s%s",
		 gen, dl_topology_name(x->topo), g.devices, dl_topology_name(x->topo), g.devices,
		 cfg.workload, cfg.batch, mc_mode_name(cfg.mode), cfg.page_alloc,
		 cfg.coll ? " --coll " : "", cfg.coll ? cfg.coll : "",
		 x->oracle ? "inf" : MC_STUDY_DEVICE_MEMORY_TEXT, extra);
}

static int write_platform(struct study *st, int d)
{
	struct dl_platgen g;
	char opts[256];
	FILE *f;
	int rc;

	snprintf(st->platform[d], sizeof(st->platform[0]), "%s/design%d.xml", st->workdir, d);
	platform_options(st, d, &g, opts, sizeof(opts));
	if (dl_cleanup_add_path(st->platform[d]))
		return -1;
	f = fopen(st->platform[d], "w");
	if (!f)
		return dl_err("%s: %s", st->platform[d], strerror(errno));
	rc = dl_platgen_write(&g, f);
	if (fclose(f) || rc)
		return rc ? -1 : dl_err("%s: write failed", st->platform[d]);
	return 0;
}

static int write_platforms(struct study *st)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(st->workdir, sizeof(st->workdir), "%s/dlasim-mcdla.XXXXXX", tmp ? tmp : "/tmp");
	if (!mkdtemp(st->workdir))
		return dl_err("cannot create a temporary directory: %s", strerror(errno));
	if (dl_cleanup_add_path(st->workdir))
		return -1;
	for (int d = 0; d < MC_DESIGNS; d++)
		if (st->in_set[d] && write_platform(st, d))
			return -1;
	return 0;
}

static void remove_platforms(struct study *st)
{
	for (int d = 0; d < MC_DESIGNS; d++) {
		if (st->platform[d][0]) {
			unlink(st->platform[d]);
			dl_cleanup_forget_path(st->platform[d]);
			st->platform[d][0] = '\0';
		}
	}
	if (st->workdir[0]) {
		rmdir(st->workdir);
		dl_cleanup_forget_path(st->workdir);
		st->workdir[0] = '\0';
	}
}

/* Modes x batches x designs x benchmarks, the CNN-only designs without
 * the RNNs. */
static int plan_runs(struct study *st)
{
	int slots = st->nmodes * st->nbatches * MC_DESIGNS * MC_NBENCH;

	st->run = calloc(slots, sizeof(*st->run));
	st->index = malloc(slots * sizeof(int));
	if (!st->run || !st->index)
		return dl_err("out of memory");
	for (int m = 0; m < st->nmodes; m++)
		for (int b = 0; b < st->nbatches; b++)
			for (int d = 0; d < MC_DESIGNS; d++)
				for (int w = 0; w < MC_NBENCH; w++) {
					bool run = mc_study_planned(st, b, d) &&
						   (!mc_designs[d].cnn_only || mc_bench_is_cnn(w));

					st->index[mc_study_slot(st, m, b, d, w)] = run ? st->nruns : -1;
					if (run)
						st->run[st->nruns++] = (struct mc_run){ m, b, d, w };
				}
	return 0;
}

/* Every finished run's result; a failed run's is all NAN (n/a). */
static void collect(struct study *st)
{
	size_t first = offsetof(struct mc_train_result, iteration_s);

	for (int i = 0; i < st->nruns; i++) {
		const struct mc_train_result *r = dl_job_data(&st->jr[i]);
		double *v = (double *)((char *)&st->res[i] + first);

		if (r) {
			st->res[i] = *r;
			continue;
		}
		memset(&st->res[i], 0, sizeof(st->res[i]));
		for (size_t k = 0; k < (sizeof(st->res[i]) - first) / sizeof(double); k++)
			v[k] = NAN;
	}
}

/* Plan, run and collect the study at st->devices; *failed: runs failed. */
static int run_point(struct study *st, int *failed)
{
	if (plan_runs(st))
		return -1;
	st->res = calloc(st->nruns, sizeof(*st->res));
	st->jr = calloc(st->nruns, sizeof(*st->jr));
	if (!st->res || !st->jr)
		return dl_err("out of memory");
	if (write_platforms(st))
		return -1;
	st->jobs.count = st->nruns;
	*failed = dl_jobs_run(&st->jobs, st->jr);
	remove_platforms(st);
	if (*failed < 0)
		return -1;
	collect(st);
	return 0;
}

static void free_point(struct study *st)
{
	remove_platforms(st);
	if (st->jr)
		dl_jobs_free(st->jr, st->nruns);
	free(st->jr);
	free(st->res);
	free(st->run);
	free(st->index);
	st->jr = NULL;
	st->res = NULL;
	st->run = NULL;
	st->index = NULL;
	st->nruns = 0;
}

static int run_study(struct study *st, char format)
{
	int failed, ret = DL_EXIT_ERROR;

	if (run_point(st, &failed))
		goto out;
	if (format == 'j')
		mc_study_print_json(st, stdout);
	else if (format == 'c')
		mc_study_print_csv(st);
	else
		mc_study_print_table(st);
	ret = dl_jobs_status(&st->jobs, failed);
	if (st->plot_dir && (mc_study_plot(st, st->plot_dir) || mc_study_save(st, st->plot_dir)))
		ret = DL_EXIT_ERROR;
out:
	free_point(st);
	return ret;
}

/* --devices N,N,...: the study at each size, then the sweep's tables. */
static int run_sweep(struct study *st, char format)
{
	static struct mc_scale_point pts[MC_MAX_SWEEP];
	int failed, all = 0, runs = 0;

	for (int i = 0; i < st->nsweep; i++) {
		st->devices = st->sweep[i];
		if (run_point(st, &failed)) {
			free_point(st);
			return DL_EXIT_ERROR;
		}
		mc_scale_record(st, &pts[i]);
		runs += st->nruns;
		free_point(st);
		all += failed;
	}
	mc_scale_print(st, pts, format);
	st->jobs.count = runs;	/* the status counts every size's runs */
	return dl_jobs_status(&st->jobs, all);
}

/* ---- options ---- */

static int parse_parallel(struct study *st, const char *s)
{
	if (strcmp(s, "data") == 0 || strcmp(s, "both") == 0)
		st->modes[st->nmodes++] = MC_DATA_PARALLEL;
	if (strcmp(s, "model") == 0 || strcmp(s, "both") == 0)
		st->modes[st->nmodes++] = MC_MODEL_PARALLEL;
	return st->nmodes ? 0 : dl_bad_option(CMD, "--parallel", s, "not data, model or both");
}

/* A comma-separated list, each item checked by `item`. */
static int parse_list(const char *s, const char *option, int (*item)(struct study *, const char *),
		      struct study *st)
{
	char copy[1024], *save = NULL;

	if (strlen(s) >= sizeof(copy))
		return dl_bad_option(CMD, option, s, "too long");
	snprintf(copy, sizeof(copy), "%s", s);
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save))
		if (item(st, t))
			return -1;
	return 0;
}

static int batch_item(struct study *st, const char *s)
{
	const char *why;
	long v;

	if ((why = dl_parse_int(s, 1, 1L << 30, &v)))
		return dl_bad_option(CMD, "--batch", s, why);
	if (st->nbatches == MC_MAX_BATCHES)
		return dl_bad_option(CMD, "--batch", s, "at most 16 batch sizes");
	st->batches[st->nbatches++] = (double)v;
	return 0;
}

static int devices_item(struct study *st, const char *s)
{
	const char *why;
	long v;

	if ((why = dl_parse_int(s, 2, DL_PLATGEN_MAX_DEVICES, &v)))
		return dl_bad_option(CMD, "--devices", s, why);
	if (st->nsweep == MC_MAX_SWEEP)
		return dl_bad_option(CMD, "--devices", s, "at most 16 sizes");
	st->sweep[st->nsweep++] = (int)v;
	return 0;
}

static int design_item(struct study *st, const char *s)
{
	for (int d = 0; d < MC_DESIGNS; d++) {
		if (strcmp(s, mc_designs[d].name) == 0) {
			st->in_set[d] = true;
			st->in_set[mc_designs[d].base] = true;
			return 0;
		}
	}
	return dl_bad_option(CMD, "--designs", s, "unknown design point (see --help)");
}

/* Before forking runs that would all say so. */
static int check_batches(const struct study *st, int devices)
{
	for (int b = 0; b < st->nbatches; b++) {
		for (int d = 0; d < MC_DESIGNS; d++) {
			int n = mc_designs[d].devices ? mc_designs[d].devices : devices;

			if (!st->in_set[d] || st->modes[0] != MC_DATA_PARALLEL ||
			    fmod(st->batches[b], n) == 0)
				continue;
			dl_err("--batch %.0f%s does not divide across %d devices (data-parallel training gives each device batch/%d samples): give --batch a multiple of %d",
			       st->batches[b], st->batch_given ? "" : " (the default)", n, n, n);
			return -1;
		}
	}
	return 0;
}

/* --workloads: a directory, so that a wrong one is one message, not every
 * run of the study failing on its missing file (-1: taken, as in
 * parse_option). */
static int workloads_dir(struct study *st, const char *dir)
{
	struct stat sb;

	if ((size_t)snprintf(st->workloads, sizeof(st->workloads), "%s", dir) >=
	    sizeof(st->workloads))
		return dl_bad_option(CMD, "--workloads", dir, "path too long");
	if (stat(dir, &sb))
		return dl_bad_option(CMD, "--workloads", dir, strerror(errno));
	if (!S_ISDIR(sb.st_mode))
		return dl_bad_option(CMD, "--workloads", dir, "not a directory");
	return -1;
}

/* Returns -1 to go on, else an exit status. */
static int parse_option(struct study *st, int c, const char **parallel, char *format)
{
	const char *why;

	switch (c) {
	case 'n':
		st->nsweep = 0;
		if (parse_list(optarg, "--devices", devices_item, st))
			return DL_EXIT_USAGE;
		if (st->nsweep == 0)
			return dl_bad_option(CMD, "--devices", optarg, "no size given");
		st->devices = st->sweep[0];
		return -1;
	case 'b':
		st->nbatches = 0;
		st->batch_given = true;
		return parse_list(optarg, "--batch", batch_item, st) ? DL_EXIT_USAGE : -1;
	case 'd':
		memset(st->in_set, 0, sizeof(st->in_set));
		st->designs_given = true;
		return parse_list(optarg, "--designs", design_item, st) ? DL_EXIT_USAGE : -1;
	case 'D':
		if ((why = dl_parse_size(optarg, &st->dimm_bytes)))
			return dl_bad_option(CMD, "--dimm", optarg, why);
		return -1;
	case 's': st->sensitivity = true; return -1;
	case 'O': st->scale_out = true; return -1;
	case 'p': st->power = true; return -1;
	case 'm': *parallel = optarg; return -1;
	case 'c': st->coll = optarg; return -1;
	case 'o':
		if (strcmp(optarg, "all") && strcmp(optarg, "spill"))
			return dl_bad_option(CMD, "--overlay", optarg, "not 'all' or 'spill'");
		st->overlay_spill = optarg[0] == 's';
		return -1;
	case 'x':
		if (strcmp(optarg, "allreduce") && strcmp(optarg, "reducescatter"))
			return dl_bad_option(CMD, "--dx-collective", optarg,
					     "not 'allreduce' or 'reducescatter'");
		st->dx_reduce_scatter = optarg[0] == 'r';
		return -1;
	case 'w': return workloads_dir(st, optarg);
	case 'P':
		st->plot_dir = optarg;
		return dl_plot_dir(optarg, "--plot") ? DL_EXIT_USAGE : -1;
	case 'j': *format = 'j'; return -1;
	case 'v': *format = 'c'; return -1;
	case 'h': usage(stdout); return DL_EXIT_OK;
	default: return DL_EXIT_USAGE;
	}
}

static int compare_batch(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The batch sizes in ascending order (Figure 14's x axis); without
 * --batch, the paper's 512, and with --plot its Figure 14 sweep too.
 * Figures 11-13 are drawn at 512 when it is run, else the first. */
static void finish_batches(struct study *st)
{
	static const double sweep[] = { 128, 256, 512, 1024, 2048 };

	if (st->nbatches == 0 && st->plot_dir) {
		memcpy(st->batches, sweep, sizeof(sweep));
		st->nbatches = sizeof(sweep) / sizeof(sweep[0]);
		st->batch_sweep = true;
	} else if (st->nbatches == 0) {
		st->batches[st->nbatches++] = MC_STUDY_BATCH;
	}
	qsort(st->batches, st->nbatches, sizeof(st->batches[0]), compare_batch);
	for (int b = 0; b < st->nbatches; b++)
		if (st->batches[b] == MC_STUDY_BATCH)
			st->fig_batch = b;
}

/* --scale-out: designs that have a scale-out machine (whole system nodes
 * are check_size's).  MC-DLA(S)'s star has none: left out of the default
 * set (said once), refused when asked for. */
static int check_scale_out(struct study *st)
{
	if (st->sensitivity)
		return dl_err("%s: --scale-out takes no --sensitivity (its machines have 8 devices)",
			      CMD);
	if (st->in_set[MC_STAR] && st->designs_given)
		return dl_err("%s: --scale-out: %s (mc-star) has no scale-out machine; leave it out of --designs",
			      CMD, mc_designs[MC_STAR].name);
	if (st->in_set[MC_STAR])
		dl_warn("%s: --scale-out: %s (mc-star) has no scale-out machine and is not run",
			CMD, mc_designs[MC_STAR].name);
	st->in_set[MC_STAR] = false;
	return 0;
}

/* What a machine size allows: whole system nodes when scaled out, the
 * generator's limits, the batch split. */
static int check_size(const struct study *st, int devices)
{
	struct dl_platgen g;

	if (st->scale_out && devices % DL_NODE_DEVICES)
		return dl_err("%s: --scale-out: --devices %d is not whole system nodes of %d devices",
			      CMD, devices, DL_NODE_DEVICES);
	dl_platgen_defaults(&g, DL_TOPO_MC_RING, devices);
	g.dimm_bytes = st->dimm_bytes;
	if (st->scale_out)
		g.nodes = devices / DL_NODE_DEVICES;
	if (dl_platgen_check(&g))
		return -1;
	return check_batches(st, devices);
}

/* Check the options together; the sensitivity machines join the set. */
static int finish_options(struct study *st, const char *parallel)
{
	if (parse_parallel(st, parallel))
		return -1;
	finish_batches(st);
	if (st->sensitivity)
		for (int d = MC_DC_GEN4; d < MC_DESIGNS; d++)
			st->in_set[d] = st->in_set[mc_designs[d].base] = true;
	if (st->sensitivity)
		st->in_set[MC_BW] = true;	/* the gaps are to MC-DLA(B) */
	if (st->nsweep > 1 && (st->plot_dir || st->sensitivity || st->power || st->nbatches > 1))
		return dl_err("%s: a --devices sweep takes one --batch and no --plot, --sensitivity or --power",
			      CMD);
	/* Every size of a sweep (or the one), before any run: each would
	 * fail alike. */
	for (int i = 0; i < (st->nsweep ? st->nsweep : 1); i++)
		if (check_size(st, st->nsweep ? st->sweep[i] : st->devices))
			return -1;
	return st->scale_out ? check_scale_out(st) : 0;
}

int study_mcdla(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "devices", required_argument, NULL, 'n' },
		{ "batch", required_argument, NULL, 'b' },
		{ "parallel", required_argument, NULL, 'm' },
		{ "designs", required_argument, NULL, 'd' },
		{ "sensitivity", no_argument, NULL, 's' },
		{ "scale-out", no_argument, NULL, 'O' },
		{ "power", no_argument, NULL, 'p' },
		{ "dimm", required_argument, NULL, 'D' },
		{ "coll", required_argument, NULL, 'c' },
		{ "overlay", required_argument, NULL, 'o' },
		{ "dx-collective", required_argument, NULL, 'x' },
		{ "workloads", required_argument, NULL, 'w' },
		DL_JOBS_OPTIONS,
		{ "json", no_argument, NULL, 'j' },
		{ "csv", no_argument, NULL, 'v' },
		{ "plot", required_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	static struct study st;
	const char *parallel = "both";
	char format = 't';
	int c, rc;

	st = (struct study){
		.devices = 8, .dimm_bytes = 128e9,
		.jobs = { .what = CMD, .run = job, .describe = describe, .arg = &st,
			  .result_size = sizeof(struct mc_train_result) },
	};
	for (int d = 0; d < MC_DESIGNS; d++)
		st.in_set[d] = mc_designs[d].figure13;
	dl_data_dir("workloads", st.workloads, sizeof(st.workloads));
	while ((c = dl_getopt(argc, argv, CMD, NULL, opts)) != -1) {
		rc = dl_jobs_option(&st.jobs, c, optarg);
		if (rc < 0)
			return DL_EXIT_USAGE;
		if (rc > 0)
			continue;
		if ((rc = parse_option(&st, c, &parallel, &format)) >= 0)
			return rc;
	}
	if (optind < argc) {
		dl_err("%s: unexpected argument '%s'", CMD, argv[optind]);
		return DL_EXIT_USAGE;
	}
	if (finish_options(&st, parallel))
		return DL_EXIT_USAGE;
	return st.nsweep > 1 ? run_sweep(&st, format) : run_study(&st, format);
}
