/* SPDX-License-Identifier: MIT */
/* The command the memory-device service adds to dlasim. */
#ifndef DL_MEMDEV_COMMANDS_H
#define DL_MEMDEV_COMMANDS_H

/* dlasim dram: replay a request trace on a memory device. */
int cmd_dram(int argc, char **argv);

#endif
