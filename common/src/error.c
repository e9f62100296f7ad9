/* Status codes and error records: see lab/error.h. */
#include "lab/error.h"

#include <stdarg.h>
#include <stdio.h>

static void set(lab_error *err, int code, int cuda_error, const char *fmt, va_list ap)
{
    err->code = code;
    err->cuda_error = cuda_error;
    vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
}

int lab_error_set(lab_error *err, int code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        set(err, code, 0, fmt, ap);
        va_end(ap);
    }
    return code;
}

int lab_error_set_cuda(lab_error *err, int cuda_error, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        set(err, LAB_ECUDA, cuda_error, fmt, ap);
        va_end(ap);
    }
    return LAB_ECUDA;
}

void lab_error_clear(lab_error *err)
{
    if (err) {
        err->code = LAB_OK;
        err->msg[0] = '\0';
        err->cuda_error = 0;
    }
}

const char *lab_status_name(int code)
{
    switch (code) {
    case LAB_OK:
        return "LAB_OK";
    case LAB_EIO:
        return "LAB_EIO";
    case LAB_EFORMAT:
        return "LAB_EFORMAT";
    case LAB_ENOMEM:
        return "LAB_ENOMEM";
    case LAB_EINVAL:
        return "LAB_EINVAL";
    case LAB_EUNSUPPORTED:
        return "LAB_EUNSUPPORTED";
    case LAB_ECUDA:
        return "LAB_ECUDA";
    default:
        return "LAB_E?";
    }
}
