/* SPDX-License-Identifier: MIT */
/*
 * A study's result table, one metric over rows and columns, printed the
 * way every study prints one (docs/studies.md): a human table, CSV lines
 * `id,row,column,metric,value` (empty value: n/a), or one JSON object per
 * cell with the figure id, the row and column under their keys and the
 * value under the metric's name (null: n/a).  A value that is not finite
 * is n/a.
 */
#ifndef DL_TABLE_H
#define DL_TABLE_H

#include <stdbool.h>
#include <stdio.h>

#include "json.h"

enum dl_table_format { DL_TABLE_HUMAN, DL_TABLE_CSV, DL_TABLE_JSON };

struct dl_table_style {		/* the human table's look */
	int row_width;		/* the row names' column */
	int width;		/* each value's column */
	int precision;
	bool fixed;		/* %f instead of %g */
	const char *na;		/* shown for a missing value */
};

struct dl_table {
	const char *id, *title;
	const char *metric;		/* names its unit */
	const char *row_key, *col_key;	/* header and JSON keys */
	const char *const *rows;
	const char *const *cols;
	int nrows, ncols;
	const double *v;		/* v[r * stride + c] */
	int stride;
	const struct dl_table_style *style;
};

/* Human and CSV go to `out`, JSON objects into `j` (an open array). */
void dl_table_emit(const struct dl_table *t, enum dl_table_format f, struct dl_json *j,
		   FILE *out);

#endif
