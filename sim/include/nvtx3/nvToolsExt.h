/* nvtx3/nvToolsExt.h — NVTX (the NVIDIA Tools Extension) for programs of
 * gpulab's simulator: ranges and marks that `gpulab nsys profile` draws on the
 * host's NVTX row of the timeline (runtime/nvtx.cpp). The C API most programs
 * use: push/pop and start/end ranges, marks, event attributes (a message and
 * a colour), thread and category names, domains and registered strings.
 * Without GPULAB_SIM_TRACE every call only keeps the range depth. */
#ifndef GPULAB_SIM_NVTOOLSEXT_H
#define GPULAB_SIM_NVTOOLSEXT_H

#include <stddef.h>
#include <stdint.h>
#include <wchar.h>

#define NVTX_VERSION 3

#ifdef __cplusplus
extern "C" {
#endif

typedef uint64_t nvtxRangeId_t;
typedef struct gpulab_sim_nvtx_domain *nvtxDomainHandle_t;
typedef struct gpulab_sim_nvtx_string *nvtxStringHandle_t;

typedef enum nvtxColorType_t { NVTX_COLOR_UNKNOWN = 0, NVTX_COLOR_ARGB = 1 } nvtxColorType_t;

typedef enum nvtxMessageType_t {
    NVTX_MESSAGE_UNKNOWN = 0,
    NVTX_MESSAGE_TYPE_ASCII = 1,
    NVTX_MESSAGE_TYPE_UNICODE = 2,
    NVTX_MESSAGE_TYPE_REGISTERED = 3
} nvtxMessageType_t;

typedef enum nvtxPayloadType_t {
    NVTX_PAYLOAD_UNKNOWN = 0,
    NVTX_PAYLOAD_TYPE_UNSIGNED_INT64 = 1,
    NVTX_PAYLOAD_TYPE_INT64 = 2,
    NVTX_PAYLOAD_TYPE_DOUBLE = 3,
    NVTX_PAYLOAD_TYPE_UNSIGNED_INT32 = 4,
    NVTX_PAYLOAD_TYPE_INT32 = 5,
    NVTX_PAYLOAD_TYPE_FLOAT = 6
} nvtxPayloadType_t;

typedef union nvtxMessageValue_t {
    const char *ascii;
    const wchar_t *unicode;
    nvtxStringHandle_t registered;
} nvtxMessageValue_t;

typedef struct nvtxEventAttributes_v2 {
    uint16_t version;
    uint16_t size;
    uint32_t category;
    int32_t colorType;
    uint32_t color;
    int32_t payloadType;
    int32_t reserved0;
    union payload_t {
        uint64_t ullValue;
        int64_t llValue;
        double dValue;
        uint32_t uiValue;
        int32_t iValue;
        float fValue;
    } payload;
    int32_t messageType;
    nvtxMessageValue_t message;
} nvtxEventAttributes_v2;
typedef struct nvtxEventAttributes_v2 nvtxEventAttributes_t;

#define NVTX_EVENT_ATTRIB_STRUCT_SIZE ((uint16_t)(sizeof(nvtxEventAttributes_t)))

void nvtxInitialize(const void *reserved);

void nvtxMarkEx(const nvtxEventAttributes_t *attr);
void nvtxMarkA(const char *message);
void nvtxMarkW(const wchar_t *message);

nvtxRangeId_t nvtxRangeStartEx(const nvtxEventAttributes_t *attr);
nvtxRangeId_t nvtxRangeStartA(const char *message);
nvtxRangeId_t nvtxRangeStartW(const wchar_t *message);
void nvtxRangeEnd(nvtxRangeId_t id);

int nvtxRangePushEx(const nvtxEventAttributes_t *attr);
int nvtxRangePushA(const char *message);
int nvtxRangePushW(const wchar_t *message);
int nvtxRangePop(void);

void nvtxNameCategoryA(uint32_t category, const char *name);
void nvtxNameCategoryW(uint32_t category, const wchar_t *name);
void nvtxNameOsThreadA(uint32_t threadId, const char *name);
void nvtxNameOsThreadW(uint32_t threadId, const wchar_t *name);

nvtxDomainHandle_t nvtxDomainCreateA(const char *name);
nvtxDomainHandle_t nvtxDomainCreateW(const wchar_t *name);
void nvtxDomainDestroy(nvtxDomainHandle_t domain);
nvtxStringHandle_t nvtxDomainRegisterStringA(nvtxDomainHandle_t domain, const char *string);
nvtxStringHandle_t nvtxDomainRegisterStringW(nvtxDomainHandle_t domain, const wchar_t *string);
void nvtxDomainMarkEx(nvtxDomainHandle_t domain, const nvtxEventAttributes_t *attr);
nvtxRangeId_t nvtxDomainRangeStartEx(nvtxDomainHandle_t domain, const nvtxEventAttributes_t *attr);
void nvtxDomainRangeEnd(nvtxDomainHandle_t domain, nvtxRangeId_t id);
int nvtxDomainRangePushEx(nvtxDomainHandle_t domain, const nvtxEventAttributes_t *attr);
int nvtxDomainRangePop(nvtxDomainHandle_t domain);

#ifdef __cplusplus
}
#endif

#endif
