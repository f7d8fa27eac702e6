/* SPDX-License-Identifier: MIT */
/* Element data types: a workload computes in one, a device has a peak for
 * each it supports (docs/devices.md, docs/workloads.md). */
#ifndef DL_DTYPE_H
#define DL_DTYPE_H

enum dl_dtype { DL_FP32, DL_BF16, DL_FP16, DL_FP8, DL_DTYPES };

const char *dl_dtype_name(enum dl_dtype t);
/* "fp32", "bf16", "fp16", "fp8"; -1 if none of these. */
int dl_dtype_parse(const char *s, enum dl_dtype *t);
/* Bytes of one element. */
double dl_dtype_bytes(enum dl_dtype t);

#endif
