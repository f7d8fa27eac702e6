/* SPDX-License-Identifier: MIT */
/* Options `dlasim nna` and `dlasim study nna` share. */
#ifndef NNA_OPTIONS_H
#define NNA_OPTIONS_H

#include <stddef.h>

#include "run.h"

/* Table 5.3's accelerator, with the DRAM file of the data directory
 * written into dram[len]. */
int nna_default_config(struct nna_config *cfg, char *dram, size_t len);
/* 'a' --sa, 's' --spm, 'e' --elem-bytes, 'b' --burst: 0, or the usage
 * exit status after one message naming the option. */
int nna_parse_option(struct nna_config *cfg, int c, const char *arg, const char *cmd);

#endif
