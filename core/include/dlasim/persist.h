/* SPDX-License-Identifier: MIT */
/*
 * Persistence-logging plugins (DLASIM_KIND_PERSIST).
 *
 * Cores run transactions on persistent memory (NVM) behind one memory
 * controller.  Every transaction writes a set of 64 B lines; each line
 * reaches the controller once (after the core's last store to it) and the
 * plugin decides what happens to it: which buffer holds it, whether it is
 * logged (undo or redo) and when the transaction commits.  The host owns
 * the buffers, the NVM, the log records and the DRAM cache, and carries
 * out what the plugin asks through `host->persist`:
 *
 *   ADR    the write pending queue, inside the persistence domain;
 *   STAGE  a staging SRAM (TSTE), volatile;
 *   VBUF   one virtual ADR per core (VADR), volatile;
 *   LOGQ   the log queue of the hardware-logging controller, volatile.
 *
 * A line of a transaction is always in exactly one place (enum
 * dlasim_pm_place).  Log entries of a transaction are grouped into records
 * of at most DLASIM_PM_RECORD_ENTRIES entries and one header; a header is
 * written after all entries of its record persist (intra-record ordering),
 * or kept in the ADR with DLASIM_PM_BLOM.  Entry and header addresses come
 * from the log-allocation plugin (<dlasim/log_alloc.h>).
 *
 * What the host does by itself: it drains flushable ADR lines in place;
 * when a redo entry persists it moves the line out of its buffer (the DRAM
 * cache holds the value) and writes it in place after the commit; it
 * releases log slots and buffered headers when a committed transaction's
 * lines are all home.  Everything else is the plugin's choice.
 *
 * The host checks every request against the crash-consistency invariants
 * and stops the run with one line naming the plugin and the transaction
 * when one is broken:
 *   I1  an in-place write of an uncommitted transaction's line needs its
 *       undo entry durable (entry persisted, header persisted or buffered);
 *   I2  a commit needs every redo entry of the transaction durable; redo
 *       lines are written in place only after the commit;
 *   I3  only flushable ADR lines drain; lines of an uncommitted
 *       transaction are never flushable;
 *   I4  a commit needs the transaction ended and each of its lines in the
 *       ADR (it becomes flushable), redo-durable, or home;
 *   I5  no buffer holds more than its capacity;
 *   I6  every line of a transaction is in exactly one place.
 * With `dlasim nvm --check` the host also audits the whole state against
 * I1-I6 after every event (a crash at any instant would recover).
 *
 * Callbacks run inside SimGrid actors and must not block.  Structs are
 * append-only and start with their size.  Guide: docs/nvm-plugins.md.
 */
#ifndef DLASIM_PERSIST_H
#define DLASIM_PERSIST_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <dlasim/plugin.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DLASIM_PERSIST_OPS_VERSION 1u

/* Cores of one controller at most (plugins may keep per-core arrays). */
#define DLASIM_PM_MAX_CORES 64

/* Entries per log record (log entry collation: 7 entries, one header). */
#define DLASIM_PM_RECORD_ENTRIES 7

/* on_write(): the line cannot be taken now.  The core stalls; the host
 * offers the same line again after buffer entries are freed. */
#define DLASIM_PM_WAIT 1

/* Where a line of a transaction is. */
enum dlasim_pm_place {
	DLASIM_PM_NONE = 0,	/* not accepted yet */
	DLASIM_PM_ADR = 1,	/* ADR buffer (persistence domain) */
	DLASIM_PM_STAGE = 2,	/* staging SRAM (volatile) */
	DLASIM_PM_VBUF = 3,	/* the core's virtual ADR (volatile) */
	DLASIM_PM_LOGQ = 4,	/* log queue (volatile) */
	DLASIM_PM_DRAM = 5,	/* redo entry persisted, value in the DRAM cache */
	DLASIM_PM_HOME = 6,	/* written in place and persisted */
	DLASIM_PM_PLACES = 7,
};

enum dlasim_pm_log {
	DLASIM_PM_NOLOG = 0,
	DLASIM_PM_UNDO = 1,	/* old value: NVM read, then entry write */
	DLASIM_PM_REDO = 2,	/* new value: entry write */
};

enum dlasim_pm_log_state {
	DLASIM_PM_LOG_NONE = 0,
	DLASIM_PM_LOG_ISSUED = 1,	/* read and/or entry write in flight */
	DLASIM_PM_LOG_PERSISTED = 2,	/* entry in NVM, header not yet */
	DLASIM_PM_LOG_DURABLE = 3,	/* entry and header persisted or buffered */
};

/* Events of on_done(). */
enum dlasim_pm_event {
	DLASIM_PM_EV_LOGGED = 1,	/* the line's log entry persisted */
	DLASIM_PM_EV_DURABLE = 2,	/* ... and its record header is durable */
	DLASIM_PM_EV_HOME = 3,		/* an in-place write the plugin issued persisted */
};

/* What a plugin needs besides the ADR (ops->features). */
#define DLASIM_PM_USES_STAGE 0x1u	/* the staging SRAM */
#define DLASIM_PM_USES_VBUF 0x2u	/* one virtual ADR per core */
#define DLASIM_PM_USES_LOGQ 0x4u	/* the log queue */
#define DLASIM_PM_DRAM_CACHE 0x8u	/* a DRAM cache holds redo-logged values;
					 * every NVM read looks it up first */
#define DLASIM_PM_BLOM 0x10u		/* record headers buffered in the ADR */

/* One line of a transaction. */
struct dlasim_pm_line {
	long addr;			/* home address (64 B aligned) */
	enum dlasim_pm_place place;
	bool flushable;			/* in the ADR and free to drain */
	enum dlasim_pm_log log;		/* kind of its log entry, if any */
	enum dlasim_pm_log_state log_state;
	bool home_issued;		/* its in-place write was issued */
};

/* A transaction; the host updates it as the run goes on.  One transaction
 * per core is in flight (started and not committed) at a time. */
struct dlasim_pm_tx {
	size_t size;
	long id;		/* run-wide, increasing with start time */
	int core;
	int lines;		/* lines offered so far: line k in [0, lines) */
	bool ended;		/* the core issued tx_end: no more lines */
	bool committed;
	int in[DLASIM_PM_PLACES];	/* its lines in each place */
	int logs_issued;	/* log entries issued */
	int logs_inflight;	/* issued, entry not yet persisted */
	int logs_undurable;	/* issued, not yet durable */
	int homes_inflight;	/* plugin-issued in-place writes not yet done */
	double start_s;
	double end_s;		/* when it ended (valid once `ended`) */
};

struct dlasim_pm_ctx;		/* the controller, handed to every callback */

struct dlasim_pm_ops {
	size_t size;		/* sizeof(struct dlasim_pm_ops) of the plugin */
	/* DLASIM_PM_* feature flags, read once before the run (they may
	 * depend on the plugin's options).  NULL: none. */
	unsigned (*features)(void *state);
	/* Line k of `tx` arrived.  Place it (place()), maybe log it, return
	 * DLASIM_OK; or return DLASIM_PM_WAIT leaving it unplaced. */
	int (*on_write)(void *state, struct dlasim_pm_ctx *ctx,
			const struct dlasim_pm_tx *tx, int k);
	/* `tx` ended: every line arrived, its last record closed.  The core
	 * waits until the plugin commits it. */
	int (*on_tx_end)(void *state, struct dlasim_pm_ctx *ctx,
			 const struct dlasim_pm_tx *tx);
	/* Something about line k of `tx` completed.  NULL: nothing to do. */
	int (*on_done)(void *state, struct dlasim_pm_ctx *ctx,
		       const struct dlasim_pm_tx *tx, int k, enum dlasim_pm_event ev);
	/* Entries of some buffer were freed (called before the host offers
	 * stalled lines again).  NULL: nothing to do. */
	int (*on_space)(void *state, struct dlasim_pm_ctx *ctx);
};

struct dlasim_persist_services {
	size_t size;

	/* The system. */
	int (*cores)(const struct dlasim_pm_ctx *ctx);
	/* Entries of a buffer (VBUF: of each core's); 0 if absent. */
	int (*capacity)(const struct dlasim_pm_ctx *ctx, enum dlasim_pm_place where);
	/* Entries in use (`core` only for VBUF).  ADR entries include
	 * buffered headers and lines draining. */
	int (*used)(const struct dlasim_pm_ctx *ctx, enum dlasim_pm_place where, int core);
	/* ADR entries holding lines of uncommitted transactions. */
	int (*speculative)(const struct dlasim_pm_ctx *ctx);

	/* The transactions. */
	const struct dlasim_pm_tx *(*tx_on)(const struct dlasim_pm_ctx *ctx, int core);
	const struct dlasim_pm_line *(*line)(const struct dlasim_pm_ctx *ctx,
					     const struct dlasim_pm_tx *tx, int k);

	/*
	 * Requests; each returns DLASIM_OK, or DLASIM_ERR when it breaks an
	 * invariant (the host then stops the run after the callback).
	 *
	 * place(): put an arrived line into ADR, STAGE, VBUF or LOGQ, or move
	 *   a line between those (not a flushable line, not a line whose log
	 *   is in flight, not out of the ADR once its undo entry exists).
	 * log(): write its log entry (undo: read the old value first).  The
	 *   line must be in a buffer; it is logged at most once.
	 * close_record(): end the transaction's open record now (it closes by
	 *   itself at DLASIM_PM_RECORD_ENTRIES entries, at tx_end, when
	 *   on_write() makes the core wait, and after tx_end once all its
	 *   entries have persisted).
	 * home_write(): write the line in place before the commit (undo
	 *   path; I1).  It leaves its buffer when the write persists.
	 * commit(): the transaction is durable (I2, I4); its ADR lines become
	 *   flushable and the core goes on.
	 */
	int (*place)(struct dlasim_pm_ctx *ctx, const struct dlasim_pm_tx *tx, int k,
		     enum dlasim_pm_place to);
	int (*log)(struct dlasim_pm_ctx *ctx, const struct dlasim_pm_tx *tx, int k,
		   enum dlasim_pm_log kind);
	int (*close_record)(struct dlasim_pm_ctx *ctx, const struct dlasim_pm_tx *tx);
	int (*home_write)(struct dlasim_pm_ctx *ctx, const struct dlasim_pm_tx *tx, int k);
	int (*commit)(struct dlasim_pm_ctx *ctx, const struct dlasim_pm_tx *tx);

	/* The NVM. */
	int (*banks)(const struct dlasim_pm_ctx *ctx);
	int (*bank_of)(const struct dlasim_pm_ctx *ctx, long addr);
	/* Reads and writes queued or in service at a bank. */
	int (*bank_pending)(const struct dlasim_pm_ctx *ctx, int bank);
};

/*
 * True when commit() would be accepted now: `tx` ended and each of its
 * lines is in the ADR, redo-durable or home, with nothing in flight.
 */
static inline bool dlasim_pm_can_commit(const struct dlasim_pm_tx *tx)
{
	return tx->ended && !tx->committed && !tx->logs_inflight && !tx->logs_undurable &&
	       !tx->homes_inflight &&
	       tx->in[DLASIM_PM_ADR] + tx->in[DLASIM_PM_DRAM] + tx->in[DLASIM_PM_HOME] == tx->lines;
}

/* The persistence services of `host`, or NULL with a reason in err[]. */
static inline const struct dlasim_persist_services *
dlasim_pm_services(const struct dlasim_host_api *host, char *err, size_t errlen)
{
	if (DLASIM_HAS_MEMBER(host, struct dlasim_host_api, persist) && host->persist)
		return host->persist;
	snprintf(err, errlen, "this dlasim has no persistence services");
	return NULL;
}

/* A plugin's own option: 1 taken, 0 not its key, -1 bad value (reason in
 * err[]). */
typedef int (*dlasim_pm_option_fn)(const struct dlasim_host_api *host, const char *key,
				   const char *value, void *arg, char *err, size_t errlen);

/*
 * Read "key=value,..." options.  Every persist plugin takes "blom=0|1"
 * (the flag DLASIM_PM_BLOM in *features) and, when `logpar` is not NULL,
 * "logpar=N" (log entries of one transaction in flight at once, 0 = no
 * limit); `one` (may be NULL) takes the plugin's own keys, `known` lists
 * them all for the message about an unknown key.
 */
static inline int dlasim_pm_options(const struct dlasim_host_api *host, const char *options,
				    unsigned *features, int *logpar, dlasim_pm_option_fn one,
				    void *arg, const char *known, char *err, size_t errlen)
{
	char key[32], value[64];
	double v;
	int r, took;

	while ((r = host->next_option(&options, key, sizeof(key), value, sizeof(value))) > 0) {
		if (strcmp(key, "blom") == 0) {
			if (host->parse_number(value, 0, &v) || (v != 0 && v != 1)) {
				snprintf(err, errlen, "blom=%s: not 0 or 1", value);
				return DLASIM_ERR;
			}
			*features = v ? (*features | DLASIM_PM_BLOM) : (*features & ~DLASIM_PM_BLOM);
			continue;
		}
		if (logpar && strcmp(key, "logpar") == 0) {
			if (host->parse_number(value, 0, &v) || v != (int)v || v > 1024) {
				snprintf(err, errlen, "logpar=%s: not an integer in [0, 1024]", value);
				return DLASIM_ERR;
			}
			*logpar = (int)v;
			continue;
		}
		took = one ? one(host, key, value, arg, err, errlen) : 0;
		if (took < 0)
			return DLASIM_ERR;
		if (!took) {
			snprintf(err, errlen, "unknown option '%s' (%s)", key, known);
			return DLASIM_ERR;
		}
	}
	if (r < 0) {
		snprintf(err, errlen, "%s", value);
		return DLASIM_ERR;
	}
	return DLASIM_OK;
}

#ifdef __cplusplus
}
#endif

#endif /* DLASIM_PERSIST_H */
