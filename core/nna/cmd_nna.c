/* SPDX-License-Identifier: MIT */
/* dlasim nna: one inference of a workload on the NNA, under a dataflow
 * plugin and a DRAM tile-placement plugin. */
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/args.h"
#include "results/csv.h"
#include "lib/diag.h"
#include "results/json.h"
#include "commands.h"
#include "options.h"
#include "run.h"

#define CMD "nna"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: dlasim nna --workload FILE [--dataflow NAME] [--dram-place NAME]\n"
		"                  [--sa N|NxN] [--spm SIZE] [--elem-bytes N] [--dram FILE]\n"
		"                  [--burst N] [--json | --csv]\n"
		"  --workload FILE    network (.dnn, or a SCALE-Sim topology .csv;\n"
		"                     workloads/nna/ has the study's seven)\n"
		"  --dataflow NAME    dataflow plugin: ws (default) or arai, or a path to a .so\n"
		"  --dram-place NAME  DRAM tile placement plugin: roma (default) or lap, or a path\n"
		"  --sa N             systolic array of N x N PEs (default 32)\n"
		"  --spm SIZE         scratchpad (default 2MiB)\n"
		"  --elem-bytes N     bytes per element: 1 (default), 2 or 4\n"
		"  --dram FILE        DRAM configuration (default platforms/dram/%s)\n"
		"  --burst N          blocks one DMA request carries at most (default %d)\n"
		"  --json, --csv      one JSON object, or a header and one CSV row\n"
		"Model: docs/nna.md.\n", NNA_DRAM_DEFAULT, NNA_BURST_DEFAULT);
}

/* The numbers of a result, in output order; `shown` ones in the table. */
struct field {
	const char *key;	/* names its unit */
	size_t offset;
	char type;		/* 'd' double, 'c' a count held in a double, 'i' int, 'l' long */
	bool shown;
};

#define D(name, shown) { #name, offsetof(struct nna_result, name), 'd', shown }
#define C(name, shown) { #name, offsetof(struct nna_result, name), 'c', shown }
#define I(name) { #name, offsetof(struct nna_result, name), 'i', false }
#define L(name) { #name, offsetof(struct nna_result, name), 'l', false }

static const struct field fields[] = {
	I(sa), D(spm_bytes, false), I(elem_bytes), I(layers), L(steps), L(dtiles),
	D(inference_time_s, true), D(last_transfer_end_s, false), D(compute_s, true), D(stall_s, true),
	C(read_bytes, true), C(write_bytes, true), C(read_blocks, true), C(write_blocks, false),
	C(weight_bytes, false), C(ifmap_bytes, false), C(skip_bytes, false),
	D(busy_s, false), D(bandwidth_busy_Bps, true), D(bandwidth_total_Bps, true),
	D(clp, true), D(blp, true), D(row_hit_rate, true), D(channels_used, false),
	D(rowtasks_per_written_dtile, true), D(rowtasks_per_read, true),
	C(load_bytes, true), C(fmap_bytes, false), D(rowtasks_per_weight_read, true),
	I(multigroup_layers), D(multigroup_time_s, false), C(multigroup_ifmap_bytes, false),
};

#define NFIELDS (sizeof(fields) / sizeof(fields[0]))

static double field_value(const struct nna_result *r, const struct field *f)
{
	const char *p = (const char *)r + f->offset;

	return f->type == 'd' || f->type == 'c' ? *(const double *)p : f->type == 'i' ? *(const int *)p :
	       (double)*(const long *)p;
}

static void print_json(const struct nna_result *r)
{
	struct dl_json j;

	dl_json_result_begin(&j, stdout);
	dl_json_str(&j, "workload", r->workload);
	dl_json_str(&j, "dataflow", r->dataflow);
	dl_json_str(&j, "placement", r->placement);
	for (size_t i = 0; i < NFIELDS; i++) {
		if (fields[i].type == 'd' || fields[i].type == 'c')
			dl_json_num(&j, fields[i].key, field_value(r, &fields[i]));
		else
			dl_json_int(&j, fields[i].key, (long long)field_value(r, &fields[i]));
	}
	dl_json_array_begin(&j, "classes");
	for (int c = 0; c < NNA_CLASSES; c++) {
		dl_json_object_begin(&j, NULL);
		dl_json_str(&j, "class", nna_class_name(c));
		dl_json_int(&j, "layers", r->cls[c].layers);
		dl_json_num(&j, "time_s", r->cls[c].time_s);
		dl_json_num(&j, "stall_s", r->cls[c].stall_s);
		dl_json_object_end(&j);
	}
	dl_json_array_end(&j);
	dl_json_object_end(&j);
	putchar('\n');
}

static void print_csv(const struct nna_result *r)
{
	printf("workload,dataflow,placement");
	for (size_t i = 0; i < NFIELDS; i++)
		printf(",%s", fields[i].key);
	for (int c = 0; c < NNA_CLASSES; c++)
		printf(",%s_time_s,%s_stall_s", nna_class_name(c), nna_class_name(c));
	putchar('\n');
	dl_csv_field(stdout, r->workload);
	putchar(',');
	dl_csv_field(stdout, r->dataflow);
	putchar(',');
	dl_csv_field(stdout, r->placement);
	for (size_t i = 0; i < NFIELDS; i++)
		printf(",%.9g", field_value(r, &fields[i]));
	for (int c = 0; c < NNA_CLASSES; c++)
		printf(",%.9g,%.9g", r->cls[c].time_s, r->cls[c].stall_s);
	putchar('\n');
}

static void print_table(const struct nna_result *r)
{
	printf("%s on a %dx%d array, dataflow %s, placement %s\n", r->workload, r->sa, r->sa,
	       r->dataflow, r->placement);
	for (size_t i = 0; i < NFIELDS; i++)
		if (fields[i].shown)	/* counts whole, however large */
			printf(fields[i].type == 'c' ? "  %-28s %14.0f\n" : "  %-28s %14.6g\n",
			       fields[i].key, field_value(r, &fields[i]));
	printf("  %-10s %6s %14s %14s\n", "class", "layers", "time_s", "stall_s");
	for (int c = 0; c < NNA_CLASSES; c++)
		printf("  %-10s %6d %14.6g %14.6g\n", nna_class_name(c), r->cls[c].layers,
		       r->cls[c].time_s, r->cls[c].stall_s);
}

int cmd_nna(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "workload", required_argument, NULL, 'w' },
		{ "dataflow", required_argument, NULL, 'f' },
		{ "dram-place", required_argument, NULL, 'p' },
		{ "dram", required_argument, NULL, 'd' },
		{ "sa", required_argument, NULL, 'a' },
		{ "spm", required_argument, NULL, 's' },
		{ "elem-bytes", required_argument, NULL, 'e' },
		{ "burst", required_argument, NULL, 'b' },
		{ "json", no_argument, NULL, 'j' },
		{ "csv", no_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	static struct nna_result res;
	char dram[PATH_MAX + 64];
	struct nna_config cfg;
	char fmt = 't';
	int c;

	if (nna_default_config(&cfg, dram, sizeof(dram)))
		return DL_EXIT_ERROR;
	while ((c = dl_getopt(argc, argv, CMD, NULL, opts)) != -1) {
		switch (c) {
		case 'w': cfg.workload = optarg; break;
		case 'f': cfg.dataflow = optarg; break;
		case 'p': cfg.placement = optarg; break;
		case 'd': cfg.dram = optarg; break;
		case 'j': fmt = 'j'; break;
		case 'c': fmt = 'c'; break;
		case 'h': usage(stdout); return DL_EXIT_OK;
		case '?': return DL_EXIT_USAGE;
		default:
			if (nna_parse_option(&cfg, c, optarg, CMD))
				return DL_EXIT_USAGE;
		}
	}
	if (dl_no_operands(argc, argv, CMD))
		return DL_EXIT_USAGE;
	if (!cfg.workload) {
		dl_err("%s: --workload is required (see 'dlasim nna --help')", CMD);
		return DL_EXIT_USAGE;
	}
	if (nna_run(&cfg, &res))
		return DL_EXIT_ERROR;
	if (fmt == 'j')
		print_json(&res);
	else if (fmt == 'c')
		print_csv(&res);
	else
		print_table(&res);
	return fflush(stdout) ? DL_EXIT_ERROR : DL_EXIT_OK;
}
