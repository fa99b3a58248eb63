#include "support/error.h"

#include <stdarg.h>
#include <stdio.h>

kpca_status kpca_vfail(kpca_error *err, kpca_status code, const char *fmt, va_list ap)
{
    if (err != NULL) {
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        err->code = code;
        err->relayed = 0;
        err->own_limit = 0;
    }
    return code;
}

kpca_status kpca_fail(kpca_error *err, kpca_status code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    kpca_vfail(err, code, fmt, ap);
    va_end(ap);
    return code;
}

kpca_status kpca_fail_limit(kpca_error *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    kpca_vfail(err, KPCA_ENOMEM, fmt, ap);
    va_end(ap);
    if (err != NULL)
        err->own_limit = 1;
    return KPCA_ENOMEM;
}

void kpca_error_clear(kpca_error *err)
{
    if (err != NULL) {
        err->code = KPCA_OK;
        err->msg[0] = '\0';
        err->relayed = 0;
        err->own_limit = 0;
    }
}

const char *kpca_status_name(kpca_status code)
{
    switch (code) {
    case KPCA_OK: return "success";
    case KPCA_EINTERNAL: return "internal error";
    case KPCA_EUSAGE: return "usage error";
    case KPCA_EFORMAT: return "format error";
    case KPCA_EIO: return "i/o error";
    case KPCA_ENUMERIC: return "numerical error";
    case KPCA_ENOMEM: return "out of memory";
    }
    return "unknown error";
}

const char *kpca_status_meaning(kpca_status code)
{
    switch (code) {
    case KPCA_OK: return "success";
    case KPCA_EINTERNAL: return "internal error (a bug: please report it)";
    case KPCA_EUSAGE: return "usage error: unknown option, bad number, missing argument";
    case KPCA_EFORMAT: return "bad input file: malformed, inconsistent or damaged data, model or features";
    case KPCA_EIO: return "i/o error: cannot open, read or write a file, or load a usable GPU's libraries (--device cuda)";
    case KPCA_ENUMERIC: return "numerical failure: no usable components, eigensolver did not converge, overflow";
    case KPCA_ENOMEM: return "out of memory, or more than the memory budget (--memory-limit), or the GPU's (--device cuda)";
    }
    return "unknown error";
}
