/* SPDX-License-Identifier: MIT */
/*
 * dlasim study llm: every configuration (a model's layout at one size) on
 * every machine, one process per run on every CPU (results/jobs.h), the
 * platforms from the generator in a temporary directory.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/args.h"
#include "lib/cleanup.h"
#include "lib/datadir.h"
#include "lib/diag.h"
#include "lib/strmap.h"
#include "lib/units.h"
#include "results/jobs.h"
#include "results/plot.h"
#include "commands.h"
#include "config.h"
#include "device.h"
#include "study_llm.h"

#define CMD "study llm"

/* The default study: every model at 64 and 1,024 devices (<= 5 minutes
 * on two cores, bench/study_llm.sh); --sizes adds the others. */
static const int default_sizes[] = { 64, 1024 };

struct run {
	int cfg, machine;
};

struct plan {
	struct sl_study *s;
	char workloads[PATH_MAX];
	char workdir[PATH_MAX];
	/* Platform per topology and size index ("" until written). */
	char platform[DL_TOPOLOGIES][SL_SIZES][PATH_MAX + 64];
	bool model_on[SL_MODELS], size_on[SL_SIZES];
	double device_memory;		/* --device-memory; 0: the device's HBM */
	struct run runs[SL_MAXCONFIGS * SL_MACHINES];
	int nruns;
};

static int size_index(int devices)
{
	for (int z = 0; z < SL_SIZES; z++)
		if (sl_sizes[z] == devices)
			return z;
	return -1;
}

/* ---- platforms ---- */

static void platgen_of(enum dl_topology t, int devices, struct dl_platgen *g)
{
	dl_platgen_defaults(g, t, devices);
	dl_platgen_generation(g, DL_GEN_H100);
	g->node_devices = SL_NODE_DEVICES;
}

static int write_platform(struct plan *p, enum dl_topology t, int z)
{
	char *path = p->platform[t][z];
	struct dl_platgen g;
	FILE *f;
	int rc;

	if (path[0])
		return 0;
	snprintf(path, sizeof(p->platform[0][0]), "%s/%s-%d.xml", p->workdir, dl_topology_name(t),
		 sl_sizes[z]);
	platgen_of(t, sl_sizes[z], &g);
	if (dl_platgen_check(&g) || dl_cleanup_add_path(path))
		return -1;
	f = fopen(path, "w");
	if (!f)
		return dl_err("%s: %s", path, strerror(errno));
	rc = dl_platgen_write(&g, f);
	if (fclose(f) || rc)
		return rc ? -1 : dl_err("%s: write failed", path);
	return 0;
}

static int write_platforms(struct plan *p)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(p->workdir, sizeof(p->workdir), "%s/dlasim-llm.XXXXXX", tmp ? tmp : "/tmp");
	if (!mkdtemp(p->workdir))
		return dl_err("%s: cannot create a temporary directory: %s", CMD, strerror(errno));
	if (dl_cleanup_add_path(p->workdir))
		return -1;
	for (int m = 0; m < SL_MACHINES; m++)
		for (int z = 0; z < SL_SIZES; z++)
			if (p->size_on[z] && write_platform(p, sl_machines[m].topo, z))
				return -1;
	return 0;
}

static void remove_platforms(struct plan *p)
{
	for (int t = 0; t < DL_TOPOLOGIES; t++)
		for (int z = 0; z < SL_SIZES; z++)
			if (p->platform[t][z][0]) {
				unlink(p->platform[t][z]);
				dl_cleanup_forget_path(p->platform[t][z]);
			}
	if (p->workdir[0]) {
		rmdir(p->workdir);
		dl_cleanup_forget_path(p->workdir);
	}
}

/* ---- runs ---- */

static void run_cfg(const struct plan *p, const struct run *r, struct llm_cfg *cfg, char *wl,
		    size_t len)
{
	const struct sl_layout *l = p->s->cfg[r->cfg];
	const struct sl_machine_def *x = &sl_machines[r->machine];

	snprintf(wl, len, "%s/%s.llm", p->workloads, sl_model_names[l->model]);
	*cfg = (struct llm_cfg){
		.platform = p->platform[x->topo][size_index(l->devices)],
		.workload = wl,
		.device = SL_DEVICE,
		.par = { .tp = l->tp, .pp = l->pp, .dp = l->dp, .ep = l->ep,
			 .global_batch = l->dp * sl_microbatches(l), .micro_batch = 1,
			 .zero = l->zero, .recompute = LLM_RECOMPUTE_FULL },
		.device_memory = x->oracle ? INFINITY : p->device_memory,
		.offload = !x->oracle,
		.page_alloc = x->page_alloc,
	};
}

static int job(int index, FILE *out, void *arg)
{
	const struct plan *p = arg;
	char wl[PATH_MAX + 64];
	struct llm_cfg cfg;
	struct llm_model m;
	struct llm_result r;

	run_cfg(p, &p->runs[index], &cfg, wl, sizeof(wl));
	if (llm_model_read(&m, wl) || llm_run(&cfg, &m, &r))
		return 1;
	return fwrite(&r, sizeof(r), 1, out) == 1 ? 0 : 1;
}

/* The commands that repeat run `index`: the platform, then the run. */
static void describe(int index, void *arg, char *buf, size_t len)
{
	const struct plan *p = arg;
	const struct run *r = &p->runs[index];
	const struct sl_machine_def *x = &sl_machines[r->machine];
	char wl[PATH_MAX + 64], mem[32] = "inf";
	struct llm_cfg cfg;

	run_cfg(p, r, &cfg, wl, sizeof(wl));
	if (!x->oracle && cfg.device_memory > 0)
		dl_format_size(cfg.device_memory, mem, sizeof(mem));
	snprintf(buf, len,
		 "dlasim platform --topology %s --generation h100 --node-devices %d --devices %ld -o p.xml && "
		 "dlasim llm --platform p.xml --workload %s --device %s --tp %ld --pp %ld --dp %ld --ep %ld "
		 "--zero %d --global-batch %ld%s%s%s%s%s",
		 dl_topology_name(x->topo), SL_NODE_DEVICES, cfg.par.tp * cfg.par.pp * cfg.par.dp, wl,
		 SL_DEVICE, cfg.par.tp, cfg.par.pp, cfg.par.dp, cfg.par.ep, cfg.par.zero,
		 cfg.par.global_batch, cfg.offload ? " --offload" : "",
		 cfg.page_alloc ? " --page-alloc " : "", cfg.page_alloc ? cfg.page_alloc : "",
		 x->oracle || cfg.device_memory > 0 ? " --device-memory " : "",
		 x->oracle || cfg.device_memory > 0 ? mem : "");
}

static void plan_runs(struct plan *p)
{
	struct sl_study *s = p->s;

	for (int m = 0; m < SL_MODELS; m++)
		for (int z = 0; z < SL_SIZES; z++) {
			if (!p->model_on[m] || !p->size_on[z])
				continue;
			s->cfg[s->ncfg] = sl_layout_of(m, z);
			sl_label(sl_layout_of(m, z), s->label[s->ncfg], sizeof(s->label[0]));
			for (int x = 0; x < SL_MACHINES; x++)
				p->runs[p->nruns++] = (struct run){ s->ncfg, x };
			s->ncfg++;
		}
}

static void collect(struct plan *p, const struct dl_job_result *r)
{
	for (int i = 0; i < p->nruns; i++) {
		const struct llm_result *x = dl_job_data(&r[i]);
		const struct run *u = &p->runs[i];

		p->s->ok[u->cfg][u->machine] = x != NULL;
		if (x)
			p->s->res[u->cfg][u->machine] = *x;
	}
}

/* ---- options ---- */

static int parse_models(struct plan *p, const char *arg)
{
	char buf[256], *save = NULL;
	int n = 0;

	memset(p->model_on, 0, sizeof(p->model_on));
	snprintf(buf, sizeof(buf), "%s", arg);
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		int m = dl_str_index(sl_model_names, SL_MODELS, t);

		if (m < 0)
			return dl_bad_option(CMD, "--models", arg,
					     "not a list of gpt3-175b, llama3-70b, mixtral-8x7b, megatron-310.1b");
		p->model_on[m] = true;
		n++;
	}
	return n ? 0 : dl_bad_option(CMD, "--models", arg, "no model named");
}

static int parse_sizes(struct plan *p, const char *arg)
{
	char buf[128], *save = NULL;
	int n = 0;

	memset(p->size_on, 0, sizeof(p->size_on));
	snprintf(buf, sizeof(buf), "%s", arg);
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		long v;
		int z;

		if (dl_parse_int(t, 1, 1 << 20, &v) || (z = size_index((int)v)) < 0)
			return dl_bad_option(CMD, "--sizes", arg,
					     "not a list of 64, 256, 1024, 4096, 16384 (devices)");
		p->size_on[z] = true;
		n++;
	}
	return n ? 0 : dl_bad_option(CMD, "--sizes", arg, "no size named");
}

static int parse_memory(struct plan *p, const char *arg)
{
	const char *why = dl_parse_size(arg, &p->device_memory);

	if (!why && !(p->device_memory > 0))
		why = "not above 0";
	return why ? dl_bad_option(CMD, "--device-memory", arg, why) : 0;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: dlasim study llm [--json | --csv] [--plot DIR] [--models LIST] [--sizes LIST]\n"
		   "                        [--device-memory SIZE] [--workloads DIR] [--jobs N] [--timeout T]\n"
		   "  Transformer training on machines that differ only in their backing store:\n"
		   "  DC (host memory over PCIe), HC (Grace memory over NVLink-C2C), MC_LOCAL and\n"
		   "  MC_BW_AWARE (memory-nodes on the NVLink fabric), CXL (a CXL memory pool) and\n"
		   "  an oracle of unlimited device memory, every one with H100 devices\n"
		   "  (docs/llm.md, \"study llm\").\n"
		   "  --models LIST   of gpt3-175b, llama3-70b, mixtral-8x7b, megatron-310.1b\n"
		   "                  (default all)\n"
		   "  --sizes LIST    devices, of 64, 256, 1024, 4096, 16384 (default 64,1024)\n"
		   "  --device-memory SIZE  the HBM a device offers (default: the H100's 80 GB)\n"
		   "  --workloads DIR where the .llm files are (default: the shipped workloads/llm)\n"
		   "  --plot DIR      draw the figures as PNG and SVG with results.json (docs/figures.md)\n"
		   DL_JOBS_USAGE
		   "  --json, --csv   machine-readable output\n"
		   "  A run that fails is named with the command line that repeats it and shown\n"
		   "  as n/a; the study then exits 1.\n");
}

static int parse(struct plan *p, struct dl_jobs *jobs, int argc, char **argv, enum sl_format *f,
		 const char **dir, const char **plot_dir)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "csv", no_argument, NULL, 'c' },
		{ "models", required_argument, NULL, 'm' },
		{ "sizes", required_argument, NULL, 'z' },
		{ "device-memory", required_argument, NULL, 'M' },
		{ "workloads", required_argument, NULL, 'w' },
		{ "plot", required_argument, NULL, 'P' },
		DL_JOBS_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c, rc;

	while ((c = dl_getopt(argc, argv, CMD, NULL, opts)) != -1) {
		rc = dl_jobs_option(jobs, c, optarg);
		if (rc < 0)
			return DL_EXIT_USAGE;
		if (rc > 0)
			continue;
		switch (c) {
		case 'j': *f = SL_JSON; break;
		case 'c': *f = SL_CSV; break;
		case 'w': *dir = optarg; break;
		case 'P': *plot_dir = optarg; break;
		case 'm': if (parse_models(p, optarg)) return DL_EXIT_USAGE; break;
		case 'z': if (parse_sizes(p, optarg)) return DL_EXIT_USAGE; break;
		case 'M': if (parse_memory(p, optarg)) return DL_EXIT_USAGE; break;
		case 'h': usage(stdout); return -1;
		default: return DL_EXIT_USAGE;
		}
	}
	return dl_no_operands(argc, argv, CMD) ? DL_EXIT_USAGE : 0;
}

/* Every model read (and checked against its layouts) once here: a bad
 * file is one message, not one per run. */
static int check_workloads(struct plan *p, const char *given)
{
	char file[PATH_MAX + 64];

	if (given)
		snprintf(p->workloads, sizeof(p->workloads), "%s", given);
	else
		dl_data_dir("workloads/llm", p->workloads, sizeof(p->workloads));
	for (int m = 0; m < SL_MODELS; m++) {
		struct llm_model model;

		if (!p->model_on[m])
			continue;
		snprintf(file, sizeof(file), "%s/%s.llm", p->workloads, sl_model_names[m]);
		if (access(file, R_OK) != 0)
			return dl_err("%s: cannot read %s%s", CMD, file, given ? "" : "; give --workloads DIR");
		if (llm_model_read(&model, file))
			return -1;
		for (int z = 0; z < SL_SIZES; z++) {
			const struct sl_layout *l = sl_layout_of(m, z);
			struct llm_par c = { .tp = l->tp, .pp = l->pp, .dp = l->dp, .ep = l->ep,
					     .global_batch = l->dp * sl_microbatches(l),
					     .micro_batch = 1, .zero = l->zero };

			/* Its one line says what does not divide (docs/llm.md's
			 * table gives the layouts). */
			if (p->size_on[z] && llm_check_shape(&model, &c))
				return -1;
		}
	}
	return 0;
}

/* The device's HBM, for the memory figure (the device memory given). */
static int device_hbm(const struct plan *p, double *hbm)
{
	struct llm_device d;

	if (p->device_memory > 0)
		return *hbm = p->device_memory, 0;
	if (llm_device_open(&d, NULL, SL_DEVICE))
		return -1;
	*hbm = llm_device_capacity(&d);
	return 0;
}

static void name_reduction(const struct plan *p, struct sl_study *s)
{
	int n = 0;

	for (int m = 0; m < SL_MODELS; m++)
		if (!p->model_on[m])
			n += snprintf(s->reduced + n, sizeof(s->reduced) - n, "%s%s",
				      n ? ", " : "without ", sl_model_names[m]);
	if (p->device_memory > 0 && n < (int)sizeof(s->reduced)) {
		char mem[32];

		snprintf(s->reduced + n, sizeof(s->reduced) - n, "%sdevice memory %s",
			 n ? "; " : "", dl_format_size(p->device_memory, mem, sizeof(mem)));
	}
}

static void defaults(struct plan *p)
{
	for (int m = 0; m < SL_MODELS; m++)
		p->model_on[m] = true;
	for (size_t k = 0; k < sizeof(default_sizes) / sizeof(default_sizes[0]); k++)
		p->size_on[size_index(default_sizes[k])] = true;
}

static int run_study(struct plan *p, struct dl_jobs *jobs, enum sl_format f, const char *plot_dir)
{
	struct dl_job_result *r;
	int failed, ret = DL_EXIT_ERROR;

	r = calloc((size_t)p->nruns, sizeof(*r));
	if (!r)
		return dl_err("out of memory"), DL_EXIT_ERROR;
	jobs->count = p->nruns;
	failed = dl_jobs_run(jobs, r);
	if (failed >= 0) {
		int bad;

		collect(p, r);
		bad = sl_report(p->s, f, plot_dir);
		ret = dl_jobs_status(jobs, failed);
		if (ret == DL_EXIT_OK && (fflush(stdout) || bad))
			ret = DL_EXIT_ERROR;
	}
	dl_jobs_free(r, p->nruns);
	free(r);
	return ret;
}

int study_llm(int argc, char **argv)
{
	static struct sl_study s;
	static struct plan p;
	struct dl_jobs jobs = { .what = CMD, .run = job, .describe = describe, .arg = &p,
				.result_size = sizeof(struct llm_result) };
	const char *dir = NULL, *plot_dir = NULL;
	enum sl_format f = SL_HUMAN;
	int ret;

	memset(&s, 0, sizeof(s));
	memset(&p, 0, sizeof(p));
	p.s = &s;
	defaults(&p);
	ret = parse(&p, &jobs, argc, argv, &f, &dir, &plot_dir);
	if (ret)
		return ret < 0 ? DL_EXIT_OK : ret;
	if (check_workloads(&p, dir) || device_hbm(&p, &s.hbm) ||
	    (plot_dir && dl_plot_dir(plot_dir, "--plot")))
		return DL_EXIT_ERROR;
	name_reduction(&p, &s);
	plan_runs(&p);
	ret = DL_EXIT_ERROR;
	if (write_platforms(&p) == 0)
		ret = run_study(&p, &jobs, f, plot_dir);
	remove_platforms(&p);
	return ret;
}
