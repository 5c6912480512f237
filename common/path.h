/* path.h — file-name helpers shared by the tools. */
#ifndef DSM_COMMON_PATH_H
#define DSM_COMMON_PATH_H

/* The part of path after its last '/' (path itself when there is none). */
const char *path_base(const char *path);

/* rel read from inside file (a list file, a configuration): an absolute rel
 * as it is, a relative one taken from file's directory. Caller frees. */
char *path_beside(const char *file, const char *rel);

#endif
