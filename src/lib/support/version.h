/* version.h - the kpca version, shared by the library, the CLI and files. */
#ifndef KPCA_VERSION_H
#define KPCA_VERSION_H

#define KPCA_VERSION "0.1.0"

#endif
