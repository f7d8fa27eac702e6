/* SPDX-License-Identifier: MIT */
/*
 * study mcdla's results file: its JSON written beside the figures
 * (--plot DIR: DIR/results.json), and read back by `dlasim plot` to draw
 * the same figures through study_plot.c without running anything.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/strmap.h"
#include "lib/diag.h"
#include "results/jsonread.h"
#include "results/outfile.h"
#include "commands.h"
#include "study.h"

int mc_study_save(const struct study *st, const char *dir)
{
	struct dl_outfile o;

	if (dl_outfile_open_results(&o, dir))
		return -1;
	mc_study_print_json(st, o.f);
	return dl_outfile_commit(&o);
}

/* ---- read back ---- */

static int design_index(const char *name)
{
	for (int d = 0; name && d < MC_DESIGNS; d++)
		if (strcmp(mc_designs[d].name, name) == 0)
			return d;
	return -1;
}

static int batch_index(const struct study *st, double batch)
{
	for (int b = 0; b < st->nbatches; b++)
		if (st->batches[b] == batch)
			return b;
	return -1;
}

/* The batches and modes of the runs; Figures 11-13 at 512 if it ran. */
static int read_shape(struct study *st, const struct dl_jv *doc, const char *file)
{
	const struct dl_jv *b = dl_jv_get(doc, "batches"), *runs = dl_jv_get(doc, "runs");
	bool mode[2] = { false, false };

	if (!b || b->type != DL_JV_ARR || b->n < 1 || b->n > MC_MAX_BATCHES ||
	    !runs || runs->type != DL_JV_ARR || runs->n < 1)
		return dl_err("%s: no batches or runs of study mcdla", file);
	for (int i = 0; i < b->n; i++) {
		st->batches[st->nbatches++] = dl_jv_num(&b->item[i]);
		if (!(st->batches[i] >= 1))
			return dl_err("%s: batches[%d]: not a batch size", file, i);
		if (st->batches[i] == 512)
			st->fig_batch = i;
	}
	for (int i = 0; i < runs->n; i++) {
		const char *p = dl_jv_str(dl_jv_get(&runs->item[i], "parallel"));

		if (!p || (strcmp(p, "data") && strcmp(p, "model")))
			return dl_err("%s: runs[%d]: parallel is not data or model", file, i);
		mode[p[0] == 'm'] = true;
	}
	for (int m = 0; m < 2; m++)
		if (mode[m])
			st->modes[st->nmodes++] = m == 0 ? MC_DATA_PARALLEL : MC_MODEL_PARALLEL;
	return 0;
}

/* Run i of the file into st->run[i] and st->res[i]. */
static int read_run(struct study *st, const struct dl_jv *r, int i, const char *file)
{
	static const struct {
		const char *key;
		size_t off;
	} fields[] = {
#define F(key, field) { key, offsetof(struct mc_train_result, field) }
		F("iteration_time_s", iteration_s), F("compute_s", compute_s), F("sync_s", sync_s),
		F("sync_exposed_s", sync_exposed_s), F("sync_wait_s", sync_wait_s),
		F("virt_s", virt_s), F("virt_exposed_s", virt_exposed_s),
		F("cpu_mem_bw_avg_Bps", cpu_mem_bw_avg_Bps), F("cpu_mem_bw_max_Bps", cpu_mem_bw_max_Bps),
		F("memory_node_tdp_w", memory_node_tdp_w), F("system_power_w", system_power_w),
#undef F
	};
	const char *par = dl_jv_str(dl_jv_get(r, "parallel"));
	int d = design_index(dl_jv_str(dl_jv_get(r, "design")));
	int w = dl_str_index(mc_benches, MC_NBENCH, dl_jv_str(dl_jv_get(r, "workload")));
	int b = batch_index(st, dl_jv_num(dl_jv_get(r, "batch")));
	int m = st->modes[0] == (par[0] == 'd' ? MC_DATA_PARALLEL : MC_MODEL_PARALLEL) ? 0 : 1;

	if (d < 0 || w < 0 || b < 0)
		return dl_err("%s: runs[%d]: %s not one of study mcdla's", file, i,
			      d < 0 ? "its design is" : w < 0 ? "its workload is" : "its batch is");
	if (st->index[mc_study_slot(st, m, b, d, w)] >= 0)
		return dl_err("%s: runs[%d]: the same run twice", file, i);
	st->index[mc_study_slot(st, m, b, d, w)] = i;
	st->run[i] = (struct mc_run){ m, b, d, w };
	st->in_set[d] = true;
	memset(&st->res[i], 0, sizeof(st->res[i]));
	for (size_t k = 0; k < sizeof(fields) / sizeof(fields[0]); k++)
		*(double *)((char *)&st->res[i] + fields[k].off) = dl_jv_num(dl_jv_get(r, fields[k].key));
	return 0;
}

static bool ran_at(const struct study *st, int b, int d)
{
	for (int w = 0; w < MC_NBENCH; w++)
		if (st->index[mc_study_slot(st, 0, b, d, w)] >= 0)
			return true;
	return false;
}

/* Whether a design of the set missed a batch: --plot's Figure 14 sweep
 * (DC-DLA and MC-DLA(B) alone at every batch). */
static bool some_batch_missed(const struct study *st)
{
	for (int b = 0; b < st->nbatches; b++)
		for (int d = 0; d < MC_DESIGNS; d++)
			if (st->in_set[d] && !ran_at(st, b, d))
				return true;
	return false;
}

int study_mcdla_replot(const struct dl_jv *doc, const char *file, const char *dir)
{
	static struct study st;
	const struct dl_jv *runs = dl_jv_get(doc, "runs");
	int slots, ret = -1;

	memset(&st, 0, sizeof(st));
	if (read_shape(&st, doc, file))
		return -1;
	slots = st.nmodes * st.nbatches * MC_DESIGNS * MC_NBENCH;
	st.nruns = runs->n;
	st.run = calloc(st.nruns, sizeof(*st.run));
	st.res = calloc(st.nruns, sizeof(*st.res));
	st.index = malloc(slots * sizeof(int));
	if (!st.run || !st.res || !st.index) {
		dl_err("out of memory");
		goto out;
	}
	for (int s = 0; s < slots; s++)
		st.index[s] = -1;
	for (int i = 0; i < runs->n; i++)
		if (read_run(&st, &runs->item[i], i, file))
			goto out;
	st.batch_sweep = some_batch_missed(&st);
	ret = mc_study_plot(&st, dir);
out:
	free(st.run);
	free(st.res);
	free(st.index);
	return ret;
}
