/* SPDX-License-Identifier: MIT */
/*
 * A core as a transaction-level actor: it replays its kernel's trace,
 * spending each instruction's time at the clock (IPC given), looking its
 * reads up in the shared last-level cache (a miss waits for the DRAM cache
 * or the NVM), handing each written line to the memory controller (and
 * waiting when it stalls) and waiting at tx_end for the commit.  A core
 * that finishes its workload early runs it again until the slowest one
 * finishes (3.6.1).
 */
#ifndef DL_NVM_CORE_H
#define DL_NVM_CORE_H

#include "sim.h"

void core_start(struct nvm_sim *s, struct nvm_core *c);

#endif
