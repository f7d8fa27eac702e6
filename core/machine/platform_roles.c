/* SPDX-License-Identifier: MIT */
/*
 * Roles and link classes: what each host and link of a platform is to
 * dlasim (device, memory node, port...), read from the dlasim.* properties
 * (docs/platforms.md), and the system nodes devices belong to.
 */
#include "platform.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/diag.h"
#include "lib/strmap.h"
#include "lib/units.h"

#include "platform_parts.h"

static const char *const role_names[DL_ROLES] = {
	[DL_ROLE_NONE] = "none", [DL_ROLE_DEVICE] = "device",
	[DL_ROLE_MEMORY] = "memory", [DL_ROLE_CPU] = "cpu",
	[DL_ROLE_PCIE_SWITCH] = "pcie-switch", [DL_ROLE_SWITCH] = "switch",
	[DL_ROLE_PORT] = "port",
};

const char *dl_role_name(enum dl_role role)
{
	return role >= 0 && role < DL_ROLES ? role_names[role] : "?";
}

const char *dl_link_class_name(enum dl_link_class cls)
{
	static const char *const names[DL_LINK_CLASSES] = { "other", "nvlink", "pcie", "dram" };

	return cls >= 0 && cls < DL_LINK_CLASSES ? names[cls] : "?";
}

int dl_platform_file_fail(const struct dl_platform *p, int line, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return dl_err("%s:%d: %s", p->file, line, msg);
}

/* A file without any dlasim.role (SimGrid's own platforms): is it? */
static bool without_roles(const struct dl_platform *p)
{
	for (int i = 0; i < p->nhosts; i++)
		if (dl_host_prop(&p->hosts[i], "dlasim.role"))
			return false;
	return true;
}

int dl_platform_assign_roles(struct dl_platform *p)
{
	p->roles_implied = without_roles(p);
	for (int i = 0; i < p->nhosts; i++) {
		struct dl_host *h = &p->hosts[i];
		const char *role = dl_host_prop(h, "dlasim.role");
		int r;

		h->role = DL_ROLE_NONE;
		if (p->roles_implied)
			role = role_names[DL_ROLE_DEVICE];
		if (!role)
			continue;
		for (r = 0; r < DL_ROLES; r++)
			if (strcmp(role, role_names[r]) == 0)
				break;
		if (r == DL_ROLES || r == DL_ROLE_NONE)
			return dl_platform_file_fail(p, h->line,
					 "host '%s': dlasim.role '%s' is not device, memory, cpu, pcie-switch, switch or port",
					 h->name, role);
		h->role = r;
		if (r == DL_ROLE_DEVICE)
			p->ndevices++;
	}
	p->devices = calloc(p->ndevices ? p->ndevices : 1, sizeof(int));
	if (!p->devices)
		return dl_err("out of memory");
	p->ndevices = 0;
	for (int i = 0; i < p->nhosts; i++) {
		struct dl_host *h = &p->hosts[i];

		if (h->role == DL_ROLE_DEVICE) {
			h->rank = p->ndevices;
			p->devices[p->ndevices++] = i;
		}
	}
	for (int i = 0; i < p->nhosts; i++) {
		struct dl_host *h = &p->hosts[i];
		const char *of = dl_host_prop(h, "dlasim.port-of");
		int d = of ? dl_host_index(p, of) : -1;

		if (h->role != DL_ROLE_PORT) {
			if (of)
				return dl_platform_file_fail(p, h->line, "host '%s': dlasim.port-of is only for hosts with dlasim.role=port",
						 h->name);
			continue;
		}
		if (!of)
			return dl_platform_file_fail(p, h->line, "port '%s': missing property dlasim.port-of (the device it belongs to)",
					 h->name);
		if (d < 0 || p->hosts[d].role != DL_ROLE_DEVICE)
			return dl_platform_file_fail(p, h->line, "port '%s': dlasim.port-of '%s' is not a device", h->name, of);
		h->device = d;
	}
	return 0;
}

/*
 * System nodes of a scale-out platform: devices name theirs in dlasim.node
 * (all of them or none); nodes are numbered in order of first appearance.
 */
int dl_platform_read_nodes(struct dl_platform *p)
{
	struct dl_strmap ids;
	int with = 0, ret = 0;

	dl_strmap_init(&ids);
	for (int r = 0; r < p->ndevices && !ret; r++) {
		struct dl_host *h = &p->hosts[p->devices[r]];
		const char *node = dl_host_prop(h, "dlasim.node");

		h->node = -1;
		if (!node)
			continue;
		with++;
		h->node = dl_strmap_get(&ids, node);
		if (h->node < 0) {
			h->node = p->nnodes++;
			if (dl_strmap_put(&ids, node, h->node))
				ret = dl_err("out of memory");
		}
	}
	if (!ret && with && with < p->ndevices) {
		for (int r = 0; r < p->ndevices; r++) {
			const struct dl_host *h = &p->hosts[p->devices[r]];

			if (h->node < 0) {
				ret = dl_platform_file_fail(p, h->line, "device '%s' has no dlasim.node, but other devices do (all devices or none name their system node)",
						h->name);
				break;
			}
		}
	}
	dl_strmap_free(&ids);
	return ret;
}
