/* version.h — the toolkit version, printed by --version and in report headers. */
#ifndef DSM_COMMON_VERSION_H
#define DSM_COMMON_VERSION_H
#define DSMTRACE_VERSION "0.1.0"
#endif
