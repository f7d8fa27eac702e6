/* SPDX-License-Identifier: MIT */
/* dlasim llm: one training iteration of a transformer on a platform. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/args.h"
#include "lib/datadir.h"
#include "lib/diag.h"
#include "lib/units.h"
#include "machine/engine.h"
#include "coll/coll.h"
#include "results/csv.h"
#include "results/json.h"
#include "commands.h"
#include "config.h"
#include "offload.h"
#include "sim.h"

#define CMD "llm"

static const char *const llm_exts[] = { ".llm", NULL };

static void usage(FILE *f)
{
	fprintf(f,
		"usage: dlasim llm --workload MODEL --platform FILE --global-batch B\n"
		"                  [--tp T] [--pp P] [--dp D] [--ep E] [--micro-batch b]\n"
		"                  [--zero 0|1|2|3] [--recompute full|selective|none]\n"
		"                  [--sequence-parallel] [--device NAME|FILE] [--coll NAME|PATH]\n"
		"                  [--all-replicas] [--device-memory SIZE|inf] [--offload]\n"
		"                  [--page-alloc NAME|PATH] [--link-stats FILE] [--trace FILE]\n"
		"                  [--json | --csv]\n"
		"  --workload MODEL      transformer (.llm, docs/llm.md; a shipped one by name:\n"
		"                        gpt3-175b, megatron-1.7b ... megatron-1t, llama3-70b,\n"
		"                        mixtral-8x7b)\n"
		"  --platform FILE       SimGrid platform (see 'dlasim platform'); the run uses\n"
		"                        its first T x P x D devices\n"
		"  --global-batch B      sequences per iteration\n"
		"  --tp, --pp, --dp, --ep  tensor-, pipeline-, data-, expert-parallel degrees\n"
		"                        (default 1; experts spread over the data-parallel replicas)\n"
		"  --micro-batch b       sequences per micro-batch (default 1)\n"
		"  --zero S              ZeRO stage of the data-parallel optimizer (default 0)\n"
		"  --recompute MODE      activation recomputation (default full, as Megatron-LM's\n"
		"                        scaling table)\n"
		"  --sequence-parallel   Korthikanti et al.'s sequence parallelism (memory)\n"
		"  --device NAME|FILE    compute with this device description (a shipped one,\n"
		"                        'dlasim platform --list-devices', or a file; default:\n"
		"                        the platform's devices', docs/devices.md)\n"
		"  --all-replicas        simulate every data-parallel replica's pipeline, not\n"
		"                        representatives (a check of them; docs/llm.md)\n"
		"  --device-memory SIZE  device memory a stage must fit (default: the device\n"
		"                        description's HBM); inf: no limit (the oracle)\n"
		"  --offload             what does not fit goes to the platform's backing store\n"
		"                        (optimizer states, then activation checkpoints, then\n"
		"                        parameters; docs/llm.md, \"Offload\")\n"
		"  --page-alloc POLICY   page-allocation plugin of the offload: local (default),\n"
		"                        bw_aware, or a .so\n"
		"  --link-stats FILE     CSV of bytes moved and busy fraction per link of the\n"
		"                        simulated devices (as 'dlasim train'; docs/llm.md)\n"
		"  --coll ALGO           collective plugin of the all-reduces and gathers\n"
		"                        (default: ring_flow inside a node, else as 'dlasim train')\n"
		DL_ENGINE_USAGE
		"  --json                one JSON object instead of a table\n"
		"  --csv                 metric,value lines instead of a table\n");
}

enum format { TABLE, JSON, CSV };

struct row {
	const char *key, *label, *unit;
	double v;
};

/* Every number of the output, in order: table, JSON and CSV alike. */
static int rows(const struct llm_result *r, struct row *out)
{
	const struct row all[] = {
		{ "iteration_time_s", "iteration time", "s", r->iteration_s },
		{ "model_flops_per_device_s", "model FLOP/s per device", "FLOP/s", r->flops_per_device_s },
		{ "mfu", "model FLOPs utilization", "", r->mfu },
		{ "tokens_per_s", "tokens per second", "1/s", r->tokens_s },
		{ "compute_s", "compute", "s", r->compute_s },
		{ "tp_exposed_s", "tensor-parallel all-reduces", "s", r->tp_s },
		{ "pp_exposed_s", "pipeline transfers (exposed)", "s", r->pp_s },
		{ "bubble_s", "pipeline bubble", "s", r->bubble_s },
		{ "dp_exposed_s", "data-parallel gradients", "s", r->dp_s },
		{ "ep_exposed_s", "expert all-to-alls", "s", r->ep_s },
		{ "offload_s", "backing store (exposed)", "s", r->offload_s },
		{ "params_bytes", "memory: parameters", "B", r->mem.params },
		{ "grads_bytes", "memory: gradients", "B", r->mem.grads },
		{ "optimizer_bytes", "memory: optimizer states", "B", r->mem.optimizer },
		{ "activations_bytes", "memory: activations", "B", r->mem.activations },
		{ "memory_bytes", "memory per device", "B", r->mem.total },
		{ "offloaded_bytes", "memory: in the backing store", "B", r->offloaded_bytes },
		{ "device_memory_used_bytes", "memory: on the device", "B",
		  r->mem.total - r->offloaded_bytes },
		{ "offload_traffic_bytes", "backing-store traffic", "B", r->offload_traffic_bytes },
		{ "nvlink_bytes", "bytes on nvlink links", "B", r->class_bytes[DL_LINK_NVLINK] },
		{ "pcie_bytes", "bytes on pcie links", "B", r->class_bytes[DL_LINK_PCIE] },
		{ "dram_bytes", "bytes on dram links", "B", r->class_bytes[DL_LINK_DRAM] },
		{ "other_bytes", "bytes on other links", "B", r->class_bytes[DL_LINK_OTHER] },
	};
	int n = sizeof(all) / sizeof(all[0]);

	memcpy(out, all, sizeof(all));
	return n;
}

#define MAX_ROWS 32

static const char *recompute_name(enum llm_recompute m)
{
	return m == LLM_RECOMPUTE_FULL ? "full" : m == LLM_RECOMPUTE_SELECTIVE ? "selective" : "none";
}

static void print_json(const struct llm_cfg *cfg, const struct llm_model *m,
		       const struct llm_result *r)
{
	const struct llm_par *c = &cfg->par;
	struct row v[MAX_ROWS];
	int n = rows(r, v);
	struct dl_json j;

	dl_json_result_begin(&j, stdout);
	dl_json_str(&j, "workload", m->name);
	dl_json_str(&j, "platform", cfg->platform);
	dl_json_str(&j, "device", r->device);
	dl_json_str(&j, "dtype", llm_dtype_name(m->dtype));
	dl_json_int(&j, "devices", r->devices);
	dl_json_int(&j, "simulated_devices", r->simulated);
	dl_json_int(&j, "tp", c->tp);
	dl_json_int(&j, "pp", c->pp);
	dl_json_int(&j, "dp", c->dp);
	dl_json_int(&j, "ep", c->ep);
	dl_json_int(&j, "global_batch", c->global_batch);
	dl_json_int(&j, "micro_batch", c->micro_batch);
	dl_json_int(&j, "zero", c->zero);
	dl_json_str(&j, "recompute", recompute_name(c->recompute));
	dl_json_bool(&j, "sequence_parallel", c->seq_parallel);
	dl_json_str(&j, "coll_tp", r->coll_tp);
	dl_json_str(&j, "coll_dp", r->coll_dp);
	if (!(isfinite(r->device_memory) && r->device_memory > 0))
		dl_json_null(&j, "device_memory_bytes");
	else
		dl_json_bytes(&j, "device_memory_bytes", r->device_memory);
	dl_json_bool(&j, "offload", cfg->offload);
	dl_json_str(&j, "page_alloc", llm_offload_plugin(cfg));
	dl_json_num(&j, "model_flops", r->model_flops);
	for (int k = 0; k < n; k++)
		if (strcmp(v[k].unit, "B"))
			dl_json_num(&j, v[k].key, v[k].v);
		else
			dl_json_bytes(&j, v[k].key, v[k].v);
	dl_json_object_end(&j);
}

static void print_csv(const struct llm_result *r)
{
	struct row v[MAX_ROWS];
	int n = rows(r, v);

	printf("metric,value\n");
	for (int k = 0; k < n; k++)
		printf("%s,%.9g\n", v[k].key, v[k].v);
}

static const char *memory_name(const struct llm_result *r, char *buf, size_t len)
{
	if (isinf(r->device_memory))
		return "inf";
	if (!(r->device_memory > 0))
		return "not limited (the device gives no capacity)";
	snprintf(buf, len, "%.2f GB", r->device_memory / 1e9);
	return buf;
}

static void print_table(const struct llm_cfg *cfg, const struct llm_model *m,
			const struct llm_result *r)
{
	const struct llm_par *c = &cfg->par;
	struct row v[MAX_ROWS];
	int n = rows(r, v);
	char mem[32];

	printf("%s on %d %s devices (%s): tp %ld, pp %ld, dp %ld, ep %ld\n", m->name, r->devices,
	       r->device, cfg->platform, c->tp, c->pp, c->dp, c->ep);
	printf("  global batch %ld, micro-batch %ld (%ld per pipeline), ZeRO %d, recomputation %s;\n",
	       c->global_batch, c->micro_batch, llm_microbatches(m, c), c->zero,
	       recompute_name(c->recompute));
	printf("  %d devices simulated, the others their copies (docs/llm.md); collectives %s (tp), %s (dp)\n",
	       r->simulated, r->coll_tp, r->coll_dp);
	printf("  device memory %s; offload %s (page allocation %s)\n", memory_name(r, mem, sizeof(mem)),
	       cfg->offload ? "on" : "off", llm_offload_plugin(cfg));
	for (int k = 0; k < n; k++) {
		if (strcmp(v[k].unit, "B") == 0) {
			printf("  %-32s %14.3f GB\n", v[k].label, v[k].v / 1e9);
		} else {
			printf("  %-32s %14.6g %s\n", v[k].label, v[k].v, v[k].unit);
		}
	}
}

static int parse_long(const char *opt, const char *arg, long min, long max, long *v)
{
	const char *why = dl_parse_int(arg, min, max, v);

	return why ? dl_bad_option(CMD, opt, arg, why) : -1;
}

static int parse_memory(const char *arg, double *bytes)
{
	const char *why;

	if (strcmp(arg, "inf") == 0) {
		*bytes = INFINITY;
		return -1;
	}
	if ((why = dl_parse_size(arg, bytes)))
		return dl_bad_option(CMD, "--device-memory", arg, why);
	if (!(*bytes > 0))
		return dl_bad_option(CMD, "--device-memory", arg, "not above 0");
	return -1;
}

static int parse_recompute(const char *arg, enum llm_recompute *m)
{
	if (strcmp(arg, "full") == 0)
		*m = LLM_RECOMPUTE_FULL;
	else if (strcmp(arg, "selective") == 0)
		*m = LLM_RECOMPUTE_SELECTIVE;
	else if (strcmp(arg, "none") == 0)
		*m = LLM_RECOMPUTE_NONE;
	else
		return dl_bad_option(CMD, "--recompute", arg, "not full, selective or none");
	return -1;
}

#define MAX_DEGREE (1L << 24)

/* Returns -1 to go on, else an exit status. */
static int parse_option(int c, struct llm_cfg *cfg, enum format *fmt)
{
	struct llm_par *p = &cfg->par;
	long zero;
	int rc;

	switch (c) {
	case 'w': cfg->workload = optarg; return -1;
	case 'p': cfg->platform = optarg; return -1;
	case 'c': cfg->coll = optarg; return -1;
	case 'j': *fmt = JSON; return -1;
	case 'v': *fmt = CSV; return -1;
	case 'S': p->seq_parallel = true; return -1;
	case 'A': cfg->all_replicas = true; return -1;
	case 'T': return parse_long("--tp", optarg, 1, MAX_DEGREE, &p->tp);
	case 'P': return parse_long("--pp", optarg, 1, MAX_DEGREE, &p->pp);
	case 'D': return parse_long("--dp", optarg, 1, MAX_DEGREE, &p->dp);
	case 'E': return parse_long("--ep", optarg, 1, MAX_DEGREE, &p->ep);
	case 'B': return parse_long("--global-batch", optarg, 1, 1L << 30, &p->global_batch);
	case 'b': return parse_long("--micro-batch", optarg, 1, 1L << 30, &p->micro_batch);
	case 'Z':
		if ((rc = parse_long("--zero", optarg, 0, 3, &zero)) >= 0)
			return rc;
		p->zero = (int)zero;
		return -1;
	case 'R': return parse_recompute(optarg, &p->recompute);
	case 'd': cfg->device = optarg; return -1;
	case 'l': cfg->link_stats = optarg; return -1;
	case 'M': return parse_memory(optarg, &cfg->device_memory);
	case 'O': cfg->offload = true; return -1;
	case 'a': cfg->page_alloc = optarg; return -1;
	case DL_ENGINE_OPT_TRACE:
	case DL_ENGINE_OPT_CFG:
		return dl_engine_option(CMD, c, optarg);
	case 'h':
		usage(stdout);
		return DL_EXIT_OK;
	default:
		return DL_EXIT_USAGE;
	}
}

/* Everything that can be said before the platform is read (the device
 * and the device count are checked right after it). */
static int check(const struct llm_cfg *cfg, const struct llm_model *m)
{
	if (llm_check_shape(m, &cfg->par))
		return -1;
	if (cfg->coll && dl_coll_check(cfg->coll, "--coll"))
		return -1;
	return llm_offload_check_plugin(cfg);
}

int cmd_llm(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "workload", required_argument, NULL, 'w' },
		{ "platform", required_argument, NULL, 'p' },
		{ "tp", required_argument, NULL, 'T' },
		{ "pp", required_argument, NULL, 'P' },
		{ "dp", required_argument, NULL, 'D' },
		{ "ep", required_argument, NULL, 'E' },
		{ "global-batch", required_argument, NULL, 'B' },
		{ "micro-batch", required_argument, NULL, 'b' },
		{ "zero", required_argument, NULL, 'Z' },
		{ "recompute", required_argument, NULL, 'R' },
		{ "sequence-parallel", no_argument, NULL, 'S' },
		{ "all-replicas", no_argument, NULL, 'A' },
		{ "device", required_argument, NULL, 'd' },
		{ "coll", required_argument, NULL, 'c' },
		{ "link-stats", required_argument, NULL, 'l' },
		{ "device-memory", required_argument, NULL, 'M' },
		{ "offload", no_argument, NULL, 'O' },
		{ "page-alloc", required_argument, NULL, 'a' },
		{ "json", no_argument, NULL, 'j' },
		{ "csv", no_argument, NULL, 'v' },
		DL_ENGINE_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct llm_cfg cfg = {
		.par = { .tp = 1, .pp = 1, .dp = 1, .ep = 1, .micro_batch = 1,
			 .recompute = LLM_RECOMPUTE_FULL },
		.page_alloc = "local",
	};
	char pbuf[PATH_MAX], wbuf[PATH_MAX];
	enum format fmt = TABLE;
	struct llm_model m;
	struct llm_result r;
	int c, rc;

	while ((c = dl_getopt(argc, argv, CMD, NULL, opts)) != -1)
		if ((rc = parse_option(c, &cfg, &fmt)) >= 0)
			return rc;
	if (dl_no_operands(argc, argv, CMD))
		return DL_EXIT_USAGE;
	if (!cfg.platform || !cfg.workload || !cfg.par.global_batch) {
		dl_err("%s: --workload, --platform and --global-batch are required (see 'dlasim llm --help')",
		       CMD);
		return DL_EXIT_USAGE;
	}
	cfg.platform = dl_data_find("platforms", cfg.platform, dl_platform_exts, pbuf, sizeof(pbuf));
	cfg.workload = dl_data_find("workloads", cfg.workload, llm_exts, wbuf, sizeof(wbuf));
	if (llm_model_read(&m, cfg.workload) || check(&cfg, &m) || llm_run(&cfg, &m, &r))
		return DL_EXIT_ERROR;
	if (fmt == JSON)
		print_json(&cfg, &m, &r);
	else if (fmt == CSV)
		print_csv(&r);
	else
		print_table(&cfg, &m, &r);
	return DL_EXIT_OK;
}
