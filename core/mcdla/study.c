/* SPDX-License-Identifier: MIT */
/*
 * dlasim study mcdla: the six design points of the memory-centric paper
 * x its 8 benchmarks, data- and model-parallel (Figures 11-13).  Platforms
 * come from the generator at the requested device count; each run is one
 * process (core/jobs.h).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel/args.h"
#include "kernel/datadir.h"
#include "kernel/diag.h"
#include "kernel/jobs.h"
#include "kernel/json.h"
#include "kernel/platgen.h"
#include "kernel/units.h"
#include "commands.h"
#include "train.h"

#define CMD "study mcdla"
#define NDESIGNS 6
#define NBENCH 8

struct design {
	const char *name;
	enum dl_topology topo;
	const char *page_alloc;
	bool oracle;
};

static const struct design designs[NDESIGNS] = {
	{ "DC-DLA", DL_TOPO_DC, "local", false },
	{ "HC-DLA", DL_TOPO_HC, "local", false },
	{ "MC-DLA(S)", DL_TOPO_MC_STAR, "local", false },
	{ "MC-DLA(L)", DL_TOPO_MC_RING, "local", false },
	{ "MC-DLA(B)", DL_TOPO_MC_RING, "bw_aware", false },
	{ "DC-DLA(O)", DL_TOPO_DC, "local", true },
};

static const char *const benches[NBENCH] = {
	"alexnet", "googlenet", "vgg-e", "resnet-34",
	"rnn-gemv", "rnn-lstm-1", "rnn-lstm-2", "rnn-gru",
};

struct study {
	int devices;
	double batch;
	int modes[2], nmodes;
	const char *coll;
	char workdir[PATH_MAX];
	char platform[DL_TOPOLOGIES][PATH_MAX + 64];
	char workloads[PATH_MAX + 64];
	int nruns;
	struct mc_train_result *res;	/* [mode][design][bench] */
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: dlasim study mcdla [--devices N] [--batch B] [--parallel data|model|both]\n"
		"                          [--coll NAME|PATH] [--workloads DIR] [--jobs N] [--json|--csv]\n"
		"  Six design points (DC-DLA, HC-DLA, MC-DLA(S), MC-DLA(L), MC-DLA(B), DC-DLA(O))\n"
		"  x 8 benchmarks: speedup over DC-DLA with harmonic means (Figure 13), latency\n"
		"  breakdown (Figure 11), CPU memory bandwidth (Figure 12).\n"
		"  --devices N     devices per platform (default 8)\n"
		"  --batch B       global batch (default 512)\n"
		"  --parallel M    data, model or both (default both)\n"
		"  --coll ALGO     collective plugin (default ring)\n"
		"  --workloads DIR where the .dnn files are (default: the shipped workloads/)\n"
		"  --jobs N        runs at once (default: one per CPU)\n"
		"  --json, --csv   machine-readable output (every field with its unit)\n");
}

static struct mc_train_result *result(struct study *st, int m, int d, int b)
{
	return &st->res[(m * NDESIGNS + d) * NBENCH + b];
}

static void run_index(const struct study *st, int i, int *m, int *d, int *b)
{
	*b = i % NBENCH;
	*d = i / NBENCH % NDESIGNS;
	*m = i / (NBENCH * NDESIGNS);
}

/* In the child: one training run, its result as raw bytes. */
static int job(int index, FILE *out, void *arg)
{
	struct study *st = arg;
	struct mc_train_cfg cfg = {
		.coll = st->coll, .batch = st->batch, .page_bytes = MC_DEFAULT_PAGE_BYTES,
	};
	char wl[PATH_MAX + 128];
	struct mc_train_result r;
	int m, d, b;

	run_index(st, index, &m, &d, &b);
	snprintf(wl, sizeof(wl), "%s/%s.dnn", st->workloads, benches[b]);
	cfg.workload = wl;
	cfg.platform = st->platform[designs[d].topo];
	cfg.page_alloc = designs[d].page_alloc;
	cfg.mode = st->modes[m];
	cfg.device_memory = designs[d].oracle ? INFINITY : 16e9;
	if (mc_train_run(&cfg, &r))
		return 1;
	return fwrite(&r, sizeof(r), 1, out) == 1 ? 0 : 1;
}

static int write_platforms(struct study *st)
{
	static const enum dl_topology used[] = { DL_TOPO_DC, DL_TOPO_HC, DL_TOPO_MC_STAR, DL_TOPO_MC_RING };
	const char *tmp = getenv("TMPDIR");

	snprintf(st->workdir, sizeof(st->workdir), "%s/dlasim-mcdla.XXXXXX", tmp ? tmp : "/tmp");
	if (!mkdtemp(st->workdir))
		return dl_err("cannot create a temporary directory: %s", strerror(errno));
	for (size_t i = 0; i < sizeof(used) / sizeof(used[0]); i++) {
		struct dl_platgen g;
		FILE *f;
		int rc;

		snprintf(st->platform[used[i]], sizeof(st->platform[0]), "%s/%s.xml", st->workdir,
			 dl_topology_name(used[i]));
		dl_platgen_defaults(&g, used[i], st->devices);
		f = fopen(st->platform[used[i]], "w");
		if (!f)
			return dl_err("%s: %s", st->platform[used[i]], strerror(errno));
		rc = dl_platgen_write(&g, f);
		if (fclose(f) || rc)
			return rc ? -1 : dl_err("%s: write failed", st->platform[used[i]]);
	}
	return 0;
}

static void remove_platforms(struct study *st)
{
	for (int t = 0; t < DL_TOPOLOGIES; t++)
		if (st->platform[t][0])
			unlink(st->platform[t]);
	if (st->workdir[0])
		rmdir(st->workdir);
}

static double speedup(struct study *st, int m, int d, int b)
{
	return result(st, m, 0, b)->iteration_s / result(st, m, d, b)->iteration_s;
}

static double harmonic(struct study *st, int m, int d)
{
	double s = 0;

	for (int b = 0; b < NBENCH; b++)
		s += 1 / speedup(st, m, d, b);
	return NBENCH / s;
}

static const char *mode_name(int mode)
{
	return mode == MC_DATA_PARALLEL ? "data" : "model";
}

static void print_table(struct study *st)
{
	for (int m = 0; m < st->nmodes; m++) {
		printf("%s-parallel, %d devices, batch %.0f: speedup over DC-DLA (Figure 13)\n",
		       mode_name(st->modes[m]), st->devices, st->batch);
		printf("  %-11s", "benchmark");
		for (int d = 0; d < NDESIGNS; d++)
			printf(" %10s", designs[d].name);
		printf("\n");
		for (int b = 0; b <= NBENCH; b++) {
			printf("  %-11s", b < NBENCH ? benches[b] : "HarMean");
			for (int d = 0; d < NDESIGNS; d++)
				printf(" %10.2f", b < NBENCH ? speedup(st, m, d, b) : harmonic(st, m, d));
			printf("\n");
		}
		printf("  breakdown, seconds per iteration (Figure 11): compute / sync / virt;"
		       " CPU memory GB/s mean/max (Figure 12)\n");
		for (int b = 0; b < NBENCH; b++) {
			printf("  %-11s", benches[b]);
			for (int d = 0; d < 3; d++) {
				const struct mc_train_result *r = result(st, m, d, b);

				printf("  %s %.3g/%.3g/%.3g cpu %.0f/%.0f", designs[d].name, r->compute_s,
				       r->sync_s, r->virt_s, r->cpu_mem_bw_avg_Bps / 1e9,
				       r->cpu_mem_bw_max_Bps / 1e9);
			}
			printf("\n");
		}
		printf("\n");
	}
}

static void json_run(struct dl_json *j, struct study *st, int m, int d, int b)
{
	const struct mc_train_result *r = result(st, m, d, b);

	dl_json_object_begin(j, NULL);
	dl_json_str(j, "parallel", mode_name(st->modes[m]));
	dl_json_str(j, "design", designs[d].name);
	dl_json_str(j, "workload", benches[b]);
	dl_json_num(j, "iteration_time_s", r->iteration_s);
	dl_json_num(j, "speedup_over_dc", speedup(st, m, d, b));
	dl_json_num(j, "compute_s", r->compute_s);
	dl_json_num(j, "sync_s", r->sync_s);
	dl_json_num(j, "sync_exposed_s", r->sync_exposed_s);
	dl_json_num(j, "virt_s", r->virt_s);
	dl_json_num(j, "virt_exposed_s", r->virt_exposed_s);
	dl_json_num(j, "cpu_mem_bw_avg_Bps", r->cpu_mem_bw_avg_Bps);
	dl_json_num(j, "cpu_mem_bw_max_Bps", r->cpu_mem_bw_max_Bps);
	dl_json_num(j, "memory_node_tdp_w", r->memory_node_tdp_w);
	dl_json_object_end(j);
}

static void print_json(struct study *st)
{
	struct dl_json j;

	dl_json_result_begin(&j, stdout);
	dl_json_int(&j, "devices", st->devices);
	dl_json_num(&j, "batch", st->batch);
	dl_json_array_begin(&j, "runs");
	for (int i = 0; i < st->nruns; i++) {
		int m, d, b;

		run_index(st, i, &m, &d, &b);
		json_run(&j, st, m, d, b);
	}
	dl_json_array_end(&j);
	dl_json_array_begin(&j, "harmonic_mean_speedup_over_dc");
	for (int m = 0; m < st->nmodes; m++) {
		for (int d = 0; d < NDESIGNS; d++) {
			dl_json_object_begin(&j, NULL);
			dl_json_str(&j, "parallel", mode_name(st->modes[m]));
			dl_json_str(&j, "design", designs[d].name);
			dl_json_num(&j, "speedup", harmonic(st, m, d));
			dl_json_object_end(&j);
		}
	}
	dl_json_array_end(&j);
	dl_json_object_end(&j);
}

static void print_csv(struct study *st)
{
	printf("parallel,design,workload,iteration_time_s,speedup_over_dc,compute_s,sync_s,"
	       "sync_exposed_s,virt_s,virt_exposed_s,cpu_mem_bw_avg_Bps,cpu_mem_bw_max_Bps\n");
	for (int i = 0; i < st->nruns; i++) {
		int m, d, b;
		const struct mc_train_result *r;

		run_index(st, i, &m, &d, &b);
		r = result(st, m, d, b);
		printf("%s,%s,%s,%.9g,%.6g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n",
		       mode_name(st->modes[m]), designs[d].name, benches[b], r->iteration_s,
		       speedup(st, m, d, b), r->compute_s, r->sync_s, r->sync_exposed_s, r->virt_s,
		       r->virt_exposed_s, r->cpu_mem_bw_avg_Bps, r->cpu_mem_bw_max_Bps);
	}
}

/* The shipped workloads/, in the source or the install tree. */
static void default_workloads(struct study *st)
{
	dl_data_dir("workloads", st->workloads, sizeof(st->workloads));
}

static int collect(struct study *st, struct dl_job_result *jr)
{
	for (int i = 0; i < st->nruns; i++) {
		int m, d, b;

		run_index(st, i, &m, &d, &b);
		if (jr[i].status || jr[i].len != sizeof(struct mc_train_result))
			return dl_err("%s: run %s / %s / %s-parallel failed", CMD, designs[d].name,
				      benches[b], mode_name(st->modes[m]));
		memcpy(result(st, m, d, b), jr[i].data, sizeof(struct mc_train_result));
	}
	return 0;
}

static int run_study(struct study *st, int jobs, char format)
{
	struct dl_job_result *jr;
	int ret = DL_EXIT_ERROR;

	st->nruns = st->nmodes * NDESIGNS * NBENCH;
	st->res = calloc(st->nruns, sizeof(*st->res));
	jr = calloc(st->nruns, sizeof(*jr));
	if (!st->res || !jr) {
		dl_err("out of memory");
		goto out;
	}
	if (write_platforms(st))
		goto out;
	if (dl_jobs_run(st->nruns, jobs, job, st, jr, "study mcdla") || collect(st, jr))
		goto out;
	if (format == 'j')
		print_json(st);
	else if (format == 'c')
		print_csv(st);
	else
		print_table(st);
	ret = DL_EXIT_OK;
out:
	remove_platforms(st);
	if (jr)
		dl_jobs_free(jr, st->nruns);
	free(jr);
	free(st->res);
	return ret;
}

static int parse_parallel(struct study *st, const char *s)
{
	if (strcmp(s, "data") == 0 || strcmp(s, "both") == 0)
		st->modes[st->nmodes++] = MC_DATA_PARALLEL;
	if (strcmp(s, "model") == 0 || strcmp(s, "both") == 0)
		st->modes[st->nmodes++] = MC_MODEL_PARALLEL;
	return st->nmodes ? 0 : dl_bad_option(CMD, "--parallel", s, "not data, model or both");
}

int study_mcdla(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "devices", required_argument, NULL, 'n' },
		{ "batch", required_argument, NULL, 'b' },
		{ "parallel", required_argument, NULL, 'm' },
		{ "coll", required_argument, NULL, 'c' },
		{ "workloads", required_argument, NULL, 'w' },
		{ "jobs", required_argument, NULL, 'J' },
		{ "json", no_argument, NULL, 'j' },
		{ "csv", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct study st = { .devices = 8, .batch = 512, .coll = "ring" };
	const char *parallel = "both", *why;
	char format = 't';
	long v, jobs = 0;
	int c;

	default_workloads(&st);
	while ((c = dl_getopt(argc, argv, CMD, NULL, opts)) != -1) {
		switch (c) {
		case 'n':
			if ((why = dl_parse_int(optarg, 2, 1 << 20, &v)))
				return dl_bad_option(CMD, "--devices", optarg, why);
			st.devices = (int)v;
			break;
		case 'b':
			if ((why = dl_parse_int(optarg, 1, 1L << 30, &v)))
				return dl_bad_option(CMD, "--batch", optarg, why);
			st.batch = (double)v;
			break;
		case 'J':
			if ((why = dl_parse_int(optarg, 1, 4096, &jobs)))
				return dl_bad_option(CMD, "--jobs", optarg, why);
			break;
		case 'm': parallel = optarg; break;
		case 'c': st.coll = optarg; break;
		case 'w': snprintf(st.workloads, sizeof(st.workloads), "%s", optarg); break;
		case 'j': format = 'j'; break;
		case 'v': format = 'c'; break;
		case 'h': usage(stdout); return DL_EXIT_OK;
		default: return DL_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		dl_err("%s: unexpected argument '%s'", CMD, argv[optind]);
		return DL_EXIT_USAGE;
	}
	if (parse_parallel(&st, parallel))
		return DL_EXIT_USAGE;
	/* Before forking 96 runs that would all say so. */
	if (st.modes[0] == MC_DATA_PARALLEL && (long)st.batch % st.devices) {
		dl_err("--batch %.0f does not divide across %d devices (data-parallel training gives each device batch/%d samples)",
		       st.batch, st.devices, st.devices);
		return DL_EXIT_USAGE;
	}
	return run_study(&st, (int)jobs, format);
}
