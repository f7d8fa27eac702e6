/* SPDX-License-Identifier: MIT */
/* The command the collective subsystem adds to dlasim. */
#ifndef DL_COLL_COMMANDS_H
#define DL_COLL_COMMANDS_H

/* dlasim coll: one collective operation on a platform. */
int cmd_coll(int argc, char **argv);

#endif
