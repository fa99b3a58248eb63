#include "support/precision.h"

#include "support/names.h"

static const char *const names[] = {"double", "single"};
#define NNAMES (sizeof names / sizeof names[0])

const char *kpca_precision_name(kpca_precision p)
{
    return kpca_name_of(names, NNAMES, (unsigned)p);
}

int kpca_precision_parse(const char *name, kpca_precision *out)
{
    int i = kpca_name_index(names, NNAMES, name);
    if (i >= 0)
        *out = (kpca_precision)i;
    return i >= 0 ? 0 : -1;
}
