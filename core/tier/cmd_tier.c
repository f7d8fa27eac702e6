/* SPDX-License-Identifier: MIT */
/* dlasim tier: one training iteration of a workload on an NPU with HBM and
 * flash tiers, under a tier-placement plugin. */
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/args.h"
#include "lib/datadir.h"
#include "lib/diag.h"
#include "machine/engine.h"
#include "results/json.h"
#include "lib/units.h"
#include "commands.h"
#include "tmgraph/npu.h"
#include "npu_platform.h"
#include "run.h"

#define CMD "tier"
#define MAX_BATCH_SCALE 1024.0
#define MAX_BW_SCALE 1e6

static void usage(FILE *f)
{
	fprintf(f,
		"usage: dlasim tier --workload FILE --policy NAME|PATH.so [--tier1-ratio R]\n"
		"                   [--batch-scale K] [--tier2-bw-scale F] [--platform FILE]\n"
		"                   [--online-only] [--monitor FILE] [--trace FILE] [--cfg NAME:VALUE]\n"
		"                   [--json]\n"
		"  --workload FILE      model and parallelism (workloads/tm/*.tm, or its name: gpt3)\n"
		"  --policy NAME        tier-placement plugin: hbm_only, hor_on, hor_off, ver_on,\n"
		"                       ver_off, sentinel, autotm, deeptm, tm_training,\n"
		"                       tm_training_off, ideal, or a path to a .so (':options')\n"
		"  --tier1-ratio R      tier-1 size to model size, R:1 (default 25 = 12.5%% of\n"
		"                       the 32 GiB per chip; 100 = 50%%)\n"
		"  --batch-scale K      multiply the batch and the address space by K\n"
		"                       (1/1024 to 1024, default 1)\n"
		"  --tier2-bw-scale F   multiply the flash bandwidth by F (1e-6 to 1e6, default 1)\n"
		"  --platform FILE      SimGrid platform instead of the built-in npu platform\n"
		"  --npu-device NAME|FILE  the built-in platform's NPU from a device description\n"
		"                       (docs/devices.md: its bf16 peak and HBM bandwidth)\n"
		"  --online-only        a policy that does not declare DLASIM_TIER_OFFLINE sees\n"
		"                       only the past and the present (as in study tm)\n"
		"  --monitor FILE       the request timing monitor's records, CSV ('-': stdout)\n"
		"  --print-platform A   print the built-in platform (horizontal or vertical)\n"
		DL_ENGINE_USAGE
		"  --json               one JSON object instead of a table\n");
}

/*
 * The numbers of a result, in output order: every one goes to JSON, those
 * marked `shown` to the human table too.
 */
struct field {
	const char *key;
	size_t offset;
	bool is_int;
	bool whole;		/* a count held as a double: bytes, walks */
	bool shown;
	const char *note;	/* after the value in the table */
};

#define NUM(name, shown) { #name, offsetof(struct tier_result, name), false, false, shown, "" }
#define INT(name) { #name, offsetof(struct tier_result, name), true, false, false, "" }
/* Sums of shares (bytes moved, page walks estimated per byte) are counts:
 * printed to the unit. */
#define CNT(name, shown) { #name, offsetof(struct tier_result, name), false, true, shown, "" }

static const struct field fields[] = {
	NUM(tier1_ratio, false), NUM(batch_scale, false), NUM(tier2_bw_scale, false),
	CNT(address_space_bytes, false), CNT(tier1_capacity_bytes, false),
	CNT(tier2_capacity_bytes, false), NUM(params, false), NUM(samples, false),
	INT(ops), INT(tensors),
	CNT(peak_bytes, false), CNT(data_bytes, false), CNT(traffic_bytes, false),
	CNT(network_bytes, false), INT(recomputed_layers), INT(weights_sharded),
	NUM(iteration_time_s, true), NUM(compute_s, false), NUM(stall_s, true),
	NUM(stall_share, false),
	CNT(migration_bytes, true), CNT(promoted_bytes, false), CNT(demoted_bytes, false),
	CNT(tier1_read_bytes, false), CNT(tier2_read_bytes, true),
	CNT(tier1_write_bytes, false), CNT(tier2_write_bytes, true),
	NUM(energy_j, true), NUM(energy_migration_j, true), NUM(energy_prefetch_j, true),
	NUM(energy_static_j, true), NUM(energy_sram_j, true), NUM(energy_mac_j, true),
	NUM(energy_idle_j, true), NUM(energy_iommu_j, true), CNT(iommu_walks, false),
	NUM(memory_cost_ratio, false),
	NUM(throughput_samples_per_s, true),
	{ "throughput_per_watt", offsetof(struct tier_result, throughput_per_watt), false, false,
	  true, " (samples/J)" },
	NUM(floor_time_s, false), CNT(floor_flash_read_bytes, false),
	CNT(floor_flash_write_bytes, false), NUM(floor_energy_j, false),
	NUM(floor_throughput_per_watt, false),
};

#define NFIELDS (sizeof(fields) / sizeof(fields[0]))

static double field_value(const struct tier_result *r, const struct field *f)
{
	const char *base = (const char *)r + f->offset;

	return f->is_int ? *(const int *)base : *(const double *)base;
}

static void print_json(const struct tier_result *r)
{
	static const char *const arr[] = { "hbm-only", "horizontal", "vertical" };
	struct dl_json j;

	dl_json_result_begin(&j, stdout);
	dl_json_str(&j, "workload", r->workload);
	dl_json_str(&j, "policy", r->policy);
	dl_json_str(&j, "arrangement", arr[r->arrangement]);
	for (size_t i = 0; i < NFIELDS; i++) {
		if (fields[i].is_int)
			dl_json_int(&j, fields[i].key, (long long)field_value(r, &fields[i]));
		else if (fields[i].whole)
			dl_json_bytes(&j, fields[i].key, field_value(r, &fields[i]));
		else
			dl_json_num(&j, fields[i].key, field_value(r, &fields[i]));
	}
	dl_json_object_end(&j);
}

static void print_table(const struct tier_result *r)
{
	printf("%s under %s: tier 1 %.3g GiB (%g:1), tier 2 %.3g GiB\n", r->workload, r->policy,
	       r->tier1_capacity_bytes / GIB, r->tier1_ratio, r->tier2_capacity_bytes / GIB);
	for (size_t i = 0; i < NFIELDS; i++)
		if (fields[i].shown && fields[i].whole)
			printf("  %-28s %14.0f%s\n", fields[i].key, field_value(r, &fields[i]),
			       fields[i].note);
		else if (fields[i].shown)
			printf("  %-28s %14.6g%s\n", fields[i].key, field_value(r, &fields[i]),
			       fields[i].note);
}

static int print_platform(const char *which)
{
	if (strcmp(which, "horizontal") == 0)
		fputs(npu_platform_xml(DLASIM_TIER_HORIZONTAL), stdout);
	else if (strcmp(which, "vertical") == 0)
		fputs(npu_platform_xml(DLASIM_TIER_VERTICAL), stdout);
	else
		return dl_bad_option(CMD, "--print-platform", which, "not horizontal or vertical");
	return DL_EXIT_OK;
}

/* R or R:1. */
static const char *parse_ratio(const char *s, double *r)
{
	char buf[64];
	char *colon;

	snprintf(buf, sizeof(buf), "%s", s);
	colon = strchr(buf, ':');
	if (colon) {
		if (strcmp(colon, ":1") != 0)
			return "not R or R:1";
		*colon = '\0';
	}
	if (dl_parse_number(buf, -INFINITY, r) || !isfinite(*r))
		return "not a number";
	if (*r <= 0)
		return "a tier-1 ratio must be > 0";
	return NULL;
}

/* A scale factor in (0, max]: beyond it the address space or a link's
 * bandwidth stops being a number SimGrid computes with. */
static int scale(const char *opt, const char *s, double max, double *v)
{
	const char *why = dl_parse_number(s, 0, v);
	char range[64];

	if (!why && !(*v > 0))
		why = "must be > 0";
	if (!why && (*v > max || *v < 1 / max)) {
		snprintf(range, sizeof(range), "out of range (%g to %g)", 1 / max, max);
		why = range;
	}
	return why ? dl_bad_option(CMD, opt, s, why) : 0;
}

int cmd_tier(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "workload", required_argument, NULL, 'w' },
		{ "policy", required_argument, NULL, 'p' },
		{ "tier1-ratio", required_argument, NULL, 'r' },
		{ "batch-scale", required_argument, NULL, 'b' },
		{ "tier2-bw-scale", required_argument, NULL, 'f' },
		{ "platform", required_argument, NULL, 'P' },
		{ "npu-device", required_argument, NULL, 'N' },
		{ "print-platform", required_argument, NULL, 'X' },
		{ "online-only", no_argument, NULL, 'o' },
		{ "monitor", required_argument, NULL, 'm' },
		{ "json", no_argument, NULL, 'j' },
		DL_ENGINE_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct tier_config cfg = { .tier1_ratio = 25, .batch_scale = 1, .tier2_bw_scale = 1 };
	struct tier_result res;
	char pbuf[PATH_MAX], wbuf[PATH_MAX];
	const char *why;
	bool json = false;
	int c, rc;

	while ((c = dl_getopt(argc, argv, CMD, NULL, opts)) != -1) {
		switch (c) {
		case 'w': cfg.workload = optarg; break;
		case 'p': cfg.policy = optarg; break;
		case 'P': cfg.platform = optarg; break;
		case 'N': cfg.npu_device = optarg; break;
		case 'j': json = true; break;
		case 'o': cfg.online_only = true; break;
		case 'm': cfg.monitor = optarg; break;
		case 'X': return print_platform(optarg);
		case 'r':
			if ((why = parse_ratio(optarg, &cfg.tier1_ratio)))
				return dl_bad_option(CMD, "--tier1-ratio", optarg, why);
			break;
		case 'b':
			if (scale("--batch-scale", optarg, MAX_BATCH_SCALE, &cfg.batch_scale))
				return DL_EXIT_USAGE;
			break;
		case 'f':
			if (scale("--tier2-bw-scale", optarg, MAX_BW_SCALE, &cfg.tier2_bw_scale))
				return DL_EXIT_USAGE;
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
	if (optind < argc) {
		dl_err("%s: unexpected argument '%s'", CMD, argv[optind]);
		return DL_EXIT_USAGE;
	}
	if (!cfg.workload || !cfg.policy) {
		dl_err("%s: --workload and --policy are required (see 'dlasim tier --help')", CMD);
		return DL_EXIT_USAGE;
	}
	cfg.workload = dl_data_find("workloads", cfg.workload, dl_workload_exts, wbuf, sizeof(wbuf));
	if (cfg.platform)
		cfg.platform = dl_data_find("platforms", cfg.platform, dl_platform_exts, pbuf,
					    sizeof(pbuf));
	if (tier_run(&cfg, &res))
		return DL_EXIT_ERROR;
	/* A policy that keeps the MXUs waiting longer than they compute. */
	if (res.stall_share > 0.5)
		dl_warn("policy %s kept the MXUs waiting %.0f%% of the iteration (%.3g s of %.3g s; their work takes %.3g s)",
			res.policy, 100 * res.stall_share, res.stall_s, res.iteration_time_s,
			res.compute_s);
	if (json)
		print_json(&res);
	else
		print_table(&res);
	return DL_EXIT_OK;
}
