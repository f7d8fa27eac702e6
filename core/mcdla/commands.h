/* SPDX-License-Identifier: MIT */
/* The commands the memory-centric study adds to dlasim. */
#ifndef DL_MCDLA_COMMANDS_H
#define DL_MCDLA_COMMANDS_H

/* dlasim train: one training iteration of a workload on a platform. */
int cmd_train(int argc, char **argv);
/* dlasim study mcdla: the design points x benchmarks x modes. */
int study_mcdla(int argc, char **argv);

#endif
