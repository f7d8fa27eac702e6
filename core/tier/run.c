/* SPDX-License-Identifier: MIT */
#include "run.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <simgrid/cond.h>
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <simgrid/mutex.h>
#include <xbt/dynar.h>

#include "kernel/diag.h"
#include "kernel/engine.h"
#include "kernel/plugin.h"
#include "chip.h"
#include "manager.h"
#include "mem.h"
#include "monitor.h"
#include "npu.h"
#include "npu_platform.h"
#include "state.h"

/* TM-Training: 25:1 is 12.5% and 100:1 is 50% of the 32 GB per chip. */
double tier_ratio_bytes(double ratio)
{
	return ratio / 200 * NPU_ADDRESS_SPACE;
}

/* ---- the system ---- */

static int size_system(struct dlasim_tier_ctx *run, const struct tier_config *cfg)
{
	struct dlasim_tier_system *s = &run->sys;
	double need = run->g.peak_bytes, t1 = tier_ratio_bytes(cfg->tier1_ratio), hold;

	s->size = sizeof(*s);
	s->arrangement = run->ops->arrangement;
	s->address_space_bytes = NPU_ADDRESS_SPACE * cfg->batch_scale;
	s->seq = (int)run->w.seq;
	if (t1 > s->address_space_bytes)
		return dl_err("--tier1-ratio %g: tier 1 would be %.3g GiB, larger than the %.3g GiB address space of a chip",
			      cfg->tier1_ratio, t1 / GIB, s->address_space_bytes / GIB);
	switch (s->arrangement) {
	case DLASIM_TIER_HBM_ONLY:
		s->tier1_capacity_bytes = s->address_space_bytes;
		s->tier2_capacity_bytes = 0;
		hold = s->tier1_capacity_bytes;
		break;
	case DLASIM_TIER_VERTICAL:
		s->tier1_capacity_bytes = t1;
		s->tier2_capacity_bytes = s->address_space_bytes;
		hold = s->tier2_capacity_bytes;
		break;
	default:
		s->tier1_capacity_bytes = t1;
		s->tier2_capacity_bytes = s->address_space_bytes - t1;
		hold = s->address_space_bytes;
		break;
	}
	if (need > hold)
		return dl_err("workload %s fits in neither tier: it needs %.3g GiB at op %s, the tiers hold %.3g GiB (tier 1 %.3g GiB, tier 2 %.3g GiB)",
			      run->w.file, need / GIB, run->g.ops[run->g.peak_op].name, hold / GIB,
			      s->tier1_capacity_bytes / GIB, s->tier2_capacity_bytes / GIB);
	s->tier1_j_per_byte = HBM_J_PER_BYTE;
	s->tier2_j_per_byte = FLASH_J_PER_BYTE;
	s->tier1_static_w = HBM_STATIC_W_PER_GIB * s->tier1_capacity_bytes / GIB;
	s->tier2_static_w = FLASH_STATIC_W_PER_GIB * s->tier2_capacity_bytes / GIB;
	s->onchip_static_w = SRAM_STATIC_W;
	return 0;
}

/* ---- the platform ---- */

static int find_hosts(struct dlasim_tier_ctx *run, const struct dl_platform *p)
{
	for (int i = 0; i < p->nhosts; i++) {
		const struct dl_host *h = &p->hosts[i];
		const char *tier = dl_host_prop(h, "dlasim.tier");

		if (h->role == DL_ROLE_DEVICE && !run->chip)
			run->chip = h->sg;
		else if (h->role == DL_ROLE_MEMORY && tier && strcmp(tier, "1") == 0)
			run->hbm = h->sg;
		else if (h->role == DL_ROLE_MEMORY && tier && strcmp(tier, "2") == 0)
			run->flash = h->sg;
	}
	if (!run->chip || !run->hbm || !run->flash)
		return dl_err("platform %s: needs a device host and memory hosts with dlasim.tier 1 and 2 (see docs/tier.md)",
			      p->file);
	return 0;
}

static bool on_route(sg_host_t a, sg_host_t b, sg_link_t l)
{
	xbt_dynar_t links = xbt_dynar_new(sizeof(sg_link_t), NULL);
	bool found = false;
	unsigned i;
	sg_link_t x;

	sg_host_get_route(a, b, links);
	xbt_dynar_foreach (links, i, x)
		found |= x == l;
	xbt_dynar_free(&links);
	return found;
}

/* Scale the links that only tier-2 traffic uses. */
static void scale_tier2(struct dlasim_tier_ctx *run, double f)
{
	sg_link_t *links = sg_link_list();
	size_t n = sg_link_count();

	for (size_t i = 0; i < n; i++) {
		sg_link_t l = links[i];
		bool t2 = on_route(run->flash, run->chip, l) || on_route(run->chip, run->flash, l);
		bool t1 = on_route(run->hbm, run->chip, l) || on_route(run->chip, run->hbm, l);

		if (t2 && !t1)
			sg_link_set_bandwidth(l, sg_link_get_bandwidth(l) * f);
	}
	free(links);
}

static int start_platform(struct dlasim_tier_ctx *run, const struct tier_config *cfg,
			  struct dl_platform **p)
{
	int ret;

	if (cfg->platform)
		ret = dl_engine_start(cfg->platform, p);
	else
		ret = dl_engine_start_xml(npu_platform_xml(run->sys.arrangement), "npu", p);
	if (ret || find_hosts(run, *p))
		return -1;
	scale_tier2(run, cfg->tier2_bw_scale);
	run->sys.tier1_bw_Bps = sg_host_get_route_bandwidth(run->hbm, run->chip);
	run->sys.tier2_read_bw_Bps = sg_host_get_route_bandwidth(run->flash, run->chip);
	run->sys.tier2_write_bw_Bps = sg_host_get_route_bandwidth(run->chip, run->flash);
	return 0;
}

/* ---- results ---- */

static void account(struct dlasim_tier_ctx *run, struct tier_result *r)
{
	const struct dlasim_tier_system *s = &run->sys;
	double t = run->end_s, sram = 0;

	for (int i = 0; i < run->g.nops; i++)
		sram += run->g.ops[i].sram_bytes;
	r->arrangement = s->arrangement;
	r->address_space_bytes = s->address_space_bytes;
	r->tier1_capacity_bytes = s->tier1_capacity_bytes;
	r->tier2_capacity_bytes = s->tier2_capacity_bytes;
	r->params = tier_workload_params(&run->w);
	r->samples = run->g.dims.b;
	r->peak_bytes = run->g.peak_bytes;
	r->data_bytes = run->g.data_bytes;
	r->traffic_bytes = run->g.traffic_bytes;
	r->iteration_time_s = t;
	r->compute_s = run->g.compute_s;
	r->stall_s = t - run->g.compute_s;
	r->migration_bytes = r->promoted_bytes + r->demoted_bytes;
	r->energy_migration_j = r->migration_bytes * (s->tier1_j_per_byte + s->tier2_j_per_byte);
	r->energy_prefetch_j = (r->tier1_read_bytes + r->tier1_write_bytes) * s->tier1_j_per_byte +
			       (r->tier2_read_bytes + r->tier2_write_bytes) * s->tier2_j_per_byte;
	r->energy_static_j = (s->tier1_static_w + s->tier2_static_w) * t;
	r->energy_sram_j = sram * SRAM_J_PER_BYTE + s->onchip_static_w * t;
	r->energy_mac_j = run->g.macs * MAC_J;
	r->energy_j = r->energy_migration_j + r->energy_prefetch_j + r->energy_static_j +
		      r->energy_sram_j + r->energy_mac_j;
	r->throughput_samples_per_s = r->samples / t;
	r->throughput_per_watt = r->samples / r->energy_j;
	r->ops = run->g.nops;
	r->tensors = run->g.nt;
}

static int alloc_pipeline(struct dlasim_tier_ctx *run)
{
	int n = run->g.nops;

	run->t2 = malloc((size_t)n * sizeof(double));
	run->t3 = malloc((size_t)n * sizeof(double));
	run->ready = calloc((size_t)n, sizeof(bool));
	run->written = calloc((size_t)n, sizeof(bool));
	run->writers_of = calloc((size_t)n, sizeof(*run->writers_of));
	if (!run->t2 || !run->t3 || !run->ready || !run->written || !run->writers_of)
		return dl_err("out of memory");
	for (int i = 0; i < n; i++)
		run->t2[i] = run->t3[i] = -1;
	return mem_init(run);
}

static void free_run(struct dlasim_tier_ctx *run)
{
	free(run->t2);
	free(run->t3);
	free(run->ready);
	free(run->written);
	free(run->writers_of);
	mem_free_state(run);
	tier_graph_free(&run->g);
	tier_workload_free(&run->w);
	dl_plugin_close(run->plugin);
}

static int simulate(struct dlasim_tier_ctx *run, const struct tier_config *cfg)
{
	struct dl_platform *p = NULL;
	int ret = -1;

	if (size_system(run, cfg) || start_platform(run, cfg, &p) || alloc_pipeline(run))
		goto out;
	run->mutex = sg_mutex_init();
	run->changed = sg_cond_init();
	monitor_start(run);
	manager_start(run);
	chip_start(run);
	if (dl_engine_run())
		goto out;
	for (int i = 0; i < run->g.nops; i++) {
		if (!run->written[i]) {
			dl_err("internal error: op %s never completed", run->g.ops[i].name);
			goto out;
		}
	}
	account(run, run->res);
	ret = 0;
out:
	if (run->changed)
		sg_cond_destroy(run->changed);
	if (run->mutex)
		sg_mutex_destroy(run->mutex);
	dl_platform_free(p);
	return ret;
}

int tier_run(const struct tier_config *cfg, struct tier_result *res)
{
	static struct dlasim_tier_ctx run;
	const struct dlasim_tier_ops *ops;
	int ret = -1;

	memset(res, 0, sizeof(*res));
	run.res = res;
	res->tier1_ratio = cfg->tier1_ratio;
	res->batch_scale = cfg->batch_scale;
	res->tier2_bw_scale = cfg->tier2_bw_scale;
	if (tier_workload_read(&run.w, cfg->workload))
		return -1;
	snprintf(res->workload, sizeof(res->workload), "%s", run.w.name);
	if (tier_graph_build(&run.g, &run.w, cfg->batch_scale))
		goto out;
	dl_host_api.tier = &tier_services;
	if (dl_plugin_open(&run.plugin, DLASIM_KIND_TIER_PLACEMENT, cfg->policy, "--policy",
			   tier_ops_check))
		goto out;
	ops = run.plugin->desc->ops;
	memcpy(&run.ops_copy, ops, ops->size < sizeof(*ops) ? ops->size : sizeof(*ops));
	run.ops = &run.ops_copy;
	run.state = run.plugin->state;
	snprintf(res->policy, sizeof(res->policy), "%s", run.plugin->desc->name);
	ret = simulate(&run, cfg);
out:
	free_run(&run);
	return ret;
}
