/* SPDX-License-Identifier: MIT */
/*
 * The persistent memory controller's state and mechanics: transactions and
 * their lines, the buffers (ADR, staging, virtual ADRs, log queue), log
 * records and headers, the DRAM cache, the NVM operations in flight, the
 * commit and what follows it.  Requests that come from a persist plugin
 * are checked against I1-I6 in pmsvc.c; what reaches the controller from
 * the cores and the NVM is in mc.c, which also calls the plugin.
 */
#ifndef DL_NVM_PMC_H
#define DL_NVM_PMC_H

#include <stdbool.h>

#include <dlasim/persist.h>

#include "cache.h"
#include "logarea.h"

struct pmc_op;

/* Cores of one controller at most. */
#define PMC_MAX_CORES 64

/* Who broke an invariant. */
enum pmc_culprit { PMC_PERSIST = 0, PMC_LOG_ALLOC = 1 };

/* What the controller needs from around it (the run, or a unit test). */
struct pmc_env {
	void *arg;
	double (*now)(void *arg);
	/* Start an NVM operation; mc_nvm_done() follows when it completes. */
	void (*issue)(void *arg, struct pmc_op *op);
	int banks;
	int (*bank_of)(void *arg, long addr);
	int (*bank_pending)(void *arg, int bank);
	/* A core waiting on the controller may go on. */
	void (*wake)(void *arg, int core);
};

enum pmc_op_kind {
	PMC_OP_READ,		/* a core's read that missed the caches */
	PMC_OP_OLD,		/* undo: read of the old value */
	PMC_OP_ENTRY,		/* log entry write */
	PMC_OP_HEADER,		/* one block of a record header */
	PMC_OP_HOME,		/* in-place write the plugin asked for (undo) */
	PMC_OP_DRAIN,		/* flushable ADR line written in place */
	PMC_OP_INPLACE,		/* redo line written in place after the commit */
	PMC_OP_KINDS,
};

struct pmc_op {
	enum pmc_op_kind kind;
	bool write;
	long addr;
	int core;
	struct pm_tx *tx;
	int k;				/* line of tx */
	struct pm_record *rec;		/* header blocks */
	double t0;			/* issued */
	struct pmc_op *next;		/* free list */
	struct pmc_op *next_all;	/* every operation allocated (freed at the end) */
	void *dev;			/* the device's */
};

enum pm_header {
	HDR_NONE,		/* record open, or entries still persisting */
	HDR_SLOT,		/* waiting for a free slot */
	HDR_WRITING,		/* blocks in flight */
	HDR_WRITTEN,		/* persisted in NVM */
	HDR_ADR_WAIT,		/* BLOM: waiting for ADR entries */
	HDR_BUFFERED,		/* BLOM: held in the ADR */
};

struct pm_record {
	struct pm_tx *tx;
	int k[DLASIM_PM_RECORD_ENTRIES];
	int n, persisted;
	bool closed;
	bool durable;			/* header persisted or buffered */
	bool blom;			/* buffered rather than written */
	enum pm_header hdr;
	int blocks_left;
	long addr;			/* header slot, -1 none */
	double t_hdr;			/* header write requested */
	struct pm_record *next;		/* of its transaction */
	struct pm_record *qnext;	/* in a wait queue */
};

struct pm_line {
	struct dlasim_pm_line pub;
	struct pm_record *rec;
	long entry;			/* its log slot, -1 none */
	bool slot_wait;			/* waiting for a slot */
	double t0;			/* entry write requested */
	struct pm_line *qnext;		/* slot wait queue */
	struct pm_tx *tx;
	int k;
};

struct pm_tx {
	struct dlasim_pm_tx pub;
	struct pm_line *line;
	int cap;
	struct pm_record *open;		/* open record, or NULL */
	struct pm_record *recs;
	int refs;			/* queued events naming it */
	int ops;			/* NVM operations naming it */
	bool retired;
	struct pm_tx *prev, *next;	/* live transactions, by id */
};

struct pm_event {
	struct pm_tx *tx;
	int k;
	enum dlasim_pm_event ev;
};

/* Execution types of Figure 3.7. */
enum pm_exec { PM_DIRECT, PM_UNNECESSARY, PM_NECESSARY, PM_EXECS };

struct pm_stats {
	long committed;
	long exec[PM_EXECS];
	long ops[PMC_OP_KINDS];		/* NVM operations issued */
	long entries;			/* log entries written (log operations) */
	long headers_written;		/* headers written to NVM */
	long headers_buffered;		/* BLOM headers kept in the ADR */
	long header_spills;		/* BLOM headers written to make room */
	double entry_latency_s;		/* sum over entries: request to persisted */
	double commit_latency_s;	/* sum over commits: tx_end to commit */
	double commit_latency_max_s;
	double header_latency_s;	/* sum over headers written: request to persisted */
	long dram_hits, dram_lookups;
	long stalls;			/* lines the controller made a core wait for */
	long unnecessary_entries;	/* log entries of unnecessary-log transactions */
	long audits;			/* whole-state audits passed (--check) */
};

struct dlasim_pm_ctx {
	struct pmc_env env;
	const struct dlasim_pm_ops *ops;
	void *state;			/* the plugin's */
	unsigned features;
	int cores;
	int cap[DLASIM_PM_PLACES];	/* VBUF: of each core's */
	int used[DLASIM_PM_PLACES];	/* VBUF: all cores' */
	int *vbuf_used;
	int adr_headers;		/* ADR entries holding headers */
	int speculative;		/* ADR entries of uncommitted lines */
	struct pm_tx **cur;		/* in flight on each core */
	struct pm_tx *head, *tail;	/* live transactions, oldest first */
	long next_id;
	struct dlasim_la_ctx *la;
	struct nvm_cache dram;		/* when DLASIM_PM_DRAM_CACHE */
	double dram_latency_s;

	/* Events for the plugin, delivered after the current callback. */
	struct pm_event *ev;
	int ev_cap, ev_head, ev_len;
	bool space_freed;

	/* Cores: what each waits for, and the stalled lines in stall order. */
	enum { CORE_RUNS, CORE_STALLED, CORE_ENDING, CORE_READING } *waits;
	int *stall_order, nstalled;

	/* Waiting for log slots: entries, then headers. */
	struct pm_line *slot_q, *slot_q_tail;
	struct pm_record *hslot_q, *hslot_q_tail;
	/* BLOM headers waiting for ADR entries. */
	struct pm_record *adr_q, *adr_q_tail;

	struct pmc_op *free_ops;
	struct pmc_op *all_ops;		/* free or in flight at the NVM */

	bool audit;			/* audit the whole state after each event */

	/* The first broken invariant. */
	bool violated;
	enum pmc_culprit culprit;
	char why[512];

	struct pm_stats st;
};

/* Sizes of the controller (docs/nvm.md). */
struct pmc_config {
	int cores;
	int adr, staging, logq;		/* entries; VADRs have adr each */
	double dram_cache_bytes;
	int dram_cache_ways;
	double dram_latency_s;
};

int pmc_init(struct dlasim_pm_ctx *c, const struct pmc_config *cfg, const struct pmc_env *env,
	     const struct dlasim_pm_ops *ops, void *state, struct dlasim_la_ctx *la);
void pmc_free(struct dlasim_pm_ctx *c);

/* Record a broken invariant (the first one wins); returns DLASIM_ERR. */
int pmc_violation(struct dlasim_pm_ctx *c, enum pmc_culprit who, const struct pm_tx *tx,
		  const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static inline struct pm_tx *pm_tx(const struct dlasim_pm_tx *t)
{
	return (struct pm_tx *)t;
}

/* The transaction behind a plugin's pointer, NULL if it is not a live one. */
struct pm_tx *pmc_find_tx(const struct dlasim_pm_ctx *c, const struct dlasim_pm_tx *t);

/* ---- transactions (from the cores) ---- */
struct pm_tx *pmc_tx_begin(struct dlasim_pm_ctx *c, int core);
/* Append a line; its index, or -1 out of memory. */
int pmc_add_line(struct dlasim_pm_ctx *c, struct pm_tx *tx, long addr);
/* tx_end: close the open record. */
void pmc_tx_end(struct dlasim_pm_ctx *c, struct pm_tx *tx);

/* ---- lines and buffers ---- */
int pmc_room(const struct dlasim_pm_ctx *c, enum dlasim_pm_place where, int core);
void pmc_move(struct dlasim_pm_ctx *c, struct pm_tx *tx, int k, enum dlasim_pm_place to);

/* ---- logging ---- */
void pmc_log(struct dlasim_pm_ctx *c, struct pm_tx *tx, int k, enum dlasim_pm_log kind);
void pmc_close_record(struct dlasim_pm_ctx *c, struct pm_tx *tx);
void pmc_home_write(struct dlasim_pm_ctx *c, struct pm_tx *tx, int k);
void pmc_commit(struct dlasim_pm_ctx *c, struct pm_tx *tx);

/* ---- reads that missed the last-level cache ---- */
/* With a DRAM cache, look the line up (*delay_s: the lookup's time); true
 * on a hit.  Without one, false at no cost. */
bool pmc_dram_lookup(struct dlasim_pm_ctx *c, long addr, double *delay_s);
/* Read from NVM; the core is woken when the read completes. */
void pmc_nvm_read(struct dlasim_pm_ctx *c, int core, long addr);

/* ---- completions ---- */
void pmc_op_done(struct dlasim_pm_ctx *c, struct pmc_op *op);

/* ---- events ---- */
void pmc_event(struct dlasim_pm_ctx *c, struct pm_tx *tx, int k, enum dlasim_pm_event ev);
bool pmc_next_event(struct dlasim_pm_ctx *c, struct pm_event *out);
/* Drop a transaction whose lines are all home and nobody names. */
void pmc_retire_done(struct dlasim_pm_ctx *c);

#endif
