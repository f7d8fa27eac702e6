/* SPDX-License-Identifier: MIT */
/* dlasim dram: replay a request trace on a memory device and print its
 * statistics. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/args.h"
#include "lib/checkrun.h"
#include "lib/diag.h"
#include "results/json.h"
#include "lib/units.h"
#include "commands.h"
#include "memdev.h"
#include "trace.h"

#define CMD "dram"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: dlasim dram --config FILE|PRESET --trace FILE [--cycles N] [--json]\n"
		"  --config FILE   device: key = value file with DRAMsim3's field names\n"
		"                  (platforms/dram/), or a preset: %s\n"
		"  --trace FILE    one request per line: ADDRESS READ|WRITE CYCLE [BLOCKS]\n"
		"                  (DRAMsim3's trace format; '-' reads standard input)\n"
		"  --cycles N      stop after N device cycles (default: run to the end)\n"
		"  --json          print one JSON object instead of a table\n"
		"See docs/memdev.md for the model, the formats and the statistics.\n",
		memdev_preset_names());
}

static int load_config(const char *arg, struct memdev_config *cfg)
{
	if (memdev_preset(arg, cfg) == 0)
		return 0;
	if (!strchr(arg, '/') && !strchr(arg, '.')) {
		dl_err("%s: --config '%s': not a file name nor a preset (%s)", CMD, arg,
		       memdev_preset_names());
		return -1;
	}
	return memdev_config_read(arg, cfg);
}

static void print_table(const struct memdev_config *c, const struct memdev_stats *s)
{
	double kc = s->elapsed_s / s->cycle_s / 1000;

	printf("device %s: %d channels x %d ranks x %d banks, %d B requests, tCK %.4g ns\n",
	       c->name, c->channels, c->ranks, c->banks, c->block_bytes, c->tCK_ns);
	printf("%-26s %14ld\n", "requests completed", s->requests);
	printf("%-26s %14" PRId64 "\n", "cycles", s->elapsed_cycles);
	printf("%-26s %14.9g\n", "simulated time (s)", s->elapsed_s);
	printf("%-26s %14.1f\n", "requests per 1000 cycles", kc > 0 ? s->requests / kc : 0);
	printf("%-26s %14ld\n", "reads (blocks)", s->reads);
	printf("%-26s %14ld\n", "writes (blocks)", s->writes);
	printf("%-26s %14.0f\n", "bytes (B)", s->bytes);
	printf("%-26s %14.4g\n", "bandwidth, total (GB/s)", s->bw_total_Bps / 1e9);
	printf("%-26s %14.4g\n", "bandwidth, busy (GB/s)", s->bw_busy_Bps / 1e9);
	printf("%-26s %14.9g\n", "busy time (s)", s->busy_s);
	if (c->kind == MEMDEV_DDR) {
		printf("%-26s %14.2f\n", "row-hit rate (%)", 100 * s->row_hit_rate);
		printf("%-26s %14ld\n", "activations", s->acts);
		printf("%-26s %14.2f\n", "activations per 1000 cyc", kc > 0 ? s->acts / kc : 0);
		printf("%-26s %14ld\n", "refreshes", s->refs);
	}
	printf("%-26s %14.3f\n", "channel parallelism (CLP)", s->clp);
	printf("%-26s %14.3f\n", "bank parallelism (BLP)", s->blp);
	printf("%-26s %14.2f\n", "latency, mean (cycles)", s->latency_mean_s / s->cycle_s);
	printf("%-26s %14.0f\n", "latency, max (cycles)", s->latency_max_s / s->cycle_s);
}

static void print_json(const struct memdev_config *c, const char *trace,
		       const struct memdev_stats *s)
{
	double kc = s->elapsed_s / s->cycle_s / 1000;
	struct dl_json j;

	dl_json_result_begin(&j, stdout);
	dl_json_str(&j, "device", c->name);
	dl_json_str(&j, "kind", c->kind == MEMDEV_DDR ? "DDR4" : "NVM");
	dl_json_str(&j, "trace", trace);
	dl_json_int(&j, "channels", c->channels);
	dl_json_int(&j, "ranks", c->ranks);
	dl_json_int(&j, "banks_per_rank", c->banks);
	dl_json_int(&j, "request_bytes", c->block_bytes);
	dl_json_num(&j, "cycle_s", s->cycle_s);
	dl_json_int(&j, "requests", s->requests);
	dl_json_int(&j, "cycles", s->elapsed_cycles);
	dl_json_num(&j, "simulated_time_s", s->elapsed_s);
	dl_json_num(&j, "requests_per_kcycle", kc > 0 ? s->requests / kc : 0);
	dl_json_int(&j, "read_blocks", s->reads);
	dl_json_int(&j, "write_blocks", s->writes);
	dl_json_num(&j, "bytes", s->bytes);
	dl_json_num(&j, "bandwidth_total_Bps", s->bw_total_Bps);
	dl_json_num(&j, "bandwidth_busy_Bps", s->bw_busy_Bps);
	dl_json_num(&j, "busy_s", s->busy_s);
	dl_json_num(&j, "row_hit_rate", s->row_hit_rate);
	dl_json_int(&j, "activations", s->acts);
	dl_json_num(&j, "activations_per_kcycle", kc > 0 ? s->acts / kc : 0);
	dl_json_int(&j, "precharges", s->pres);
	dl_json_int(&j, "refreshes", s->refs);
	dl_json_num(&j, "channel_parallelism", s->clp);
	dl_json_num(&j, "bank_parallelism", s->blp);
	dl_json_num(&j, "latency_mean_s", s->latency_mean_s);
	dl_json_num(&j, "latency_max_s", s->latency_max_s);
	dl_json_array_begin(&j, "latency_histogram_cycles");
	for (int k = 0; k < MEMDEV_HIST; k++) {
		if (!s->hist[k])
			continue;
		dl_json_object_begin(&j, NULL);
		dl_json_num(&j, "from", k ? ldexp(1, k - 1) : 0);
		dl_json_num(&j, "below", ldexp(1, k));
		dl_json_int(&j, "count", s->hist[k]);
		dl_json_object_end(&j);
	}
	dl_json_array_end(&j);
	dl_json_object_end(&j);
}

static int replay(const char *config, const char *trace, long cycles, bool json)
{
	struct memdev_config cfg;
	struct memdev_trace t;
	struct memdev_stats s;
	struct memdev *d;
	int64_t end;
	int ret;

	if (load_config(config, &cfg))
		return DL_EXIT_ERROR;
	d = memdev_open(&cfg);
	if (!d) {
		dl_err("out of memory");
		return DL_EXIT_ERROR;
	}
	if (memdev_trace_open(&t, trace, d)) {
		memdev_close(d);
		return DL_EXIT_ERROR;
	}
	dl_check_run_point();
	ret = memdev_replay(d, memdev_trace_next, &t, cycles, &end);
	memdev_trace_close(&t);
	if (ret == 0) {
		memdev_stats_cycles(d, end, &s);
		if (json)
			print_json(&cfg, trace, &s);
		else
			print_table(&cfg, &s);
	}
	memdev_close(d);
	return ret ? DL_EXIT_ERROR : DL_EXIT_OK;
}

int cmd_dram(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "trace", required_argument, NULL, 't' },
		{ "cycles", required_argument, NULL, 'n' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *config = NULL, *trace = NULL, *why;
	bool json = false;
	long cycles = 0;
	int c;

	while ((c = dl_getopt(argc, argv, CMD, NULL, opts)) != -1) {
		switch (c) {
		case 'c': config = optarg; break;
		case 't': trace = optarg; break;
		case 'j': json = true; break;
		case 'n':
			if ((why = dl_parse_int(optarg, 1, 1L << 50, &cycles)))
				return dl_bad_option(CMD, "--cycles", optarg, why);
			break;
		case 'h': usage(stdout); return DL_EXIT_OK;
		default: return DL_EXIT_USAGE;
		}
	}
	if (dl_no_operands(argc, argv, CMD))
		return DL_EXIT_USAGE;
	if (!config || !trace) {
		dl_err("%s: --config and --trace are required (see 'dlasim dram --help')", CMD);
		return DL_EXIT_USAGE;
	}
	return replay(config, trace, cycles, json);
}
