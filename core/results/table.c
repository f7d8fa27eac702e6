/* SPDX-License-Identifier: MIT */
#include "table.h"

#include <math.h>
#include <stdio.h>

#include "csv.h"

static void human(const struct dl_table *t, FILE *out)
{
	const struct dl_table_style *s = t->style;

	fprintf(out, "\n%s\n  %s\n%-*s", t->title, t->metric, s->row_width, t->row_key);
	for (int c = 0; c < t->ncols; c++)
		fprintf(out, " %*s", s->width, t->cols[c]);
	fputc('\n', out);
	for (int r = 0; r < t->nrows; r++) {
		fprintf(out, "%-*s", s->row_width, t->rows[r]);
		for (int c = 0; c < t->ncols; c++) {
			double v = t->v[r * t->stride + c];

			if (!isfinite(v))
				fprintf(out, " %*s", s->width, s->na);
			else if (s->fixed)
				fprintf(out, " %*.*f", s->width, s->precision, v);
			else
				fprintf(out, " %*.*g", s->width, s->precision, v);
		}
		fputc('\n', out);
	}
}

static void cell(const struct dl_table *t, int r, int c, enum dl_table_format f,
		 struct dl_json *j, FILE *out)
{
	double v = t->v[r * t->stride + c];

	if (f == DL_TABLE_CSV) {
		const char *text[] = { t->id, t->rows[r], t->cols[c], t->metric };

		for (size_t i = 0; i < sizeof(text) / sizeof(text[0]); i++) {
			dl_csv_field(out, text[i]);
			fputc(',', out);
		}
		if (isfinite(v))
			fprintf(out, "%.9g", v);
		fputc('\n', out);
		return;
	}
	dl_json_object_begin(j, NULL);
	dl_json_str(j, "figure", t->id);
	dl_json_str(j, t->row_key, t->rows[r]);
	dl_json_str(j, t->col_key, t->cols[c]);
	if (isfinite(v))
		dl_json_num(j, t->metric, v);
	else
		dl_json_null(j, t->metric);
	dl_json_object_end(j);
}

void dl_table_emit(const struct dl_table *t, enum dl_table_format f, struct dl_json *j,
		   FILE *out)
{
	if (f == DL_TABLE_HUMAN) {
		human(t, out);
		return;
	}
	for (int r = 0; r < t->nrows; r++)
		for (int c = 0; c < t->ncols; c++)
			cell(t, r, c, f, j, out);
}
