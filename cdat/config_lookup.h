/* config_lookup.h — where cdat finds a machine configuration given by name. */
#ifndef DSM_CDAT_CONFIG_LOOKUP_H
#define DSM_CDAT_CONFIG_LOOKUP_H

/* The file to read for the configuration operand name: name itself when it
 * is a file, has a '/' or ends in ".ini"; otherwise (cdat trace.4 4x4) the
 * first existing NAME.ini of the installed configurations
 * (<bin>/../share/dsmtrace/configs beside the running cdat) and the source
 * tree's configs/; name itself when neither has it, so that the error names
 * what was given. Caller frees. */
char *config_lookup(const char *name);

/* The directories config_lookup searches, for messages: "DIR1 or DIR2".
 * Caller frees. */
char *config_lookup_dirs(void);

#endif
