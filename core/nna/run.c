/* SPDX-License-Identifier: MIT */
/* One inference: plan, model load, simulation, results (docs/nna.md). */
#include "run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/diag.h"
#include "machine/engine.h"
#include "plugin/plugin.h"
#include "sim.h"
#include "traffic.h"

/* The systolic array's clock (Table 5.3). */
#define CLOCK_HZ 1000000000

/* One host runs the accelerator's actors; its speed is unused (the array's
 * steps sleep for their cycles). */
static const char platform_xml[] =
	"<?xml version='1.0'?>\n"
	"<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
	"<!-- dlasim nna: one neural network accelerator (docs/nna.md) -->\n"
	"<platform version=\"4.1\">\n"
	"<zone id=\"accelerator\" routing=\"Full\">\n"
	"  <host id=\"nna\" speed=\"1Gf\">\n"
	"    <prop id=\"dlasim.role\" value=\"device\"/>\n"
	"  </host>\n"
	"</zone>\n"
	"</platform>\n";

struct run {
	struct nna_net net;
	struct nna_tiles x;
	struct nna_schedule s;
	struct nna_traffic *per_layer, sum;
	struct nna_mem *mem;
	struct dlasim_dram_geometry g;
	struct dl_plugin *df, *place;
	struct dlasim_dram_ctx dram;
	struct nna_dma dma;
	struct nna_sim sim;
};

/* ---- model load: weights and inputs placed in the order of first use ---- */

struct loader {
	struct run *r;
	int failed;
};

static int place_once(struct run *r, long d)
{
	struct dlasim_dtile t;

	nna_dtile_describe(&r->x, d, &t);
	if (nna_dram_placed(&r->dram, d) || t.blocks == 0)
		return 0;
	return nna_dram_place(&r->dram, d, &t);
}

static void load_piece(const struct nna_piece *p, void *arg)
{
	struct loader *l = arg;

	if (!l->failed && l->r->x.d[p->dtile].kind == DLASIM_DTILE_INPUT)
		l->failed = place_once(l->r, p->dtile);
}

static int load_model(struct run *r)
{
	const struct nna_schedule *s = &r->s;
	struct loader l = { r, 0 };
	int layer = 0;

	r->dram.loading = true;
	for (long j = 0; j < s->nsteps && !l.failed; j++) {
		const int *at = s->step[j].at;

		while (j >= s->first[layer + 1])
			layer++;
		if (s->flags[j] & NNA_READ_WEIGHT)
			l.failed = place_once(r, nna_weight_dtile(&r->x, layer, at));
		if (s->flags[j] & NNA_READ_IFMAP)
			nna_ifmap_pieces(&r->x, layer, nna_ifmap_group(&r->x, layer, at),
					 at[DLASIM_LOOP_Y], load_piece, &l);
		if ((s->flags[j] & NNA_FINAL) && r->net.layer[layer].skip >= 0)
			nna_skip_pieces(&r->x, layer, at[DLASIM_LOOP_K], at[DLASIM_LOOP_Y],
					load_piece, &l);
	}
	r->dram.loading = false;
	return l.failed ? -1 : 0;
}

/* ---- results ---- */

static double channels_used(const struct run *r)
{
	bool used[64] = { false };
	double n = 0;

	for (long i = 0; i < r->dram.next; i++)
		if (r->dram.ext[i].ch < 64 && !used[r->dram.ext[i].ch]) {
			used[r->dram.ext[i].ch] = true;
			n++;
		}
	return n;
}

/* Time by layer class (Figures 5.2, 5.3) and the layers ARAI reorders. */
static void account_layers(const struct run *r, struct nna_result *res)
{
	const struct nna_sim *sim = &r->sim;

	for (int i = 0; i < r->net.nlayers; i++) {
		const struct nna_layer_time *lt = &sim->lt[i];
		struct nna_class_time *c = &res->cls[r->net.layer[i].cls];

		res->compute_s += lt->compute_s;
		if (r->x.t[i].n[DLASIM_LOOP_F] > 1) {
			res->multigroup_layers++;
			res->multigroup_time_s += lt->end_s - lt->start_s;
			res->multigroup_ifmap_bytes += r->per_layer[i].ifmap_bytes;
		}
		c->time_s += lt->end_s - lt->start_s;
		c->stall_s += lt->end_s - lt->start_s - lt->compute_s;
		c->layers++;
	}
}

static void account(struct run *r, const struct nna_config *cfg, struct nna_result *res)
{
	const struct nna_sim *sim = &r->sim;
	struct nna_mem_stats st;

	nna_mem_stats(r->mem, sim->end_s, &st);
	res->layers = r->net.nlayers;
	res->steps = r->s.nsteps;
	res->dtiles = r->x.ndtiles;
	res->inference_time_s = sim->end_s;
	res->last_transfer_end_s = sim->last_transfer_end_s;
	account_layers(r, res);
	res->stall_s = res->inference_time_s - res->compute_s;
	res->weight_bytes = r->sum.weight_bytes;
	res->ifmap_bytes = r->sum.ifmap_bytes;
	res->skip_bytes = r->sum.skip_bytes;
	res->read_blocks = r->sum.read_blocks;
	res->write_blocks = r->sum.write_blocks;
	res->read_bytes = st.read_bytes;
	res->write_bytes = st.write_bytes;
	res->busy_s = st.busy_s;
	res->bandwidth_busy_Bps = st.busy_s > 0 ? (st.read_bytes + st.write_bytes) / st.busy_s : 0;
	res->bandwidth_total_Bps = (st.read_bytes + st.write_bytes) / sim->end_s;
	res->clp = st.clp;
	res->blp = st.blp;
	res->row_hit_rate = st.row_hit_rate;
	res->channels_used = channels_used(r);
	res->rowtasks_per_written_dtile = sim->written_dtiles > 0 ?
					  sim->written_rowtasks / sim->written_dtiles : 0;
	res->rowtasks_per_read = sim->read_pieces > 0 ? sim->read_rowtasks / sim->read_pieces : 0;
	res->rowtasks_per_weight_read = sim->weight_reads > 0 ?
					sim->weight_rowtasks / sim->weight_reads : 0;
	res->load_bytes = nna_load_bytes(&r->x);
	res->fmap_bytes = nna_fmap_bytes(&r->x);
	(void)cfg;
}

/* The DRAM served what the plan says, block for block. */
static int check_counts(const struct run *r, const struct nna_result *res)
{
	double b = r->g.block_bytes;

	if (res->read_bytes != r->sum.read_blocks * b || res->write_bytes != r->sum.write_blocks * b)
		return dl_err("internal error: the DRAM served %.0f read and %.0f written bytes, the schedule has %.0f and %.0f",
			      res->read_bytes, res->write_bytes, r->sum.read_blocks * b,
			      r->sum.write_blocks * b);
	return 0;
}

/* ---- the run ---- */

static int plan(struct run *r, const struct nna_config *cfg)
{
	struct nna_array a = { cfg->sa, cfg->spm_bytes, cfg->elem_bytes, 0, 0 };

	if (nna_net_read(&r->net, cfg->workload) || nna_mem_open(&r->mem, cfg->dram, &r->g))
		return -1;
	a.block_bytes = r->g.block_bytes;
	a.row_bytes = r->g.row_bytes;
	if (nna_tiles_build(&r->x, &r->net, &a))
		return -1;
	dl_host_api.dataflow = &nna_dataflow_services;
	if (dl_plugin_open(&r->df, DLASIM_KIND_DATAFLOW, cfg->dataflow, "--dataflow",
			   nna_dataflow_ops_check) ||
	    nna_schedule_build(&r->s, &r->x, r->df))
		return -1;
	r->per_layer = calloc((size_t)r->net.nlayers, sizeof(*r->per_layer));
	if (!r->per_layer)
		return dl_err("out of memory");
	nna_traffic_count(&r->x, &r->s, r->per_layer, &r->sum);
	dl_host_api.dram = &nna_dram_services;
	if (dl_plugin_open(&r->place, DLASIM_KIND_DRAM_PLACEMENT, cfg->placement, "--dram-place",
			   nna_dram_ops_check) ||
	    nna_dram_init(&r->dram, &r->g, r->place, r->x.ndtiles) ||
	    nna_dma_init(&r->dma, &r->dram, cfg->burst))
		return -1;
	return load_model(r);
}

static void free_run(struct run *r)
{
	nna_dma_free(&r->dma);
	if (r->dram.first)
		nna_dram_free(&r->dram);
	dl_plugin_close(r->place);
	dl_plugin_close(r->df);
	free(r->sim.lt);
	free(r->per_layer);
	nna_schedule_free(&r->s);
	if (r->x.t)
		nna_tiles_free(&r->x);
	if (r->mem)
		nna_mem_close(r->mem);
	nna_net_free(&r->net);
}

static void name_result(struct nna_result *res, const struct run *r, const struct nna_config *cfg)
{
	snprintf(res->workload, sizeof(res->workload), "%s", r->net.name);
	snprintf(res->dataflow, sizeof(res->dataflow), "%s", r->df->desc->name);
	snprintf(res->placement, sizeof(res->placement), "%s", r->place->desc->name);
	res->sa = cfg->sa;
	res->spm_bytes = cfg->spm_bytes;
	res->elem_bytes = cfg->elem_bytes;
}

int nna_run(const struct nna_config *cfg, struct nna_result *res)
{
	static struct run r;
	struct dl_platform *p = NULL;
	int ret = -1;

	memset(&r, 0, sizeof(r));
	memset(res, 0, sizeof(*res));
	if (plan(&r, cfg) || dl_engine_start_xml(platform_xml, "nna", &p))
		goto out;
	name_result(res, &r, cfg);
	r.sim = (struct nna_sim){ .x = &r.x, .s = &r.s, .dram = &r.dram, .dma = &r.dma,
				  .mem = r.mem, .clock_hz = CLOCK_HZ };
	if (nna_sim_run(&r.sim))
		goto out;
	account(&r, cfg, res);
	ret = check_counts(&r, res);
out:
	dl_platform_free(p);
	free_run(&r);
	return ret;
}
