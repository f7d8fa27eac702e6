/* SPDX-License-Identifier: MIT */
/*
 * CSV as RFC 4180 has it: a field holding a comma, a double quote or a
 * line break is written between double quotes, its quotes doubled.  Names
 * reach CSV output from users (plugin options such as tste:logpar=8,blom=1,
 * link ids of a platform file, sweep values), so every text field goes
 * through here.
 */
#ifndef DL_CSV_H
#define DL_CSV_H

#include <stdio.h>

/* Write s as one field (no separator). */
void dl_csv_field(FILE *f, const char *s);

/*
 * Split one record (a line; its trailing CR/LF ignored) into fields, each
 * unquoted, in *fields (n of them, each and the array to free with
 * dl_csv_free).  A quoted field may hold commas and doubled quotes, not a
 * line break.  Returns NULL, or why the line is not a record (nothing to
 * free then).
 */
const char *dl_csv_split(const char *line, char ***fields, int *n);
void dl_csv_free(char **fields, int n);

#endif
