/* SPDX-License-Identifier: MIT */
/* The commands the tiered-memory study adds to dlasim. */
#ifndef DL_TIER_COMMANDS_H
#define DL_TIER_COMMANDS_H

/* dlasim tier: one placement policy on one workload. */
int cmd_tier(int argc, char **argv);
/* dlasim study tm: TM-Training's figures. */
int study_tm(int argc, char **argv);

struct dl_jv;
/* dlasim plot: study tm's figures from its JSON `doc` (read from `file`)
 * into `dir`; 0, or -1 after one message. */
int study_tm_replot(const struct dl_jv *doc, const char *file, const char *dir);

#endif
