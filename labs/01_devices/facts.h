/*
 * Lab 01: the facts a run reports in result.json, written the same way by
 * the lab program (from your functions) and by the grader's reference tool
 * lab01-<backend>-reference (from the kit's lab/device.h), so that the grader
 * can compare the two key by key. Harness file: you do not edit it.
 */
#ifndef LAB01_FACTS_H
#define LAB01_FACTS_H

#include "lab/device.h"
#include "lab/protocol.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most devices a report holds (the simulator has at most 16). */
#define LAB01_MAX_DEVICES 16

/*
 * Sets backend, gpu_usable, status, reason, device_count, runtime_version,
 * driver_version, and for each device i < n: device<i>_<field> for the
 * fields devices.h lists (or device<i>_error when query_rc[i] is not 0).
 */
void lab01_facts(lab_result *r, const lab_gpu_availability *st, const lab_device_info *infos,
                 const int *query_rc, int n);

#ifdef __cplusplus
}
#endif

#endif
