/* SPDX-License-Identifier: MIT */
/* The commands the NNA inference study adds to dlasim. */
#ifndef NNA_COMMANDS_H
#define NNA_COMMANDS_H

/* dlasim nna: one inference under one dataflow and one placement. */
int cmd_nna(int argc, char **argv);
/* dlasim study nna: the dissertation's Chapter 5 figures. */
int study_nna(int argc, char **argv);

struct dl_jv;
/* dlasim plot: study nna's figures from its JSON `doc` (read from `file`)
 * into `dir`; 0, or -1 after one message. */
int study_nna_replot(const struct dl_jv *doc, const char *file, const char *dir);

#endif
