/* SPDX-License-Identifier: MIT */
/*
 * dlasim study llm (docs/llm.md, "study llm"): the memory-centric question
 * asked of transformer training today.  The same device on five machines
 * that differ only in where what does not fit in HBM goes (host memory
 * over PCIe, Grace memory over NVLink-C2C, memory-nodes on the NVLink
 * fabric with two page allocations, a CXL pool) and an oracle of
 * unlimited device memory, for the shipped models at 64 to 16,384
 * devices.  study_llm.c plans and runs; study_llm_out.c makes the tables,
 * the JSON and the figures (and draws them again for dlasim plot).
 */
#ifndef LLM_STUDY_LLM_H
#define LLM_STUDY_LLM_H

#include <limits.h>
#include <stdbool.h>

#include "machine/platgen.h"
#include "sim.h"

/* Every machine computes on the same part: an H100 SXM (80 GB), the
 * device of the generation every fabric of today defaults to, and the
 * GPU of a GH200; NVLink domains of 8 devices on every machine. */
#define SL_DEVICE "h100-sxm"
#define SL_NODE_DEVICES 8

enum sl_machine { SL_DC, SL_HC, SL_MC_LOCAL, SL_MC_BW_AWARE, SL_CXL, SL_ORACLE, SL_MACHINES };

struct sl_machine_def {
	const char *name;		/* column name */
	enum dl_topology topo;		/* the generated platform (the oracle: DC's) */
	const char *page_alloc;		/* page-allocation plugin */
	bool oracle;			/* device memory unlimited */
};

extern const struct sl_machine_def sl_machines[SL_MACHINES];

#define SL_MODELS 4
#define SL_SIZES 5

extern const char *const sl_model_names[SL_MODELS];
extern const int sl_sizes[SL_SIZES];

/* One configuration: a model's parallel layout at one machine size. */
struct sl_layout {
	int model;			/* index into sl_model_names */
	int devices;
	long tp, pp, dp, ep;
	int zero;
};

/* The layout of model m at size index z (docs/llm.md's table). */
const struct sl_layout *sl_layout_of(int m, int z);
/* Micro-batches per pipeline (of one sequence): max(8, 2 pp). */
long sl_microbatches(const struct sl_layout *l);

#define SL_MAXCONFIGS (SL_MODELS * SL_SIZES)

struct sl_study {
	const struct sl_layout *cfg[SL_MAXCONFIGS];	/* the rows, in order */
	char label[SL_MAXCONFIGS][48];			/* "gpt3-175b/64" */
	int ncfg;
	/* The runs: configuration x machine; ok when it finished. */
	struct llm_result res[SL_MAXCONFIGS][SL_MACHINES];
	bool ok[SL_MAXCONFIGS][SL_MACHINES];
	double hbm;				/* the device's HBM, bytes (the memory figure's line) */
	char reduced[160];			/* how the run falls short of the default, or "" */
};

/* The row label of configuration l ("model/devices"). */
void sl_label(const struct sl_layout *l, char *buf, unsigned long len);
/* The configuration a row label names, NULL if none. */
const struct sl_layout *sl_parse_label(const char *label);

enum sl_format { SL_HUMAN, SL_CSV, SL_JSON };

/* Tables on stdout in format f, and with `plot_dir` the figures and
 * results.json there. */
int sl_report(const struct sl_study *s, enum sl_format f, const char *plot_dir);

#endif
