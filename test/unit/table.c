/* SPDX-License-Identifier: MIT */
/* A study's table in its three forms: n/a cells, widths, keys. */
#include <math.h>
#include <stdlib.h>

#include "check.h"

#include "results/table.h"

static const char *const rows[] = { "bert", "mean" };
static const char *const cols[] = { "lad", "tste" };
/* Two rows of a three-wide array: the stride, not the column count, steps rows. */
static const double v[] = { 1.5, NAN, 99, 0.125, 12345.678, 99 };
static const struct dl_table_style style = { .row_width = 6, .width = 8, .precision = 3,
					     .na = "-" };

static char *emit(enum dl_table_format f, const struct dl_table_style *s)
{
	struct dl_table t = { .id = "fig1", .title = "Figure 1", .metric = "ratio",
			      .row_key = "model", .col_key = "design", .rows = rows, .cols = cols,
			      .nrows = 2, .ncols = 2, .v = v, .stride = 3, .style = s };
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	struct dl_json j;

	dl_json_init(&j, out);
	if (f == DL_TABLE_JSON)
		dl_json_array_begin(&j, NULL);
	dl_table_emit(&t, f, &j, out);
	if (f == DL_TABLE_JSON)
		dl_json_array_end(&j);
	fclose(out);
	return text;
}

/* Row names padded to row_width, then " " and each value right-aligned in
 * width: "bert" + 2 + 1 + 5 spaces + "1.5". */
static void human(void)
{
	char *g = emit(DL_TABLE_HUMAN, &style), *fx;
	struct dl_table_style fixed = style;

	CHECK_STR(g, "\nFigure 1\n  ratio\nmodel       lad     tste\n"
		     "bert        1.5        -\nmean      0.125 1.23e+04\n");
	fixed.fixed = true;
	fixed.precision = 2;
	fixed.na = "n/a";
	fx = emit(DL_TABLE_HUMAN, &fixed);
	CHECK_STR(fx, "\nFigure 1\n  ratio\nmodel       lad     tste\n"
		      "bert       1.50      n/a\nmean       0.12 12345.68\n");
	free(g);
	free(fx);
}

static void csv(void)
{
	char *c = emit(DL_TABLE_CSV, &style);

	CHECK_STR(c, "fig1,bert,lad,ratio,1.5\nfig1,bert,tste,ratio,\n"
		     "fig1,mean,lad,ratio,0.125\nfig1,mean,tste,ratio,12345.678\n");
	free(c);
}

static void json(void)
{
	char *t = emit(DL_TABLE_JSON, &style);

	CHECK(strstr(t, "\"figure\": \"fig1\",\n    \"model\": \"bert\",\n    \"design\": \"tste\",\n"
			"    \"ratio\": null"));
	CHECK(strstr(t, "\"model\": \"mean\",\n    \"design\": \"lad\",\n    \"ratio\": 0.125"));
	CHECK(!strstr(t, "99"));
	free(t);
}

int main(void)
{
	RUN(human);
	RUN(csv);
	RUN(json);
	CHECK_EXIT();
}
