/* SPDX-License-Identifier: MIT */
/* dlasim train: one training iteration of a workload on a platform. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/args.h"
#include "lib/datadir.h"
#include "lib/diag.h"
#include "machine/engine.h"
#include "results/json.h"
#include "lib/units.h"
#include "chakra_run.h"
#include "commands.h"
#include "train.h"

#define CMD "train"
#define DEFAULT_DEVICE_MEMORY 16e9	/* Section IV: 16 GB of HBM */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: dlasim train --platform FILE --workload FILE [--batch B]\n"
		"                    [--parallel data|model] [--page-alloc NAME|PATH]\n"
		"                    [--coll NAME|PATH] [--device-memory SIZE|inf]\n"
		"                    [--page-size SIZE] [--device NAME|FILE]\n"
		"                    [--overlay-compression R] [--overlay all|spill]\n"
		"                    [--dx-collective allreduce|reducescatter]\n"
		"                    [--dtype fp32|bf16|fp16|fp8] [--link-stats FILE] [--trace FILE]\n"
		"                    [--cfg NAME:VALUE] [--json]\n"
		"  --platform FILE       SimGrid platform (see 'dlasim platform'), or the name\n"
		"                        of a shipped one (dc-8, mc-ring-8, ...)\n"
		"  --workload FILE       network description (.dnn, docs/workloads.md; a shipped\n"
		"                        one by name: alexnet, vgg-e, ...), a SCALE-Sim\n"
		"                        topology .csv (conv or GEMM form), or a\n"
		"                        Chakra execution trace: FILE.et for every device, or\n"
		"                        a directory of NAME.RANK.et (docs/chakra.md)\n"
		"  --batch B             global batch size (default 512)\n"
		"  --parallel MODE       data (default) or model (Krizhevsky's scheme)\n"
		"  --page-alloc POLICY   page-allocation plugin: local (default), bw_aware, or a .so\n"
		"  --coll ALGO           collective plugin (default: hier on scale-out platforms,\n"
		"                        ring_flow above 64 devices, else ring; rings run\n"
		"                        both ways, bidir=1, on full-duplex links)\n"
		"  --device-memory SIZE  device memory (default 16GB); inf: no memory\n"
		"                        overlaying (the oracle DC-DLA(O) on a dc platform)\n"
		"  --page-size SIZE      page size of remote allocations (default 64KiB)\n"
		"  --device NAME|FILE    device description for every device (docs/devices.md:\n"
		"                        table2, tpuv2, h100-sxm, ...; default: the platform's)\n"
		"  --overlay-compression R  the DMA engines store and move feature maps\n"
		"                        compressed R:1 (cDMA; default 1)\n"
		"  --overlay POLICY      all: every kept feature map goes to the backing\n"
		"                        store and back (Section IV, default); spill: only\n"
		"                        what does not fit in device memory leaves\n"
		"  --dx-collective OP    model-parallel input gradients: allreduce (Figure 4,\n"
		"                        default) or reducescatter (each device's split)\n"
		"  --dtype T             a Chakra trace's compute nodes all in type T (default:\n"
		"                        each node's dtype attribute, else fp32; docs/chakra.md)\n"
		"  --link-stats FILE     CSV of bytes moved and busy fraction per link\n"
		DL_ENGINE_USAGE
		"  --json                one JSON object instead of a table\n");
}

static const char *const class_key[DL_LINK_CLASSES] = {
	[DL_LINK_OTHER] = "other_bytes", [DL_LINK_NVLINK] = "nvlink_bytes",
	[DL_LINK_PCIE] = "pcie_bytes", [DL_LINK_DRAM] = "dram_bytes",
};

/* A Chakra trace fixes its own batch and parallelism. */
static const char *parallel_name(const struct mc_train_cfg *cfg, bool trace)
{
	return trace ? "trace" : cfg->mode == MC_DATA_PARALLEL ? "data" : "model";
}

static void print_json(const struct mc_train_cfg *cfg, const struct mc_train_result *r, bool trace)
{
	struct dl_json j;

	dl_json_result_begin(&j, stdout);
	dl_json_str(&j, "workload", r->workload);
	dl_json_str(&j, "workload_format", r->workload_format);
	dl_json_str(&j, "platform", cfg->platform);
	dl_json_int(&j, "devices", r->devices);
	if (trace)
		dl_json_null(&j, "batch");
	else
		dl_json_num(&j, "batch", cfg->batch);
	dl_json_str(&j, "parallel", parallel_name(cfg, trace));
	dl_json_str(&j, "page_alloc", mc_train_overlays(cfg) ? cfg->page_alloc : "none");
	dl_json_str(&j, "coll", r->coll);
	dl_json_str(&j, "device", r->device);
	dl_json_num(&j, "overlay_compression", cfg->compression > 0 ? cfg->compression : 1);
	dl_json_str(&j, "overlay", cfg->overlay_spill ? "spill" : "all");
	dl_json_str(&j, "dx_collective", cfg->dx_reduce_scatter ? "reducescatter" : "allreduce");
	if (isinf(cfg->device_memory))
		dl_json_null(&j, "device_memory_bytes");
	else
		dl_json_num(&j, "device_memory_bytes", cfg->device_memory);
	dl_json_num(&j, "iteration_time_s", r->iteration_s);
	dl_json_num(&j, "compute_s", r->compute_s);
	dl_json_num(&j, "sync_s", r->sync_s);
	dl_json_num(&j, "sync_exposed_s", r->sync_exposed_s);
	dl_json_num(&j, "sync_wait_s", r->sync_wait_s);
	dl_json_num(&j, "virt_s", r->virt_s);
	dl_json_num(&j, "virt_exposed_s", r->virt_exposed_s);
	dl_json_bytes(&j, "offload_bytes", r->offload_bytes);
	dl_json_bytes(&j, "prefetch_bytes", r->prefetch_bytes);
	dl_json_num(&j, "cpu_mem_bw_avg_Bps", r->cpu_mem_bw_avg_Bps);
	dl_json_num(&j, "cpu_mem_bw_max_Bps", r->cpu_mem_bw_max_Bps);
	dl_json_num(&j, "cpu_mem_bw_window_s", r->cpu_mem_bw_window_s);
	dl_json_num(&j, "memory_node_tdp_w", r->memory_node_tdp_w);
	dl_json_num(&j, "system_power_w", r->system_power_w);
	dl_json_object_begin(&j, "link_class_bytes");
	for (int c = 0; c < DL_LINK_CLASSES; c++)
		dl_json_bytes(&j, class_key[c], r->class_bytes[c]);
	dl_json_object_end(&j);
	dl_json_object_end(&j);
}

static void print_table(const struct mc_train_cfg *cfg, const struct mc_train_result *r, bool trace)
{
	char mem[32];

	if (trace)
		printf("%s, Chakra trace on %d devices (%s)\n", r->workload, r->devices, cfg->platform);
	else
		printf("%s, %s-parallel, batch %.0f on %d devices (%s)\n", r->workload,
		       parallel_name(cfg, trace), cfg->batch, r->devices, cfg->platform);
	printf("  device memory %s, page allocation %s, collectives %s\n",
	       isinf(cfg->device_memory) ? "inf" : dl_format_size(cfg->device_memory, mem, sizeof(mem)),
	       mc_train_overlays(cfg) ? cfg->page_alloc : "none", r->coll);
	/* Each line says what it counts: "exposed" time can exceed the
	 * communication itself, as it includes waiting for peers. */
	printf("  %-28s %12.6f s  last device's end\n", "iteration time", r->iteration_s);
	printf("  %-28s %12.6f s  mean per device\n", "computation", r->compute_s);
	printf("  %-28s %12.6f s  collectives, last arrival to end (mean per device)\n",
	       "synchronization", r->sync_s);
	printf("  %-28s %12.6f s  before the last device arrives (mean per device)\n",
	       "waiting for peers", r->sync_wait_s);
	printf("  %-28s %12.6f s  exposed: compute waiting on both lines above\n",
	       "  compute stalled on them", r->sync_exposed_s);
	printf("  %-28s %12.6f s  offload and prefetch DMAs running (mean per device)\n",
	       "memory virtualization", r->virt_s);
	printf("  %-28s %12.6f s  exposed: compute waiting on DMAs\n", "  compute stalled on it",
	       r->virt_exposed_s);
	printf("  %-28s %12.3f GB/s (max %.3f GB/s in %.3g s windows)\n",
	       "CPU memory bandwidth, mean", r->cpu_mem_bw_avg_Bps / 1e9,
	       r->cpu_mem_bw_max_Bps / 1e9, r->cpu_mem_bw_window_s);
	printf("  %-28s %12.1f W (memory-nodes %.1f W)\n", "system power (TDP)", r->system_power_w,
	       r->memory_node_tdp_w);
	printf("  %-28s nvlink %.0f, pcie %.0f, dram %.0f, other %.0f\n", "bytes per link class",
	       r->class_bytes[DL_LINK_NVLINK], r->class_bytes[DL_LINK_PCIE],
	       r->class_bytes[DL_LINK_DRAM], r->class_bytes[DL_LINK_OTHER]);
}

/* --device names a readable description (its type is checked in the run). */
static int check_device(const char *name)
{
	struct dl_devdesc d;
	struct dl_props props;

	if (dl_devfile_read(name, &props, NULL, &d))
		return -1;
	dl_devfile_free(&props);
	return 0;
}

static int parse_memory(const char *s, double *bytes)
{
	const char *why;

	if (strcmp(s, "inf") == 0) {
		*bytes = INFINITY;
		return 0;
	}
	if ((why = dl_parse_size(s, bytes)))
		return dl_bad_option(CMD, "--device-memory", s, why);
	return 0;
}

/* Returns -1 to go on, else an exit status.  `fixed` names an option a
 * Chakra trace fixes itself, when given. */
static int parse_option(int c, struct mc_train_cfg *cfg, bool *json, const char **fixed)
{
	const char *why;
	long batch;

	switch (c) {
	case 'p': cfg->platform = optarg; return -1;
	case 'w': cfg->workload = optarg; return -1;
	case 'a': cfg->page_alloc = optarg; return -1;
	case 'c': cfg->coll = optarg; return -1;
	case 'l': cfg->link_stats = optarg; return -1;
	case 'j': *json = true; return -1;
	case 'b':
		*fixed = "--batch";
		if ((why = dl_parse_int(optarg, 1, 1L << 30, &batch)))
			return dl_bad_option(CMD, "--batch", optarg, why);
		cfg->batch = (double)batch;
		return -1;
	case 'm':
		*fixed = "--parallel";
		if (strcmp(optarg, "data") && strcmp(optarg, "model"))
			return dl_bad_option(CMD, "--parallel", optarg, "not 'data' or 'model'");
		cfg->mode = optarg[0] == 'd' ? MC_DATA_PARALLEL : MC_MODEL_PARALLEL;
		return -1;
	case 'd':
		return parse_memory(optarg, &cfg->device_memory) ? DL_EXIT_USAGE : -1;
	case 's':
		if ((why = dl_parse_size(optarg, &cfg->page_bytes)))
			return dl_bad_option(CMD, "--page-size", optarg, why);
		return -1;
	case 'D':
		if (check_device(optarg))
			return DL_EXIT_USAGE;
		cfg->device = optarg;
		return -1;
	case 'z':
		if ((why = dl_parse_number(optarg, 0, &cfg->compression)))
			return dl_bad_option(CMD, "--overlay-compression", optarg, why);
		if (!(cfg->compression >= 1 && cfg->compression <= 1e6))
			return dl_bad_option(CMD, "--overlay-compression", optarg,
					     "a ratio from 1 to 1000000");
		return -1;
	case 'O':
		*fixed = "--overlay";
		if (strcmp(optarg, "all") && strcmp(optarg, "spill"))
			return dl_bad_option(CMD, "--overlay", optarg, "not 'all' or 'spill'");
		cfg->overlay_spill = optarg[0] == 's';
		return -1;
	case 'X':
		*fixed = "--dx-collective";
		if (strcmp(optarg, "allreduce") && strcmp(optarg, "reducescatter"))
			return dl_bad_option(CMD, "--dx-collective", optarg,
					     "not 'allreduce' or 'reducescatter'");
		cfg->dx_reduce_scatter = optarg[0] == 'r';
		return -1;
	case 'T':
		if (dl_dtype_parse(optarg, &cfg->dtype))
			return dl_bad_option(CMD, "--dtype", optarg, "not fp32, bf16, fp16 or fp8");
		cfg->dtype_set = true;
		return -1;
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

int cmd_train(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "platform", required_argument, NULL, 'p' },
		{ "workload", required_argument, NULL, 'w' },
		{ "batch", required_argument, NULL, 'b' },
		{ "parallel", required_argument, NULL, 'm' },
		{ "page-alloc", required_argument, NULL, 'a' },
		{ "coll", required_argument, NULL, 'c' },
		{ "device-memory", required_argument, NULL, 'd' },
		{ "page-size", required_argument, NULL, 's' },
		{ "link-stats", required_argument, NULL, 'l' },
		{ "device", required_argument, NULL, 'D' },
		{ "overlay-compression", required_argument, NULL, 'z' },
		{ "overlay", required_argument, NULL, 'O' },
		{ "dx-collective", required_argument, NULL, 'X' },
		{ "dtype", required_argument, NULL, 'T' },
		{ "json", no_argument, NULL, 'j' },
		DL_ENGINE_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct mc_train_cfg cfg = {
		.page_alloc = "local", .coll = NULL, .batch = 512, .mode = MC_DATA_PARALLEL,
		.device_memory = DEFAULT_DEVICE_MEMORY, .page_bytes = MC_DEFAULT_PAGE_BYTES,
	};
	struct mc_train_result r;
	const char *fixed = NULL;
	char pbuf[PATH_MAX], wbuf[PATH_MAX];
	bool json = false, trace;
	int c, rc;

	while ((c = dl_getopt(argc, argv, CMD, NULL, opts)) != -1)
		if ((rc = parse_option(c, &cfg, &json, &fixed)) >= 0)
			return rc;
	if (optind < argc) {
		dl_err("%s: unexpected argument '%s'", CMD, argv[optind]);
		return DL_EXIT_USAGE;
	}
	if (!cfg.platform || !cfg.workload) {
		dl_err("%s: --platform and --workload are required (see 'dlasim train --help')", CMD);
		return DL_EXIT_USAGE;
	}
	cfg.platform = dl_data_find("platforms", cfg.platform, dl_platform_exts, pbuf, sizeof(pbuf));
	cfg.workload = dl_data_find("workloads", cfg.workload, dl_workload_exts, wbuf, sizeof(wbuf));
	trace = mc_et_is_trace(cfg.workload);
	if (trace && fixed) {
		dl_err("%s: %s: the Chakra trace %s fixes its own batch, parallelism and overlaying", CMD, fixed,
		       cfg.workload);
		return DL_EXIT_USAGE;
	}
	if (!trace && cfg.dtype_set) {
		dl_err("%s: --dtype: %s is no Chakra trace (a network description names its own type)",
		       CMD, cfg.workload);
		return DL_EXIT_USAGE;
	}
	if (trace ? mc_chakra_run(&cfg, &r) : mc_train_run(&cfg, &r))
		return DL_EXIT_ERROR;
	if (json)
		print_json(&cfg, &r, trace);
	else
		print_table(&cfg, &r, trace);
	return DL_EXIT_OK;
}
