/* SPDX-License-Identifier: MIT */
/*
 * dlasim study mcdla: the command and its runs (study.c), the tables,
 * JSON and CSV that report them (study_out.c), the paper's figures drawn
 * from them (study_plot.c), the design points and the queries on the
 * runs' results below all three (study_results.c).
 */
#ifndef MC_STUDY_H
#define MC_STUDY_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

#include "results/jobs.h"
#include "machine/platgen.h"
#include "train.h"

/* The design points, in the order of the paper's Figure 13, then the
 * machines of its Section V-B sensitivity studies. */
enum mc_design_id {
	MC_DC, MC_HC, MC_STAR, MC_LOCAL, MC_BW, MC_ORACLE,
	MC_DC_GEN4, MC_DC_GEN4_LINK, MC_HC_POWER9, MC_DC_CDMA,
	MC_DC_TPUV2, MC_BW_TPUV2, MC_DC_DGX2, MC_BW_DGX2, MC_HC_RING,
	MC_DESIGNS
};

#define MC_NBENCH 8
#define MC_MAX_BATCHES 16
#define MC_MAX_SWEEP 16

struct mc_design {
	const char *name;
	enum dl_topology topo;
	const char *page_alloc;
	bool oracle;			/* infinite device memory */
	bool figure13;			/* one of Figure 13's six */
	enum mc_design_id base;		/* the DC-DLA of the same machine */
	/* what the machine changes from the study's */
	int devices;			/* 0: the study's */
	const char *socket;		/* --socket of the generator */
	double uplink_bw;		/* --pcie-uplink-bandwidth, B/s */
	int links;			/* --links-per-device (0: 6) */
	double link_bw;			/* --link-bandwidth, B/s (0: 25 GB/s) */
	double device_tdp_w;		/* --device-tdp (0: 300 W) */
	const char *device;		/* train --device (NULL: table2) */
	double compression;		/* train --overlay-compression (0: 1) */
	bool cnn_only;			/* runs the four CNNs only */
	const char *generation;		/* --generation of a fabric of today */
};

extern const struct mc_design mc_designs[MC_DESIGNS];
extern const char *const mc_benches[MC_NBENCH];
bool mc_bench_is_cnn(int bench);

struct mc_run {
	int mode, batch, design, bench;	/* batch: index into batches */
};

/* One machine size of a --devices sweep: what study_scale.c reports. */
struct mc_scale_point {
	int devices;
	char coll[64];					/* the collective the runs used */
	double speedup[2][MC_DESIGNS][MC_NBENCH];	/* T(DC-DLA) / T; NAN: n/a */
	double per_device[2][MC_DESIGNS][MC_NBENCH];	/* samples/s per device */
};

struct study {
	int devices;
	int sweep[MC_MAX_SWEEP];	/* --devices N,N,...: the sizes */
	int nsweep;
	double batches[MC_MAX_BATCHES];
	int nbatches;
	int modes[2], nmodes;
	int fig_batch;			/* index of Figures 11-13's batch */
	/* --plot without --batch: Figure 14's batch sizes, run for DC-DLA and
	 * MC-DLA(B) only beside the figure batch. */
	bool batch_sweep;
	bool batch_given;		/* --batch, not the paper's default */
	bool designs_given;		/* --designs */
	/* --scale-out: each size N as N / 8 system nodes joined by
	 * device-side switches (`dlasim platform --nodes`), not one machine. */
	bool scale_out;
	const char *plot_dir;		/* --plot DIR, or NULL */
	bool in_set[MC_DESIGNS];	/* designs run */
	bool sensitivity, power;	/* extra tables */
	const char *coll;
	bool overlay_spill;		/* --overlay spill */
	bool dx_reduce_scatter;		/* --dx-collective reducescatter */
	double dimm_bytes;		/* memory-node DIMMs (Table IV) */
	char workdir[PATH_MAX];
	char platform[MC_DESIGNS][PATH_MAX + 64];
	char workloads[PATH_MAX + 64];
	struct mc_run *run;
	int nruns;
	int *index;			/* [mode][batch][design][bench] -> run, -1 */
	struct mc_train_result *res;	/* per run; NAN: failed */
	struct dl_jobs jobs;
	struct dl_job_result *jr;	/* per run */
};

/* Whether design d runs at batch index b (its benchmarks aside). */
bool mc_study_planned(const struct study *st, int b, int d);
/* Where run (mode, batch, design, bench) is in st->index. */
int mc_study_slot(const struct study *st, int m, int b, int d, int w);
/* The result of (mode, batch, design, bench), NULL when it was not run. */
const struct mc_train_result *mc_study_result(const struct study *st, int m, int b, int d,
					      int w);
/* The designs of the breakdown (Figures 11 and 12, figure and table
 * alike): DC-DLA, HC-DLA and MC-DLA(B), those the study ran.  Returns how
 * many, their ids in d[0..2]. */
int mc_study_breakdown_designs(const struct study *st, int d[3]);
/* T(base) / T(design): the speedup over the DC-DLA of the same machine. */
double mc_study_speedup(const struct study *st, int m, int b, int d, int w);
/* Harmonic mean over the benchmarks both designs ran of T(slow) / T(fast);
 * NAN when a run failed or none was run. */
double mc_study_ratio(const struct study *st, int m, int b, int slow, int fast);
/* Performance per watt of a run over its base's: speedup x P(base) / P. */
double mc_study_perf_per_watt(const struct study *st, int m, int b, int d, int w);
const char *mc_mode_name(int mode);
/* The collective the runs used: --coll, else the first run's default. */
const char *mc_study_coll(const struct study *st);

void mc_study_print_table(const struct study *st);
void mc_study_print_json(const struct study *st, FILE *f);
void mc_study_print_csv(const struct study *st);
/* The sweep: one point from the runs of the study at that size, then the
 * tables of every point (study_scale.c). */
void mc_scale_record(const struct study *st, struct mc_scale_point *pt);
void mc_scale_print(const struct study *st, const struct mc_scale_point *pts, char format);
/* Figures 11-14 into `dir` (docs/figures.md). */
int mc_study_plot(const struct study *st, const char *dir);
/* The study's JSON as DIR/results.json, beside its figures. */
int mc_study_save(const struct study *st, const char *dir);

#endif
