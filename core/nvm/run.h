/* SPDX-License-Identifier: MIT */
/*
 * One run of `dlasim nvm`: the cores' traces, the controller with its two
 * plugins, the NVM, one SimGrid engine; what it measured.
 */
#ifndef DL_NVM_RUN_H
#define DL_NVM_RUN_H

#include <stdbool.h>
#include <stdint.h>

struct nvm_config {
	const char *workload;		/* mix1..mix6 or a kernel */
	int cores;			/* for a kernel (a mix has 4) */
	const char *persist;		/* plugin specs */
	const char *log_alloc;
	bool line_interleave;		/* else 4 KB pages */
	int adr, staging, logq;		/* entries */
	int ntx;			/* transactions per core: its workload */
	uint64_t seed;
	double ipc;
	bool check;			/* audit I1-I6 after every event */
};

/* What a run measured, up to the moment the slowest core finished its
 * workload.  Every member names its unit. */
struct nvm_result {
	char workload[32];
	char persist[64];
	char log_alloc[64];
	int cores;
	int adr_entries;
	bool line_interleave;
	double time_s;
	long committed_tx;
	double throughput_tx_per_s;
	long direct_tx;			/* execution types (Figure 3.7) */
	long unnecessary_log_tx;
	long necessary_log_tx;
	long log_entries;		/* log operations (Figure 3.9) */
	long log_reads;			/* undo: old values read */
	long log_headers_written;
	long log_headers_buffered;
	double log_traffic_lines_per_tx;
	double entry_latency_s;		/* mean, request to persisted (Figure 4.6) */
	double commit_latency_s;	/* mean, tx_end to commit (Figure 4.7) */
	double commit_latency_max_s;
	long nvm_reads, nvm_writes;
	double bank_write_share_max;	/* busiest bank's share of the writes */
	long stalls;			/* lines a core waited to hand over */
	double llc_miss_rate;
	double dram_cache_hit_rate;
	long unnecessary_log_entries;	/* log entries of unnecessary-log transactions */
	long audits;			/* --check: whole-state audits, each passed */
	double header_latency_s;	/* mean over headers written, request to persisted */
};

int nvm_run(const struct nvm_config *cfg, struct nvm_result *res);

#endif
