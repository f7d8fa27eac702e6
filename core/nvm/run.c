/* SPDX-License-Identifier: MIT */
#include "run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <simgrid/semaphore.h>

#include "lib/diag.h"
#include "machine/engine.h"
#include "plugin/plugin.h"
#include "core.h"
#include "mc.h"
#include "nvmdev.h"
#include "nvmsys.h"
#include "workload.h"

/* One host for everything: the actors only wait, none computes. */
static const char platform[] =
	"<?xml version='1.0'?>\n"
	"<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
	"<!-- dlasim nvm: cores, memory controller and NVM as actors of one host -->\n"
	"<platform version=\"4.1\">\n"
	"<zone id=\"nvm\" routing=\"Full\">\n"
	"  <host id=\"cpu\" speed=\"2Gf\"/>\n"
	"</zone>\n"
	"</platform>\n";

static int make_traces(struct nvm_sim *s, const struct nvm_workload *w, const struct nvm_config *cfg)
{
	s->ncores = w->cores;
	for (int c = 0; c < w->cores; c++) {
		struct nvm_core *core = &s->core[c];

		core->id = c;
		core->sim = s;
		core->kernel = w->core[c];
		/* Each core its own data, its own random numbers. */
		if (kernel_trace(core->kernel, (long)c * NVM_CORE_REGION, cfg->seed * 1000003u + (unsigned)c,
				 cfg->ntx, &core->trace))
			return -1;
	}
	return 0;
}

static void free_sim(struct nvm_sim *s)
{
	for (int c = 0; c < s->ncores; c++) {
		ktrace_free(&s->core[c].trace);
		if (s->core[c].wake)
			sg_sem_destroy(s->core[c].wake);
	}
	nvm_ctl_close(&s->ctl);
	nvmdev_free(s->dev);
	nvm_cache_free(&s->llc);
}

/* The run ended without every core finishing: somebody waits forever. */
static void report_deadlock(struct nvm_sim *s)
{
	struct dlasim_pm_ctx *pmc = &s->ctl.pmc;

	for (int c = 0; c < s->ncores; c++) {
		struct pm_tx *tx = pmc->cur[c];

		if (s->core[c].done || !tx)
			continue;
		if (pmc->waits[c] == CORE_STALLED)
			dl_sim_plugin_error(s->ctl.persist, "",
					    "transaction %ld (core %d): line %d was never taken (on_write() kept answering DLASIM_PM_WAIT)",
					    tx->pub.id, c, tx->pub.lines - 1);
		if (pmc->waits[c] == CORE_ENDING)
			dl_sim_plugin_error(s->ctl.persist, "",
					    "transaction %ld (core %d) ended and was never committed",
					    tx->pub.id, c);
	}
	dl_err("internal error: the simulation stopped before every core finished");
}

static void account(const struct nvm_sim *s, const struct nvm_config *cfg, struct nvm_result *r)
{
	const struct pm_stats *st = &s->at_end;
	long committed = 0, llc = s->llc_hits + s->llc_misses;

	for (int c = 0; c < s->ncores; c++)
		committed += s->core[c].committed;
	r->cores = s->ncores;
	r->adr_entries = cfg->adr;
	r->line_interleave = cfg->line_interleave;
	r->time_s = s->end_s;
	r->committed_tx = committed;
	r->throughput_tx_per_s = committed / s->end_s;
	r->direct_tx = st->exec[PM_DIRECT];
	r->unnecessary_log_tx = st->exec[PM_UNNECESSARY];
	r->necessary_log_tx = st->exec[PM_NECESSARY];
	r->unnecessary_log_entries = st->unnecessary_entries;
	r->audits = st->audits;
	r->log_entries = st->entries;
	r->log_reads = st->ops[PMC_OP_OLD];
	r->log_headers_written = st->headers_written;
	r->log_headers_buffered = st->headers_buffered;
	r->log_traffic_lines_per_tx =
		st->committed ? (double)(st->ops[PMC_OP_OLD] + st->ops[PMC_OP_ENTRY] +
					 st->ops[PMC_OP_HEADER]) / st->committed : 0;
	r->entry_latency_s = st->entries ? st->entry_latency_s / st->entries : 0;
	r->commit_latency_s = st->committed ? st->commit_latency_s / st->committed : 0;
	r->commit_latency_max_s = st->commit_latency_max_s;
	r->header_latency_s = st->headers_written ? st->header_latency_s / st->headers_written : 0;
	r->stalls = st->stalls;
	r->llc_miss_rate = llc ? (double)s->llc_misses / llc : 0;
	r->dram_cache_hit_rate = st->dram_lookups ? (double)st->dram_hits / st->dram_lookups : 0;
	r->nvm_reads = s->nvm_reads;
	r->nvm_writes = s->nvm_writes;
	r->bank_write_share_max = s->busiest_write_share;
}

static int simulate(struct nvm_sim *s, const struct nvm_config *cfg)
{
	struct pmc_config pc = {
		.cores = s->ncores, .adr = cfg->adr, .staging = cfg->staging, .logq = cfg->logq,
		.dram_cache_bytes = NVM_DRAM_CACHE_BYTES, .dram_cache_ways = NVM_DRAM_CACHE_WAYS,
		.dram_latency_s = NVM_DRAM_CACHE_CYCLES / NVM_CLOCK_HZ,
	};
	struct pmc_env env;
	struct dl_platform *p = NULL;
	int ret = -1;

	if (dl_engine_start_xml(platform, "nvm", &p))
		return -1;
	if (!(s->dev = nvmdev_open(s, cfg->line_interleave, &env)))
		goto out;
	env.now = sim_now;
	env.wake = sim_wake;
	env.arg = s;
	if (nvm_ctl_open(&s->ctl, cfg->persist, cfg->log_alloc, &pc, &env,
			 nvm_bytes(s->ncores) - NVM_LOG_AREA, NVM_LOG_AREA))
		goto out;
	mc_set_audit(&s->ctl.pmc, cfg->check);
	if (nvm_cache_init(&s->llc, NVM_LLC_BYTES, NVM_LLC_WAYS))
		goto out;
	s->insn_s = 1 / (NVM_CLOCK_HZ * cfg->ipc);
	for (int c = 0; c < s->ncores; c++) {
		s->core[c].wake = sg_sem_init(0);
		core_start(s, &s->core[c]);
	}
	dl_engine_run();
	if (!s->stop)
		report_deadlock(s);
	else
		ret = 0;
out:
	dl_platform_free(p);
	return ret;
}

int nvm_run(const struct nvm_config *cfg, struct nvm_result *res)
{
	static struct nvm_sim s;
	struct nvm_workload w;
	int ret = -1;

	memset(res, 0, sizeof(*res));
	memset(&s, 0, sizeof(s));
	/* The plugins are checked before the traces, which take seconds on
	 * many cores. */
	if (nvm_workload_find(&w, cfg->workload, cfg->cores, "--workload") ||
	    dl_plugin_check(DLASIM_KIND_PERSIST, cfg->persist, "--persist", NULL) ||
	    dl_plugin_check(DLASIM_KIND_LOG_ALLOC, cfg->log_alloc, "--log-alloc", NULL) ||
	    make_traces(&s, &w, cfg))
		goto out;
	if (simulate(&s, cfg))
		goto out;
	snprintf(res->workload, sizeof(res->workload), "%s", w.name);
	snprintf(res->persist, sizeof(res->persist), "%s", cfg->persist);
	snprintf(res->log_alloc, sizeof(res->log_alloc), "%s", cfg->log_alloc);
	account(&s, cfg, res);
	ret = 0;
out:
	free_sim(&s);
	return ret;
}
