/* SPDX-License-Identifier: MIT */
/*
 * One simulated run's shared state: the cores, the last-level cache, the
 * memory controller with its plugins, the NVM, and when the run ends.
 */
#ifndef DL_NVM_SIM_H
#define DL_NVM_SIM_H

#include <stdbool.h>

#include <simgrid/forward.h>

#include "cache.h"
#include "ctl.h"
#include "nvmbench/kernels.h"

struct nvm_sim;
struct nvmdev;
struct memdev;
struct memdev_actor;

#define NVM_MAX_BANKS 64

struct nvm_core {
	int id;
	bool wake_due;		/* the controller woke it: release `wake` */
	struct nvm_sim *sim;
	const struct kernel_desc *kernel;
	struct ktrace trace;
	sg_sem_t wake;		/* released by the controller */
	long committed;		/* transactions committed before the run ended */
	bool done;		/* its workload ran once */
};

struct nvm_sim {
	struct nvm_ctl ctl;
	struct nvmdev *dev;
	struct memdev *mem;		/* the NVM */
	struct memdev_actor *drv;	/* its channel's actor */
	struct nvm_core core[PMC_MAX_CORES];
	int ncores;
	struct nvm_cache llc;
	double insn_s;		/* one instruction */
	int finished;		/* cores whose workload ran once */
	bool stop;		/* the slowest core finished: the run is over */
	double end_s;
	struct pm_stats at_end;	/* the controller's counts when it ended */
	bool kick_due;		/* the NVM has new work: wake its actor */
	long llc_hits, llc_misses;
	long bank_reads[NVM_MAX_BANKS], bank_writes[NVM_MAX_BANKS];	/* issued so far */
	long nvm_reads, nvm_writes;	/* issued by then */
	double busiest_write_share;	/* the busiest bank's share of them */
};

/*
 * The controller's clock and wake-up, for its environment.  A simcall
 * lets other actors run, so none may happen while the controller is
 * midway through an event: sim_wake() only notes the wake-up, and
 * sim_flush() performs the noted ones (and kicks the NVM's actor) after
 * the controller call returned.
 */
double sim_now(void *arg);
void sim_wake(void *arg, int core);
void sim_flush(struct nvm_sim *s);
/* A plugin broke an invariant: report it (naming the plugin) and end. */
void sim_fail(struct nvm_sim *s) __attribute__((noreturn));
/* The last core finished its workload: the run ends now. */
void sim_core_done(struct nvm_sim *s, struct nvm_core *c);

#endif
