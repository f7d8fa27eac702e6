/* SPDX-License-Identifier: MIT */
#include "actor.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <simgrid/actor.h>
#include <simgrid/cond.h>
#include <simgrid/engine.h>
#include <simgrid/mutex.h>
#include <simgrid/semaphore.h>

#include "lib/diag.h"
#include "machine/engine.h"

struct memdev_actor {
	struct memdev *d;
	int ch;
	memdev_done_fn done;
	void *arg;
	sg_mutex_t room_mx;	/* of the clients' waits */
	/* A request arrived: one token per kick.  A semaphore, not a condition
	 * with a timeout: SimGrid 3.32 aborts the process when it kills a
	 * daemon waiting in sg_cond_wait_for (the run ended mid-wait). */
	sg_sem_t wake;
	sg_cond_t changed;	/* the channel moved on: room may have freed */
	double waiting_until;	/* when the actor wakes by itself, or INFINITY */
	bool kicked;
};

static void channel_main(void *arg)
{
	struct memdev_actor *a = arg;

	sg_actor_daemonize(sg_actor_self());
	for (;;) {
		double t = memdev_next_event(a->d, a->ch), now = simgrid_get_clock();

		if (a->kicked) {
			sg_sem_acquire(a->wake);	/* the kick's token: at once */
		} else if (t > now) {
			a->waiting_until = t;
			if (isinf(t))
				sg_sem_acquire(a->wake);
			else if (sg_sem_acquire_timeout(a->wake, t - now) && a->kicked)
				sg_sem_acquire(a->wake);	/* kicked as it timed out */
		}
		a->kicked = false;
		a->waiting_until = INFINITY;
		memdev_advance(a->d, a->ch, simgrid_get_clock(), a->done, a->arg);
		sg_cond_notify_all(a->changed);
	}
}

struct memdev_actor *memdev_actor_start(struct memdev *d, int ch, sg_host_t host,
					memdev_done_fn done, void *arg)
{
	struct memdev_actor *a = calloc(1, sizeof(*a));
	char name[32];

	if (!a) {
		dl_err("out of memory");
		return NULL;
	}
	a->d = d;
	a->ch = ch;
	a->done = done;
	a->arg = arg;
	a->room_mx = sg_mutex_init();
	a->wake = sg_sem_init(0);
	a->changed = sg_cond_init();
	a->waiting_until = INFINITY;
	snprintf(name, sizeof(name), "memdev-ch%d", ch);
	dl_actor_start(name, host, channel_main, a);
	return a;
}

void memdev_actor_kick(struct memdev_actor *a)
{
	/* Wake the actor only when the new request may come before the time
	 * it would wake anyway (a wake-up is a simulation event). */
	if (!a->kicked && memdev_next_event(a->d, a->ch) < a->waiting_until) {
		a->kicked = true;
		sg_sem_release(a->wake);
	}
}

int memdev_actor_submit(struct memdev_actor *a, struct memdev_req *r)
{
	if (memdev_enqueue(a->d, r, simgrid_get_clock()))
		return -1;
	memdev_actor_kick(a);
	return 0;
}

void memdev_actor_wait_room(struct memdev_actor *a, const struct memdev_req *r)
{
	sg_mutex_lock(a->room_mx);
	while (!memdev_can_accept(a->d, r))
		sg_cond_wait(a->changed, a->room_mx);
	sg_mutex_unlock(a->room_mx);
}

void memdev_actor_free(struct memdev_actor *a)
{
	if (!a)
		return;
	sg_sem_destroy(a->wake);
	sg_cond_destroy(a->changed);
	sg_mutex_destroy(a->room_mx);
	free(a);
}
