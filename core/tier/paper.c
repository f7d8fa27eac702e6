/* SPDX-License-Identifier: MIT */
#include "paper.h"

#include <math.h>

/* Means are over the five workloads at 25:1 unless a claim says
 * otherwise: of per-workload ratios (TM-Training / x), as "on average,
 * TM-Training achieves 1.71x ... than Sentinel" reads. */

static const char *const motivation[] = { "hor_off", "hor_on", "ver_off", "ver_on" };
static const char *const prior[] = { "sentinel", "autotm", "deeptm" };

struct claims {
	const struct tm_study *s;
	struct tm_claim *c;
	int n;
};

static void claim(struct claims *x, const char *id, const char *what, double paper, double ours)
{
	if (x->n < TM_MAXCLAIMS)
		x->c[x->n++] = (struct tm_claim){ id, what, paper, ours };
}

static double palm_eff(const struct tm_study *s, const char *p, double r)
{
	return tm_eff(s, "palm", p, r, 1, 1);
}

static double palm_mig(const struct tm_study *s, const char *p, double r)
{
	return tm_mig_data(s, "palm", p, r, 1, 1);
}

/* Off-chip memory's share of a run's energy. */
static double memory_share(const struct tier_result *x)
{
	return tm_mem_energy(x) / TM_FIELD(x, energy_j);
}

/* 1 - TM-Training's migration over p's (Figure 9): of the means of
 * migration / data used over the workloads, or of one workload's. */
static double less_migration(const struct tm_study *s, const char *w, const char *p)
{
	if (w)
		return 1 - tm_mig_data(s, w, "tm_training", 25, 1, 1) / tm_mig_data(s, w, p, 25, 1, 1);
	return 1 - tm_mean(s, tm_mig_data, "tm_training", NULL, 25, 1, 1) /
		   tm_mean(s, tm_mig_data, p, NULL, 25, 1, 1);
}

static void setting(struct claims *x)
{
	static const double table3[TM_NW] = { 86e9, 316e9, 1.5e12, 3.3e12, 3.1e12 };
	static const char *const ids[TM_NW] = { "table3.data.bert-large", "table3.data.t5",
					       "table3.data.chinchilla", "table3.data.gpt3",
					       "table3.data.palm" };
	const struct tier_result *tm, *hbm;
	double iommu_w = 0;

	for (int w = 0; w < TM_NW; w++)
		claim(x, ids[w], "data per iteration per chip, bytes (Table 3)", table3[w],
		      TM_FIELD(tm_find(x->s, tm_workloads[w], "hbm_only", 25, 1, 1), data_bytes));
	tm = tm_find(x->s, "palm", "tm_training", 25, 1, 1);
	hbm = tm_find(x->s, "palm", "hbm_only", 25, 1, 1);
	claim(x, "sec1.cost_saving", "memory cost saved at 12.5 % tier 1, HBM 100x flash per byte (87 %)",
	      0.87, 1 - TM_FIELD(tm, memory_cost_ratio));
	claim(x, "sec4.4.hbm_static_saved_w", "HBM static power a 25:1 tier 1 saves, W (hundreds of mW)",
	      NAN, TM_FIELD(hbm, energy_static_j) / TM_FIELD(hbm, iteration_time_s) -
		   TM_FIELD(tm, energy_static_j) / TM_FIELD(tm, iteration_time_s));
	for (int w = 0; w < TM_NW; w++) {
		const struct tier_result *r = tm_find(x->s, tm_workloads[w], "tm_training", 25, 1, 1);

		iommu_w += TM_FIELD(r, energy_iommu_j) / TM_FIELD(r, iteration_time_s) / TM_NW;
	}
	claim(x, "sec4.4.iommu_w", "IOMMU walks and leakage with TM-Training, W (leakage 13.65 mW; not critical)",
	      NAN, iommu_w);
}

static void motivation_figures(struct claims *x)
{
	const struct tm_study *s = x->s;
	double on_off = INFINITY, hor_ver = INFINITY, mig_on_off = 0, share = 0, worst = 0;
	double worst_mem = 0, mem_hbm = tm_mem_energy(tm_find(s, "palm", "hbm_only", 25, 1, 1));
	const struct tier_result *ho, *vo;

	for (int r = 0; r < TM_NR; r++) {
		double ratio = tm_ratios[r];
		double hor = fmin(palm_eff(s, "hor_off", ratio), palm_eff(s, "hor_on", ratio));
		double ver = fmax(palm_eff(s, "ver_off", ratio), palm_eff(s, "ver_on", ratio));

		on_off = fmin(on_off, palm_eff(s, "hor_on", ratio) / palm_eff(s, "hor_off", ratio));
		hor_ver = fmin(hor_ver, hor / ver);
		mig_on_off = fmax(mig_on_off, palm_mig(s, "hor_on", ratio) / palm_mig(s, "hor_off", ratio));
		for (int p = 0; p < 4; p++) {
			const struct tier_result *m = tm_find(s, "palm", motivation[p], ratio, 1, 1);

			worst = fmax(worst, memory_share(m));
			worst_mem = fmax(worst_mem, tm_mem_energy(m) / mem_hbm);
		}
	}
	claim(x, "fig2.hor_off_50", "PaLM Hor_Off efficiency at 50:1 / HBM-only (above 1 beyond 25:1)",
	      NAN, palm_eff(s, "hor_off", 50));
	claim(x, "fig2.hor_on_vs_hor_off", "PaLM Hor_On / Hor_Off efficiency, lowest over the ratios (up to 46 % lower)",
	      0.54, on_off);
	claim(x, "fig2.ver_off_5", "PaLM Ver_Off efficiency at 5:1 / HBM-only (10-11 %)", 0.105,
	      palm_eff(s, "ver_off", 5));
	claim(x, "fig2.ver_on_5", "PaLM Ver_On efficiency at 5:1 / HBM-only (10-11 %)", 0.105,
	      palm_eff(s, "ver_on", 5));
	claim(x, "fig2.hor_vs_ver", "PaLM weaker horizontal / stronger vertical efficiency, lowest over the ratios (horizontal above: > 1)",
	      NAN, hor_ver);
	claim(x, "fig3.hor_off_5", "PaLM Hor_Off migration / data used at 5:1", 1.5, palm_mig(s, "hor_off", 5));
	claim(x, "fig3.hor_on_5", "PaLM Hor_On migration / data used at 5:1", 2.1, palm_mig(s, "hor_on", 5));
	claim(x, "fig3.ver_off_5", "PaLM Ver_Off migration / data used at 5:1", 3.6, palm_mig(s, "ver_off", 5));
	claim(x, "fig3.ver_on_5", "PaLM Ver_On migration / data used at 5:1", 3.2, palm_mig(s, "ver_on", 5));
	claim(x, "fig3.hor_on_vs_hor_off", "PaLM Hor_On / Hor_Off migration, highest over the ratios (up to 1.86x)",
	      1.86, mig_on_off);
	ho = tm_find(s, "palm", "hor_off", 5, 1, 1);
	vo = tm_find(s, "palm", "ver_off", 5, 1, 1);
	claim(x, "fig4.prefetch_ver_vs_hor", "PaLM Ver_Off / Hor_Off prefetch energy at 5:1 (0.45 % less)",
	      0.9955, TM_FIELD(vo, energy_prefetch_j) / TM_FIELD(ho, energy_prefetch_j));
	claim(x, "fig4.migration_ver_vs_hor", "PaLM Ver_Off / Hor_Off migration energy at 5:1", 4.09,
	      TM_FIELD(vo, energy_migration_j) / TM_FIELD(ho, energy_migration_j));
	claim(x, "fig4.memory_ver_vs_hor", "PaLM Ver_Off / Hor_Off memory energy at 5:1", 2.24,
	      tm_mem_energy(vo) / tm_mem_energy(ho));
	for (int w = 0; w < TM_NW; w++)
		share += memory_share(tm_find(s, tm_workloads[w], "hbm_only", 25, 1, 1)) / TM_NW;
	claim(x, "fig4.hbm_memory_share", "HBM-only: off-chip memory's share of the energy, mean", 0.276, share);
	claim(x, "fig4.accelerator_vs_memory", "HBM-only: accelerator / off-chip memory energy", 2.62,
	      (1 - share) / share);
	claim(x, "fig4.worst_memory_share", "PaLM memory's share of the energy, worst motivation case (over 43.3 %)",
	      0.433, worst);
	claim(x, "fig4.worst_memory_vs_hbm", "PaLM memory energy / HBM-only's, worst motivation case (more than 2x)",
	      NAN, worst_mem);
}

/* TM-Training / HBM-only at 25:1, mean over the workloads, with the
 * energy taken at another reading of the powers (tm_eff_at). */
static double tm_vs_hbm_at(const struct tm_study *s, unsigned reading)
{
	double sum = 0;

	for (int w = 0; w < TM_NW; w++)
		sum += tm_eff_at(tm_find(s, tm_workloads[w], "tm_training", 25, 1, 1), reading) /
		       tm_eff_at(tm_find(s, tm_workloads[w], "hbm_only", 25, 1, 1), reading) / TM_NW;
	return sum;
}

/* TM-Training / the most efficient tiered system on each workload at 25:1
 * (every policy the study runs there), mean over the workloads: what the
 * ideal case would be if it were a bound. */
static double tm_vs_best(const struct tm_study *s)
{
	static const char *const tiered[] = { "hor_on", "hor_off", "ver_on", "ver_off", "sentinel",
					      "autotm", "deeptm", "tm_training", "tm_training_off",
					      "ideal" };
	double sum = 0;

	for (int w = 0; w < TM_NW; w++) {
		double best = 0;

		for (size_t p = 0; p < sizeof(tiered) / sizeof(tiered[0]); p++)
			best = fmax(best, tm_eff(s, tm_workloads[w], tiered[p], 25, 1, 1));
		sum += tm_eff(s, tm_workloads[w], "tm_training", 25, 1, 1) / best / TM_NW;
	}
	return sum;
}

/*
 * The bound on every tiered system's efficiency at 25:1, over HBM-only's:
 * HBM-only's run (every byte in tier 1 at HBM's bandwidth and energy,
 * nothing moved, no flash access) with the static power of the horizontal
 * tiers, taken from TM-Training's run (a vertical tier 2 spans the whole
 * address space and draws more).  A tiered chip runs the same MACs and
 * SRAM accesses, reads no byte at less than HBM's energy, and its smaller
 * tier 1 only adds stalls (docs/validation/tm.md, I).
 */
static double bound_eff(const struct tm_study *s, const char *w)
{
	const struct tier_result *hbm = tm_find(s, w, "hbm_only", 25, 1, 1);
	const struct tier_result *tm = tm_find(s, w, "tm_training", 25, 1, 1);
	double t = TM_FIELD(hbm, iteration_time_s), e = TM_FIELD(hbm, energy_j);
	double p_static = TM_FIELD(tm, energy_static_j) / TM_FIELD(tm, iteration_time_s);

	return e / (e - TM_FIELD(hbm, energy_static_j) + p_static * t);
}

static double tm_vs_bound(const struct tm_study *s)
{
	double sum = 0;

	for (int w = 0; w < TM_NW; w++)
		sum += tm_eff(s, tm_workloads[w], "tm_training", 25, 1, 1) /
		       bound_eff(s, tm_workloads[w]) / TM_NW;
	return sum;
}

static void at_25(struct claims *x)
{
	static const double fig8[3] = { 1.71, 1.26, 1.16 }, fig9[3] = { 0.64, 0.40, 0.36 };
	static const double bert[3] = { 0.47, 0.27, 0.23 }, fig13[3] = { 1.75, 1.35, 1.22 };
	static const double fig15[3] = { 1.91, 1.34, 1.24 }, palm15[3] = { 2.45, 1.42, 1.3 };
	static const char *const id8[3] = { "fig8.tm_vs_sentinel", "fig8.tm_vs_autotm", "fig8.tm_vs_deeptm" };
	static const char *const id9[3] = { "fig9.less_than_sentinel", "fig9.less_than_autotm", "fig9.less_than_deeptm" };
	static const char *const idb[3] = { "fig9.bert.less_than_sentinel", "fig9.bert.less_than_autotm", "fig9.bert.less_than_deeptm" };
	static const char *const id13[3] = { "fig13.tm_vs_sentinel", "fig13.tm_vs_autotm", "fig13.tm_vs_deeptm" };
	static const char *const id15[3] = { "fig15.tm_vs_sentinel", "fig15.tm_vs_autotm", "fig15.tm_vs_deeptm" };
	static const char *const idp15[3] = { "fig15.palm.tm_vs_sentinel", "fig15.palm.tm_vs_autotm", "fig15.palm.tm_vs_deeptm" };
	const struct tm_study *s = x->s;
	double best = 0, lo = INFINITY, hi = 0, b2_lo = INFINITY, b2_hi = 0, sum = 0;

	for (int p = 0; p < 3; p++) {
		double thr = tm_geomean(s, tm_thr, "tm_training", 25, 1, 1) /
			     tm_geomean(s, tm_thr, prior[p], 25, 1, 1);

		claim(x, id8[p], "efficiency of TM-Training / prior work (Figure 8)", fig8[p],
		      tm_mean(s, tm_eff, "tm_training", prior[p], 25, 1, 1));
		best = fmax(best, tm_mean(s, tm_eff, prior[p], NULL, 25, 1, 1));
		lo = fmin(lo, thr);
		hi = fmax(hi, thr);
	}
	claim(x, "fig8.tm_vs_hbm", "efficiency of TM-Training / HBM-only (Section 5.2: 1.09)", 1.09,
	      tm_mean(s, tm_eff, "tm_training", NULL, 25, 1, 1));
	claim(x, "fig8.tm_vs_hbm.per_gib", "the same with HBM static power read per GiB (684 mW per GiB)",
	      1.09, tm_vs_hbm_at(s, TM_HBM_PER_GIB));
	claim(x, "fig8.tm_vs_hbm.per_gib_no_idle", "the same per GiB and without the chip's idle power",
	      1.09, tm_vs_hbm_at(s, TM_HBM_PER_GIB | TM_NO_IDLE));
	claim(x, "sec1.tm_vs_hbm", "the same, as Section 1 states it (18 % better)", 1.18,
	      tm_mean(s, tm_eff, "tm_training", NULL, 25, 1, 1));
	for (int p = 0; p < 2; p++)
		sum += tm_mean(s, tm_eff, "tm_training", prior[p], 25, 1, 1) / 2;
	claim(x, "sec1.tm_vs_prior", "efficiency of TM-Training / Sentinel and AutoTM [19, 43], mean of the two (55 % better)",
	      1.55, sum);
	claim(x, "fig8.best_prior_vs_hbm", "efficiency of the best prior work / HBM-only (below 1)", NAN, best);
	for (int p = 0; p < 3; p++) {
		claim(x, id9[p], "migration TM-Training has less than prior work, mean (Figure 9)", fig9[p],
		      less_migration(s, NULL, prior[p]));
		if (p == 0)
			claim(x, "abstract.less_migration", "the same against Sentinel, as the abstract states it (64 %)",
			      0.64, less_migration(s, NULL, prior[p]));
	}
	for (int p = 0; p < 3; p++)
		claim(x, idb[p], "BERT-Large: migration TM-Training has less than prior work", bert[p],
		      less_migration(s, "bert-large", prior[p]));
	claim(x, "fig12.tm_vs_prior_low", "throughput of TM-Training / prior work at 25:1, geometric means, lowest (1.04)",
	      1.04, lo);
	claim(x, "fig12.tm_vs_prior_high", "the same, highest (1.19)", 1.19, hi);
	for (int p = 0; p < 3; p++) {
		double e = tm_mean(s, tm_eff, prior[p], NULL, 25, 2, 1);

		claim(x, id13[p], "batch and address space doubled: TM-Training / prior work", fig13[p],
		      tm_mean(s, tm_eff, "tm_training", prior[p], 25, 2, 1));
		b2_lo = fmin(b2_lo, e);
		b2_hi = fmax(b2_hi, e);
	}
	claim(x, "fig13.tm_vs_hbm", "batch doubled: TM-Training / HBM-only (nearly equal)", 1.0,
	      tm_mean(s, tm_eff, "tm_training", NULL, 25, 2, 1));
	claim(x, "fig13.prior_vs_hbm_high", "batch doubled: best prior work / HBM-only (21 % lower)", 0.79, b2_hi);
	claim(x, "fig13.prior_vs_hbm_low", "batch doubled: worst prior work / HBM-only (45 % lower)", 0.55, b2_lo);
	claim(x, "fig14.off_vs_tm", "efficiency of TM-Training_Off / TM-Training", 1.05,
	      tm_mean(s, tm_eff, "tm_training_off", "tm_training", 25, 1, 1));
	claim(x, "fig14.ideal_vs_tm", "efficiency of the ideal case / TM-Training (4 % above)", 1.04,
	      tm_mean(s, tm_eff, "ideal", "tm_training", 25, 1, 1));
	claim(x, "fig14.tm_vs_best", "efficiency of TM-Training / the best tiered system per workload (the ideal case as a bound: 4 % below)",
	      1 / 1.04, tm_vs_best(s));
	claim(x, "fig14.tm_vs_bound", "efficiency of TM-Training / the bound on every tiered system (HBM-only's run at the tiers' static power)",
	      NAN, tm_vs_bound(s));
	claim(x, "fig14.tm_vs_tight_bound", "efficiency of TM-Training / the floor of the horizontal tiers (what every placement must move and wait for)",
	      NAN, tm_mean(s, tm_eff_floor, "tm_training", NULL, 25, 1, 1));
	for (int p = 0; p < 3; p++) {
		claim(x, id15[p], "flash bandwidth halved: TM-Training / prior work", fig15[p],
		      tm_mean(s, tm_eff, "tm_training", prior[p], 25, 1, 0.5));
		claim(x, idp15[p], "flash bandwidth halved, PaLM: TM-Training / prior work", palm15[p],
		      tm_eff(s, "palm", "tm_training", 25, 1, 0.5) / tm_eff(s, "palm", prior[p], 25, 1, 0.5));
	}
	claim(x, "fig15.tm_vs_hbm", "flash bandwidth halved: TM-Training / HBM-only (23 % lower)", 0.77,
	      tm_mean(s, tm_eff, "tm_training", NULL, 25, 1, 0.5));
}

static void by_ratio(struct claims *x)
{
	static const double r100[3] = { 1.65, 1.17, 1.1 }, r5[3] = { 2.06, 1.37, 1.23 };
	static const char *const id100[3] = { "fig10.100.tm_vs_sentinel", "fig10.100.tm_vs_autotm", "fig10.100.tm_vs_deeptm" };
	static const char *const id5[3] = { "fig10.5.tm_vs_sentinel", "fig10.5.tm_vs_autotm", "fig10.5.tm_vs_deeptm" };
	const struct tm_study *s = x->s;
	double best_r = 0, best = 0, sent = 0, ideal = 0;

	for (int p = 0; p < 3; p++) {
		claim(x, id100[p], "PaLM at 100:1: efficiency of TM-Training / prior work", r100[p],
		      palm_eff(s, "tm_training", 100) / palm_eff(s, prior[p], 100));
		claim(x, id5[p], "PaLM at 5:1: efficiency of TM-Training / prior work", r5[p],
		      palm_eff(s, "tm_training", 5) / palm_eff(s, prior[p], 5));
	}
	for (int r = 0; r < TM_NR; r++) {
		double e = palm_eff(s, "tm_training", tm_ratios[r]);

		if (e > best) {
			best = e;
			best_r = tm_ratios[r];
		}
		sent += palm_mig(s, "sentinel", tm_ratios[r]) / palm_mig(s, "tm_training", tm_ratios[r]) / TM_NR;
		ideal += palm_mig(s, "tm_training", tm_ratios[r]) / palm_mig(s, "ideal", tm_ratios[r]) / TM_NR;
	}
	claim(x, "fig10.best_ratio", "PaLM: the ratio R of R:1 at which TM-Training is most efficient", 100, best_r);
	claim(x, "fig11.5.autotm_vs_tm", "PaLM at 5:1: migration of AutoTM / TM-Training", 1.31,
	      palm_mig(s, "autotm", 5) / palm_mig(s, "tm_training", 5));
	claim(x, "fig11.5.deeptm_vs_tm", "PaLM at 5:1: migration of DeepTM / TM-Training", 1.24,
	      palm_mig(s, "deeptm", 5) / palm_mig(s, "tm_training", 5));
	claim(x, "fig11.sentinel_vs_tm", "PaLM: migration of Sentinel / TM-Training, mean over the ratios (almost 2x)",
	      2, sent);
	claim(x, "fig11.tm_vs_ideal", "PaLM: migration of TM-Training / the ideal case, mean over the ratios (very similar)",
	      1, ideal);
	claim(x, "fig12.tm_100", "throughput of TM-Training / HBM-only at 100:1, geometric mean (negligible loss)",
	      1, tm_geomean(s, tm_thr, "tm_training", 100, 1, 1));
}

int paper_claims(const struct tm_study *s, struct tm_claim *c)
{
	struct claims x = { s, c, 0 };

	setting(&x);
	motivation_figures(&x);
	at_25(&x);
	by_ratio(&x);
	return x.n;
}
