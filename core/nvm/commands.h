/* SPDX-License-Identifier: MIT */
/* The commands the NVM crash-consistency study adds to dlasim. */
#ifndef DL_NVM_COMMANDS_H
#define DL_NVM_COMMANDS_H

/* dlasim nvm: one workload under a persist and a log-allocation plugin. */
int cmd_nvm(int argc, char **argv);
/* dlasim study nvm: Figures 3.1, 3.7-3.10 and 4.5-4.8. */
int study_nvm(int argc, char **argv);

struct dl_jv;
/* dlasim plot: study nvm's figures from its JSON `doc` (read from `file`)
 * into `dir`; 0, or -1 after one message. */
int study_nvm_replot(const struct dl_jv *doc, const char *file, const char *dir);

#endif
