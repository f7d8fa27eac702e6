/* SPDX-License-Identifier: MIT */
/* The commands the transformer study adds to dlasim. */
#ifndef DL_LLM_COMMANDS_H
#define DL_LLM_COMMANDS_H

/* dlasim llm: one training iteration of a transformer on a platform. */
int cmd_llm(int argc, char **argv);
/* dlasim study llm: DC, HC, MC, CXL and an oracle for the shipped models. */
int study_llm(int argc, char **argv);

struct dl_jv;
/* dlasim plot: study llm's figures again from its results.json. */
int study_llm_replot(const struct dl_jv *doc, const char *file, const char *dir);

#endif
