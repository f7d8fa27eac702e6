/* SPDX-License-Identifier: MIT */
#include "report.h"

#include <stddef.h>
#include <stdio.h>

#include "results/csv.h"
#include "results/json.h"

/* ---- a run ---- */

enum ftype { F_DBL, F_LONG, F_INT, F_BOOL, F_STR };

struct field {
	const char *key;	/* names its unit */
	size_t offset;
	enum ftype type;
};

#define FLD(name, type) { #name, offsetof(struct nvm_result, name), type }

static const struct field fields[] = {
	FLD(workload, F_STR), FLD(persist, F_STR), FLD(log_alloc, F_STR),
	FLD(cores, F_INT), FLD(adr_entries, F_INT), FLD(line_interleave, F_BOOL),
	FLD(time_s, F_DBL), FLD(committed_tx, F_LONG), FLD(throughput_tx_per_s, F_DBL),
	FLD(direct_tx, F_LONG), FLD(unnecessary_log_tx, F_LONG), FLD(necessary_log_tx, F_LONG),
	FLD(log_entries, F_LONG), FLD(log_reads, F_LONG), FLD(log_headers_written, F_LONG),
	FLD(log_headers_buffered, F_LONG), FLD(log_traffic_lines_per_tx, F_DBL),
	FLD(entry_latency_s, F_DBL), FLD(commit_latency_s, F_DBL),
	FLD(commit_latency_max_s, F_DBL), FLD(nvm_reads, F_LONG), FLD(nvm_writes, F_LONG),
	FLD(bank_write_share_max, F_DBL), FLD(stalls, F_LONG), FLD(llc_miss_rate, F_DBL),
	FLD(dram_cache_hit_rate, F_DBL), FLD(unnecessary_log_entries, F_LONG),
	FLD(audits, F_LONG), FLD(header_latency_s, F_DBL),
};

#define NFIELDS (sizeof(fields) / sizeof(fields[0]))

/* A value for the table, or a CSV field. */
static void print_value(const struct nvm_result *r, const struct field *fd, bool csv)
{
	const char *p = (const char *)r + fd->offset;

	switch (fd->type) {
	case F_DBL: printf("%.6g", *(const double *)p); break;
	case F_LONG: printf("%ld", *(const long *)p); break;
	case F_INT: printf("%d", *(const int *)p); break;
	case F_BOOL: printf("%s", *(const bool *)p ? "true" : "false"); break;
	case F_STR:
		if (csv)
			dl_csv_field(stdout, p);
		else
			printf("%s", p);
		break;
	}
}

void nvm_print_result(const struct nvm_result *r, enum nvm_format f)
{
	struct dl_json j;

	if (f == NVM_TABLE) {
		for (size_t i = 0; i < NFIELDS; i++) {
			printf("%-28s ", fields[i].key);
			print_value(r, &fields[i], false);
			putchar('\n');
		}
		return;
	}
	if (f == NVM_CSV) {
		for (size_t i = 0; i < NFIELDS; i++)
			printf("%s%s", i ? "," : "", fields[i].key);
		putchar('\n');
		for (size_t i = 0; i < NFIELDS; i++) {
			if (i)
				putchar(',');
			print_value(r, &fields[i], true);
		}
		putchar('\n');
		return;
	}
	dl_json_result_begin(&j, stdout);
	for (size_t i = 0; i < NFIELDS; i++) {
		const char *p = (const char *)r + fields[i].offset;

		switch (fields[i].type) {
		case F_DBL: dl_json_num(&j, fields[i].key, *(const double *)p); break;
		case F_LONG: dl_json_int(&j, fields[i].key, *(const long *)p); break;
		case F_INT: dl_json_int(&j, fields[i].key, *(const int *)p); break;
		case F_BOOL: dl_json_bool(&j, fields[i].key, *(const bool *)p); break;
		case F_STR: dl_json_str(&j, fields[i].key, p); break;
		}
	}
	dl_json_object_end(&j);
	putchar('\n');
}

/* ---- write sets ---- */

const char *const nvm_wset_bin_names[NVM_WSET_BINS] = { "1-8", "9-16", "17-32", "33-64", ">64" };

static int bin_of(int lines)
{
	return lines <= 8 ? 0 : lines <= 16 ? 1 : lines <= 32 ? 2 : lines <= 64 ? 3 : 4;
}

int nvm_write_sets(const struct kernel_desc *k, int ntx, uint64_t seed, struct nvm_wset *w)
{
	struct ktrace t;
	long sum = 0, below32 = 0, below64 = 0;

	*w = (struct nvm_wset){ 0 };
	if (kernel_trace(k, 0, seed, ntx, &t))
		return -1;
	for (int i = 0; i < t.ntx; i++) {
		int n = ktrace_writes(&t, i);

		w->bin[bin_of(n)]++;
		sum += n;
		below32 += n < 32;
		below64 += n < 64;
		if (n > w->max_lines)
			w->max_lines = n;
	}
	w->tx = t.ntx;
	w->mean_lines = (double)sum / t.ntx;
	w->share_below_32 = (double)below32 / t.ntx;
	w->share_below_64 = (double)below64 / t.ntx;
	ktrace_free(&t);
	return 0;
}

int nvm_print_write_sets(int ntx, uint64_t seed, enum nvm_format f)
{
	struct dl_json j;

	if (f == NVM_TABLE)
		printf("Figure 3.1: lines written per transaction, share of %d transactions (%%)\n"
		       "%-12s %7s %7s %7s %7s %7s %10s %9s %12s\n", ntx, "kernel", "1-8", "9-16",
		       "17-32", "33-64", ">64", "mean_lines", "max_lines", "below_32_pct");
	if (f == NVM_CSV)
		printf("kernel,bin_lines,share_pct,mean_lines,max_lines,below_32_pct,below_64_pct\n");
	if (f == NVM_JSON) {
		dl_json_init(&j, stdout);
		dl_json_array_begin(&j, NULL);
	}
	for (int i = 0; i < nvm_nkernels; i++) {
		const struct kernel_desc *k = nvm_kernels[i];
		struct nvm_wset w;

		if (nvm_write_sets(k, ntx, seed, &w))
			return -1;
		if (f == NVM_TABLE) {
			printf("%-12s", k->name);
			for (int b = 0; b < NVM_WSET_BINS; b++)
				printf(" %7.1f", 100.0 * w.bin[b] / w.tx);
			printf(" %10.1f %9d %12.1f\n", w.mean_lines, w.max_lines, 100 * w.share_below_32);
		} else if (f == NVM_CSV) {
			for (int b = 0; b < NVM_WSET_BINS; b++)
				printf("%s,%s,%.4f,%.4f,%d,%.4f,%.4f\n", k->name, nvm_wset_bin_names[b],
				       100.0 * w.bin[b] / w.tx, w.mean_lines, w.max_lines,
				       100 * w.share_below_32, 100 * w.share_below_64);
		} else {
			dl_json_object_begin(&j, NULL);
			dl_json_version(&j);
			dl_json_str(&j, "kernel", k->name);
			dl_json_str(&j, "title", k->title);
			dl_json_int(&j, "transactions", w.tx);
			dl_json_object_begin(&j, "share_pct_by_lines");
			for (int b = 0; b < NVM_WSET_BINS; b++)
				dl_json_num(&j, nvm_wset_bin_names[b], 100.0 * w.bin[b] / w.tx);
			dl_json_object_end(&j);
			dl_json_num(&j, "mean_lines", w.mean_lines);
			dl_json_int(&j, "max_lines", w.max_lines);
			dl_json_num(&j, "below_32_pct", 100 * w.share_below_32);
			dl_json_num(&j, "below_64_pct", 100 * w.share_below_64);
			dl_json_object_end(&j);
		}
	}
	if (f == NVM_JSON) {
		dl_json_array_end(&j);
		putchar('\n');
	}
	return 0;
}
