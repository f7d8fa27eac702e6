/* SPDX-License-Identifier: MIT */
/* dlasim study mcdla: its tables, JSON and CSV (docs/studies.md). */
#include <math.h>
#include <stdio.h>

#include "results/csv.h"
#include "results/json.h"
#include "lib/units.h"
#include "study.h"

/*
 * The gaps of the paper's Section V-B, each the harmonic mean of
 * T(slow) / T(fast) over the benchmarks both ran.
 */
struct gap {
	const char *what;
	enum mc_design_id slow, fast;
	const char *paper;
};

static const struct gap gaps[] = {
	{ "PCIe gen4, device links and uplinks: DC-DLA gain", MC_DC, MC_DC_GEN4, "1.38" },
	{ "  MC-DLA(B) over DC-DLA/gen4", MC_DC_GEN4, MC_BW, "2.1" },
	{ "PCIe gen4, device links only: DC-DLA gain", MC_DC, MC_DC_GEN4_LINK, "1.38" },
	{ "  MC-DLA(B) over DC-DLA/gen4-link", MC_DC_GEN4_LINK, MC_BW, "2.1" },
	{ "HC-DLA, the paper's 1.5 rings: over DC-DLA", MC_DC, MC_HC, "1.35" },
	{ "  HC-DLA as one ring of its links (hc-ring)", MC_DC, MC_HC_RING, "1.35" },
	{ "HC-DLA with Power9 sockets (120 GB/s)", MC_DC, MC_HC_POWER9, "-" },
	{ "cDMA 2.6:1: MC-DLA(B) over DC-DLA/cdma, CNNs", MC_DC_CDMA, MC_BW, "2.3" },
	{ "TPUv2-like: MC-DLA(B) over DC-DLA", MC_DC_TPUV2, MC_BW_TPUV2, "3.2" },
	{ "DGX-2-like, 16 devices on NVSwitch: same", MC_DC_DGX2, MC_BW_DGX2, "2.9" },
};

#define NGAPS (sizeof(gaps) / sizeof(gaps[0]))

/* The paper's averages over both modes are means of the two harmonic
 * means (2.8 = (3.5 + 2.1) / 2). */
static double both_modes(const struct study *st, int b, int slow, int fast)
{
	double s = 0;

	for (int m = 0; m < st->nmodes; m++)
		s += mc_study_ratio(st, m, b, slow, fast) / st->nmodes;
	return s;
}

/* System power of design d: every run of it has the same. */
static double design_power(const struct study *st, int d)
{
	for (int i = 0; i < st->nruns; i++)
		if (st->run[i].design == d && isfinite(st->res[i].system_power_w))
			return st->res[i].system_power_w;
	return NAN;
}

/* Mean speedup over both modes, times P(base) / P(design). */
static double perf_per_watt(const struct study *st, int b, int d)
{
	return both_modes(st, b, mc_designs[d].base, d) * design_power(st, mc_designs[d].base) /
	       design_power(st, d);
}

/* ---- table ---- */

static void cell(const char *fmt, double v)
{
	char buf[64];

	printf(" %10s", dl_format_num(buf, sizeof(buf), fmt, v, "n/a"));
}

static void print_breakdown(const struct mc_train_result *r, const char *design)
{
	if (!r)
		return;
	if (isnan(r->iteration_s)) {
		printf("  %s n/a", design);
		return;
	}
	printf("  %s %.3g/%.3g/%.3g cpu %.0f/%.0f", design, r->compute_s, r->sync_s, r->virt_s,
	       r->cpu_mem_bw_avg_Bps / 1e9, r->cpu_mem_bw_max_Bps / 1e9);
}

/* Figure 13 and Figure 11 for one mode and batch. */
static void print_figure13(const struct study *st, int m, int b)
{
	int shown[3], nshown;

	printf("%s-parallel, %d devices%s, batch %.0f, collective %s: speedup over DC-DLA (Figure 13)\n",
	       mc_mode_name(st->modes[m]), st->devices, st->scale_out ? " (scale-out)" : "",
	       st->batches[b], mc_study_coll(st));
	printf("  %-11s", "benchmark");
	for (int d = 0; d < MC_DESIGNS; d++)
		if (st->in_set[d] && mc_designs[d].figure13)
			printf(" %10s", mc_designs[d].name);
	printf("\n");
	for (int w = 0; w <= MC_NBENCH; w++) {
		printf("  %-11s", w < MC_NBENCH ? mc_benches[w] : "HarMean");
		for (int d = 0; d < MC_DESIGNS; d++)
			if (st->in_set[d] && mc_designs[d].figure13)
				cell("%.2f", w < MC_NBENCH ? mc_study_speedup(st, m, b, d, w) :
							      mc_study_ratio(st, m, b, MC_DC, d));
		printf("\n");
	}
	printf("  breakdown, seconds per iteration (Figure 11): compute / sync / virt;"
	       " CPU memory GB/s mean/max (Figure 12)\n");
	nshown = mc_study_breakdown_designs(st, shown);
	for (int w = 0; w < MC_NBENCH; w++) {
		printf("  %-11s", mc_benches[w]);
		for (int i = 0; i < nshown; i++)
			print_breakdown(mc_study_result(st, m, b, shown[i], w),
					mc_designs[shown[i]].name);
		printf("\n");
	}
	printf("\n");
}

/* Figure 14: each design's speedup over DC-DLA at every batch size. */
static void print_figure14(const struct study *st)
{
	for (int d = 0; d < MC_DESIGNS; d++) {
		double s = 0;
		int n = 0;

		if (!st->in_set[d] || !mc_designs[d].figure13 || d == MC_DC ||
		    (st->batch_sweep && d != MC_BW))
			continue;	/* with --plot's sweep, MC-DLA(B) alone ran at every batch */
		printf("%s over DC-DLA by batch size, %d devices (Figure 14)\n", mc_designs[d].name,
		       st->devices);
		printf("  %-11s", "benchmark");
		for (int b = 0; b < st->nbatches; b++) {
			for (int m = 0; m < st->nmodes; m++) {
				char label[32];

				snprintf(label, sizeof(label), "%.0f/%s", st->batches[b],
					 mc_mode_name(st->modes[m]));
				printf(" %10s", label);
			}
		}
		printf("\n");
		for (int w = 0; w <= MC_NBENCH; w++) {
			printf("  %-11s", w < MC_NBENCH ? mc_benches[w] : "HarMean");
			for (int b = 0; b < st->nbatches; b++) {
				for (int m = 0; m < st->nmodes; m++) {
					double v = w < MC_NBENCH ? mc_study_speedup(st, m, b, d, w) :
								  mc_study_ratio(st, m, b, MC_DC, d);

					cell("%.2f", v);
					if (w < MC_NBENCH) {
						s += 1 / v;
						n++;
					}
				}
			}
			printf("\n");
		}
		printf("  harmonic mean of the %d points: %.2f\n\n", n, n / s);
	}
}

static void print_gaps(const struct study *st, int b)
{
	printf("Section V-B sensitivity, batch %.0f: harmonic means; mean = of the modes\n",
	       st->batches[b]);
	printf("  %-52s", "");
	for (int m = 0; m < st->nmodes; m++)
		printf(" %10s", mc_mode_name(st->modes[m]));
	printf(" %10s %10s\n", "mean", "paper");
	for (size_t g = 0; g < NGAPS; g++) {
		printf("  %-52s", gaps[g].what);
		for (int m = 0; m < st->nmodes; m++)
			cell("%.2f", mc_study_ratio(st, m, b, gaps[g].slow, gaps[g].fast));
		cell("%.2f", both_modes(st, b, gaps[g].slow, gaps[g].fast));
		printf(" %10s\n", gaps[g].paper);
	}
	printf("\n");
}

static void print_power(const struct study *st, int b)
{
	printf("System power (TDP) and performance per watt over DC-DLA (Section V-C), batch %.0f\n",
	       st->batches[b]);
	printf("  %-17s %10s %10s %10s\n", "design", "power W", "speedup", "perf/W");
	for (int d = 0; d < MC_DESIGNS; d++) {
		if (!st->in_set[d])
			continue;
		printf("  %-17s", mc_designs[d].name);
		cell("%.0f", design_power(st, d));
		cell("%.2f", both_modes(st, b, mc_designs[d].base, d));
		cell("%.2f", perf_per_watt(st, b, d));
		printf("\n");
	}
	printf("\n");
}

void mc_study_print_table(const struct study *st)
{
	if (st->nbatches == 1 || st->batch_sweep)
		for (int m = 0; m < st->nmodes; m++)
			print_figure13(st, m, st->fig_batch);
	if (st->nbatches > 1)
		print_figure14(st);
	for (int b = 0; b < st->nbatches; b++) {
		if (st->batch_sweep && b != st->fig_batch)
			continue;	/* only DC-DLA and MC-DLA(B) ran there */
		if (st->sensitivity)
			print_gaps(st, b);
		if (st->power)
			print_power(st, b);
	}
}

/* ---- JSON ---- */

static void json_run(struct dl_json *j, const struct study *st, int i)
{
	const struct mc_run *x = &st->run[i];
	const struct mc_train_result *r = &st->res[i];

	dl_json_object_begin(j, NULL);
	dl_json_str(j, "parallel", mc_mode_name(st->modes[x->mode]));
	dl_json_num(j, "batch", st->batches[x->batch]);
	dl_json_str(j, "design", mc_designs[x->design].name);
	dl_json_str(j, "base_design", mc_designs[mc_designs[x->design].base].name);
	dl_json_str(j, "workload", mc_benches[x->bench]);
	dl_json_str(j, "coll", r->coll[0] ? r->coll : mc_study_coll(st));
	dl_json_num(j, "iteration_time_s", r->iteration_s);
	dl_json_num(j, "speedup_over_dc", mc_study_speedup(st, x->mode, x->batch, x->design, x->bench));
	dl_json_num(j, "compute_s", r->compute_s);
	dl_json_num(j, "sync_s", r->sync_s);
	dl_json_num(j, "sync_exposed_s", r->sync_exposed_s);
	dl_json_num(j, "sync_wait_s", r->sync_wait_s);
	dl_json_num(j, "virt_s", r->virt_s);
	dl_json_num(j, "virt_exposed_s", r->virt_exposed_s);
	dl_json_num(j, "cpu_mem_bw_avg_Bps", r->cpu_mem_bw_avg_Bps);
	dl_json_num(j, "cpu_mem_bw_max_Bps", r->cpu_mem_bw_max_Bps);
	dl_json_num(j, "memory_node_tdp_w", r->memory_node_tdp_w);
	dl_json_num(j, "system_power_w", r->system_power_w);
	dl_json_num(j, "perf_per_watt_over_dc",
		    mc_study_perf_per_watt(st, x->mode, x->batch, x->design, x->bench));
	if (st->jr[i].failed)
		dl_json_str(j, "error", st->jr[i].reason);
	dl_json_object_end(j);
}

static void json_means(struct dl_json *j, const struct study *st)
{
	dl_json_array_begin(j, "harmonic_mean_speedup_over_dc");
	for (int m = 0; m < st->nmodes; m++) {
		for (int b = 0; b < st->nbatches; b++) {
			for (int d = 0; d < MC_DESIGNS; d++) {
				if (!mc_study_planned(st, b, d))
					continue;
				dl_json_object_begin(j, NULL);
				dl_json_str(j, "parallel", mc_mode_name(st->modes[m]));
				dl_json_num(j, "batch", st->batches[b]);
				dl_json_str(j, "design", mc_designs[d].name);
				dl_json_num(j, "speedup",
					    mc_study_ratio(st, m, b, mc_designs[d].base, d));
				dl_json_object_end(j);
			}
		}
	}
	dl_json_array_end(j);
}

static void json_extra(struct dl_json *j, const struct study *st)
{
	if (st->sensitivity) {
		dl_json_array_begin(j, "sensitivity");
		for (int b = 0; b < st->nbatches; b++) {
			if (st->batch_sweep && b != st->fig_batch)
				continue;	/* only DC-DLA and MC-DLA(B) ran there */
			for (size_t g = 0; g < NGAPS; g++) {
				dl_json_object_begin(j, NULL);
				dl_json_str(j, "gap", gaps[g].what);
				dl_json_num(j, "batch", st->batches[b]);
				dl_json_str(j, "slow_design", mc_designs[gaps[g].slow].name);
				dl_json_str(j, "fast_design", mc_designs[gaps[g].fast].name);
				for (int m = 0; m < st->nmodes; m++)
					dl_json_num(j, st->modes[m] == MC_DATA_PARALLEL ? "data_ratio" :
							"model_ratio", mc_study_ratio(st, m, b, gaps[g].slow,
										      gaps[g].fast));
				dl_json_num(j, "mean_ratio", both_modes(st, b, gaps[g].slow, gaps[g].fast));
				dl_json_object_end(j);
			}
		}
		dl_json_array_end(j);
	}
	dl_json_array_begin(j, "power");
	for (int b = 0; b < st->nbatches; b++) {
		for (int d = 0; d < MC_DESIGNS; d++) {
			if (!mc_study_planned(st, b, d))
				continue;
			dl_json_object_begin(j, NULL);
			dl_json_num(j, "batch", st->batches[b]);
			dl_json_str(j, "design", mc_designs[d].name);
			dl_json_num(j, "system_power_w", design_power(st, d));
			dl_json_num(j, "mean_speedup_over_dc", both_modes(st, b, mc_designs[d].base, d));
			dl_json_num(j, "perf_per_watt_over_dc", perf_per_watt(st, b, d));
			dl_json_object_end(j);
		}
	}
	dl_json_array_end(j);
}

void mc_study_print_json(const struct study *st, FILE *f)
{
	struct dl_json j;

	dl_json_result_begin(&j, f);
	dl_json_str(&j, "study", "mcdla");
	dl_json_int(&j, "devices", st->devices);
	dl_json_bool(&j, "scale_out", st->scale_out);
	dl_json_num(&j, "batch", st->batches[0]);
	dl_json_array_begin(&j, "batches");
	for (int b = 0; b < st->nbatches; b++)
		dl_json_num(&j, NULL, st->batches[b]);
	dl_json_array_end(&j);
	dl_json_num(&j, "memory_node_dimm_bytes", st->dimm_bytes);
	dl_json_array_begin(&j, "runs");
	for (int i = 0; i < st->nruns; i++)
		json_run(&j, st, i);
	dl_json_array_end(&j);
	json_means(&j, st);
	json_extra(&j, st);
	dl_json_object_end(&j);
}

/* ---- CSV ---- */

void mc_study_print_csv(const struct study *st)
{
	char buf[64];

	printf("parallel,design,workload,iteration_time_s,speedup_over_dc,compute_s,sync_s,"
	       "sync_exposed_s,virt_s,virt_exposed_s,cpu_mem_bw_avg_Bps,cpu_mem_bw_max_Bps,"
	       "sync_wait_s,system_power_w,perf_per_watt_over_dc,batch\n");
	for (int i = 0; i < st->nruns; i++) {
		const struct mc_run *x = &st->run[i];
		const struct mc_train_result *r = &st->res[i];
		const double v[] = {
			r->iteration_s, mc_study_speedup(st, x->mode, x->batch, x->design, x->bench),
			r->compute_s, r->sync_s, r->sync_exposed_s, r->virt_s, r->virt_exposed_s,
			r->cpu_mem_bw_avg_Bps, r->cpu_mem_bw_max_Bps, r->sync_wait_s,
			r->system_power_w,
			mc_study_perf_per_watt(st, x->mode, x->batch, x->design, x->bench),
		};

		printf("%s,%s,", mc_mode_name(st->modes[x->mode]), mc_designs[x->design].name);
		dl_csv_field(stdout, mc_benches[x->bench]);
		/* A failed run's fields are empty. */
		for (size_t k = 0; k < sizeof(v) / sizeof(v[0]); k++)
			printf(",%s", dl_format_num(buf, sizeof(buf), k == 1 ? "%.6g" : "%.9g", v[k], ""));
		printf(",%.0f\n", st->batches[x->batch]);
	}
}
