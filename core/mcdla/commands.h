/* SPDX-License-Identifier: MIT */
/* The commands the memory-centric study adds to dlasim. */
#ifndef DL_MCDLA_COMMANDS_H
#define DL_MCDLA_COMMANDS_H

/* dlasim train: one training iteration of a workload on a platform. */
int cmd_train(int argc, char **argv);
/* dlasim study mcdla: the design points x benchmarks x modes. */
int study_mcdla(int argc, char **argv);

struct dl_jv;
/* dlasim plot: study mcdla's figures from its JSON `doc` (read from
 * `file`) into `dir`; 0, or -1 after one message. */
int study_mcdla_replot(const struct dl_jv *doc, const char *file, const char *dir);

#endif
