/* SPDX-License-Identifier: MIT */
/*
 * A run checked, not simulated: with DLASIM_CHECK_RUN=1 in its
 * environment a command takes its options and reads its inputs as for a
 * run (every check it makes of them, in its own code), then ends with
 * status 0 where the simulation would start, having written nothing.
 * `dlasim sweep` checks each run of a spec this way before writing the
 * run list (docs/sweeps.md).  The engine calls the point before its first
 * simulated step; a command that simulates without the engine calls it
 * itself.
 */
#ifndef DL_CHECKRUN_H
#define DL_CHECKRUN_H

#include <stdbool.h>

#define DL_CHECK_RUN_ENV "DLASIM_CHECK_RUN"

/* Whether this process only checks its run. */
bool dl_check_run(void);

/* Where the simulation starts: in a checking process, remove what it
 * has registered to remove (lib/cleanup.h) and end it with status 0. */
void dl_check_run_point(void);

#endif
