/* SPDX-License-Identifier: MIT */
/* dlasim tier: one training iteration of a workload on an NPU with HBM and
 * flash tiers, under a tier-placement plugin. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "diag.h"
#include "json.h"
#include "npu.h"
#include "run.h"
#include "units.h"

#define CMD "tier"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: dlasim tier --workload FILE --policy NAME|PATH.so [--tier1-ratio R]\n"
		"                   [--batch-scale K] [--tier2-bw-scale F] [--platform FILE] [--json]\n"
		"  --workload FILE      model and parallelism (workloads/tm/*.tm)\n"
		"  --policy NAME        tier-placement plugin: hbm_only, hor_on, hor_off, ver_on,\n"
		"                       ver_off, sentinel, autotm, deeptm, tm_training,\n"
		"                       tm_training_off, ideal, or a path to a .so (':options')\n"
		"  --tier1-ratio R      tier-1 size to model size, R:1 (default 25 = 12.5%% of\n"
		"                       the 32 GiB per chip; 100 = 50%%)\n"
		"  --batch-scale K      multiply the batch and the address space by K (default 1)\n"
		"  --tier2-bw-scale F   multiply the flash bandwidth by F (default 1)\n"
		"  --platform FILE      SimGrid platform instead of the built-in npu platform\n"
		"  --print-platform A   print the built-in platform (horizontal or vertical)\n"
		"  --json               one JSON object instead of a table\n");
}

static void print_json(const struct tier_result *r)
{
	static const char *const arr[] = { "hbm-only", "horizontal", "vertical" };
	struct dl_json j;

	dl_json_init(&j, stdout);
	dl_json_object_begin(&j, NULL);
	dl_json_str(&j, "workload", r->workload);
	dl_json_str(&j, "policy", r->policy);
	dl_json_str(&j, "arrangement", arr[r->arrangement]);
	dl_json_num(&j, "tier1_ratio", r->tier1_ratio);
	dl_json_num(&j, "batch_scale", r->batch_scale);
	dl_json_num(&j, "tier2_bw_scale", r->tier2_bw_scale);
	dl_json_num(&j, "address_space_bytes", r->address_space_bytes);
	dl_json_num(&j, "tier1_capacity_bytes", r->tier1_capacity_bytes);
	dl_json_num(&j, "tier2_capacity_bytes", r->tier2_capacity_bytes);
	dl_json_num(&j, "params", r->params);
	dl_json_num(&j, "samples", r->samples);
	dl_json_int(&j, "ops", r->ops);
	dl_json_int(&j, "tensors", r->tensors);
	dl_json_num(&j, "peak_bytes", r->peak_bytes);
	dl_json_num(&j, "data_bytes", r->data_bytes);
	dl_json_num(&j, "traffic_bytes", r->traffic_bytes);
	dl_json_num(&j, "iteration_time_s", r->iteration_time_s);
	dl_json_num(&j, "compute_s", r->compute_s);
	dl_json_num(&j, "stall_s", r->stall_s);
	dl_json_num(&j, "migration_bytes", r->migration_bytes);
	dl_json_num(&j, "promoted_bytes", r->promoted_bytes);
	dl_json_num(&j, "demoted_bytes", r->demoted_bytes);
	dl_json_num(&j, "tier1_read_bytes", r->tier1_read_bytes);
	dl_json_num(&j, "tier2_read_bytes", r->tier2_read_bytes);
	dl_json_num(&j, "tier1_write_bytes", r->tier1_write_bytes);
	dl_json_num(&j, "tier2_write_bytes", r->tier2_write_bytes);
	dl_json_num(&j, "energy_j", r->energy_j);
	dl_json_num(&j, "energy_migration_j", r->energy_migration_j);
	dl_json_num(&j, "energy_prefetch_j", r->energy_prefetch_j);
	dl_json_num(&j, "energy_static_j", r->energy_static_j);
	dl_json_num(&j, "energy_sram_j", r->energy_sram_j);
	dl_json_num(&j, "energy_mac_j", r->energy_mac_j);
	dl_json_num(&j, "throughput_samples_per_s", r->throughput_samples_per_s);
	dl_json_num(&j, "throughput_per_watt", r->throughput_per_watt);
	dl_json_object_end(&j);
}

static void print_table(const struct tier_result *r)
{
	printf("%s under %s: tier 1 %.3g GiB (%g:1), tier 2 %.3g GiB\n", r->workload, r->policy,
	       r->tier1_capacity_bytes / GIB, r->tier1_ratio, r->tier2_capacity_bytes / GIB);
	printf("  %-28s %14.6g\n", "iteration_time_s", r->iteration_time_s);
	printf("  %-28s %14.6g\n", "stall_s", r->stall_s);
	printf("  %-28s %14.6g\n", "migration_bytes", r->migration_bytes);
	printf("  %-28s %14.6g\n", "tier2_read_bytes", r->tier2_read_bytes);
	printf("  %-28s %14.6g\n", "tier2_write_bytes", r->tier2_write_bytes);
	printf("  %-28s %14.6g\n", "energy_j", r->energy_j);
	printf("  %-28s %14.6g\n", "energy_migration_j", r->energy_migration_j);
	printf("  %-28s %14.6g\n", "energy_prefetch_j", r->energy_prefetch_j);
	printf("  %-28s %14.6g\n", "energy_static_j", r->energy_static_j);
	printf("  %-28s %14.6g\n", "energy_sram_j", r->energy_sram_j);
	printf("  %-28s %14.6g\n", "energy_mac_j", r->energy_mac_j);
	printf("  %-28s %14.6g\n", "throughput_samples_per_s", r->throughput_samples_per_s);
	printf("  %-28s %14.6g\n", "throughput_per_watt (1/J)", r->throughput_per_watt);
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

static int positive(const char *opt, const char *s, double *v)
{
	const char *why = dl_parse_number(s, 0, v);

	if (!why && !(*v > 0))
		why = "must be > 0";
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
		{ "print-platform", required_argument, NULL, 'X' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct tier_config cfg = { .tier1_ratio = 25, .batch_scale = 1, .tier2_bw_scale = 1 };
	struct tier_result res;
	const char *why;
	bool json = false;
	int c;

	while ((c = dl_getopt(argc, argv, CMD, NULL, opts)) != -1) {
		switch (c) {
		case 'w': cfg.workload = optarg; break;
		case 'p': cfg.policy = optarg; break;
		case 'P': cfg.platform = optarg; break;
		case 'j': json = true; break;
		case 'X': return print_platform(optarg);
		case 'r':
			if ((why = parse_ratio(optarg, &cfg.tier1_ratio)))
				return dl_bad_option(CMD, "--tier1-ratio", optarg, why);
			break;
		case 'b':
			if (positive("--batch-scale", optarg, &cfg.batch_scale))
				return DL_EXIT_USAGE;
			break;
		case 'f':
			if (positive("--tier2-bw-scale", optarg, &cfg.tier2_bw_scale))
				return DL_EXIT_USAGE;
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
	if (tier_run(&cfg, &res))
		return DL_EXIT_ERROR;
	if (json)
		print_json(&res);
	else
		print_table(&res);
	return fflush(stdout) ? DL_EXIT_ERROR : DL_EXIT_OK;
}
