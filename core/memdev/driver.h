/* SPDX-License-Identifier: MIT */
/*
 * The SimGrid actor of one channel of a memory device: it sleeps until the
 * channel's next completion (or until kicked because requests arrived),
 * then advances the device, which hands each completed request to the
 * owner's callback.  A daemon: the simulation ends without it.
 */
#ifndef DL_MEMDEV_DRIVER_H
#define DL_MEMDEV_DRIVER_H

#include <simgrid/forward.h>

#include "memdev.h"

struct memdev_driver;

struct memdev_driver *memdev_driver_start(struct memdev *d, int channel, sg_host_t host,
					  void (*done)(void *arg, struct memdev_req *r),
					  void *arg);
/* Requests were enqueued: let the actor look again.  A simcall: not to be
 * called while the caller's own state is half updated. */
void memdev_driver_kick(struct memdev_driver *drv);
void memdev_driver_free(struct memdev_driver *drv);

#endif
