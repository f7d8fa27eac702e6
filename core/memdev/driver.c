/* SPDX-License-Identifier: MIT */
#include "driver.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/semaphore.h>

#include "kernel/engine.h"

struct memdev_driver {
	struct memdev *dev;
	int channel;
	sg_sem_t kick;
	void (*done)(void *arg, struct memdev_req *r);
	void *arg;
};

static void driver_main(void *arg)
{
	struct memdev_driver *drv = arg;

	for (;;) {
		double t = memdev_next_event(drv->dev, drv->channel), now = simgrid_get_clock();

		if (isinf(t)) {
			sg_sem_acquire(drv->kick);
		} else if (t > now + 1e-12) {
			sg_sem_acquire_timeout(drv->kick, t - now);
		} else {
			/* due: within a picosecond counts as now */
			memdev_advance(drv->dev, drv->channel, fmax(t, now), drv->done, drv->arg);
		}
	}
}

struct memdev_driver *memdev_driver_start(struct memdev *d, int channel, sg_host_t host,
					  void (*done)(void *arg, struct memdev_req *r),
					  void *arg)
{
	struct memdev_driver *drv = calloc(1, sizeof(*drv));
	char name[64];

	if (!drv)
		return NULL;
	*drv = (struct memdev_driver){ d, channel, sg_sem_init(0), done, arg };
	snprintf(name, sizeof(name), "%s-ch%d", memdev_config(d)->name, channel);
	sg_actor_daemonize(dl_actor_start(name, host, driver_main, drv));
	return drv;
}

void memdev_driver_kick(struct memdev_driver *drv)
{
	sg_sem_release(drv->kick);
}

void memdev_driver_free(struct memdev_driver *drv)
{
	if (!drv)
		return;
	sg_sem_destroy(drv->kick);
	free(drv);
}
