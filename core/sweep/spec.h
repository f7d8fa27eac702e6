/* SPDX-License-Identifier: MIT */
/*
 * A sweep spec (docs/sweeps.md): `KEY = VALUE VALUE ...` lines, `#`
 * comments.  `command` names the dlasim command of every run (train, coll,
 * tier, nna, nvm, dram or llm), `name` the sweep; `platform.OPTION` keys are options of
 * `dlasim platform`, whose grid generates the platforms; every other key
 * is an option of the command, each of its values one point of the grid.
 */
#ifndef DL_SWEEP_SPEC_H
#define DL_SWEEP_SPEC_H

#define SWEEP_MAX_KEYS 32
#define SWEEP_MAX_VALUES 256

struct sweep_key {
	char *name;		/* option without "--" (or platform.OPTION) */
	char **value;
	int nvalues;
	int line;
	int generator;		/* a platform.* key */
};

struct sweep_spec {
	char *file;
	char *name;
	char *command;
	struct sweep_key key[SWEEP_MAX_KEYS];
	int nkeys;
};

/* Read and check the spec; one message naming file:line on error. */
int sweep_spec_read(struct sweep_spec *s, const char *file);
void sweep_spec_free(struct sweep_spec *s);

/* Points in the grid of the keys with generator == gen (1 if none). */
long sweep_grid_size(const struct sweep_spec *s, int gen);
/* The value index of each such key at point i, last key fastest. */
void sweep_grid_point(const struct sweep_spec *s, int gen, long i, int *index);

#endif
