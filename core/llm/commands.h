/* SPDX-License-Identifier: MIT */
/* The commands the transformer study adds to dlasim. */
#ifndef DL_LLM_COMMANDS_H
#define DL_LLM_COMMANDS_H

/* dlasim llm: one training iteration of a transformer on a platform. */
int cmd_llm(int argc, char **argv);

#endif
