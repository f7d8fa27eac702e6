/* SPDX-License-Identifier: MIT */
/* Commands of core/sweep. */
#ifndef DL_SWEEP_COMMANDS_H
#define DL_SWEEP_COMMANDS_H

int cmd_sweep(int argc, char **argv);
int cmd_merge(int argc, char **argv);

#endif
