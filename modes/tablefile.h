/* modes/tablefile.h: the table file of --hash-file (modes/tablefile.c): a search's table and
 * history kept in a file between one-shot calls, read whole at the start of a call and written
 * back at its end. */
#ifndef TABLEFILE_H
#define TABLEFILE_H

#include "engine.h"

/* The file's header: the engine's table format (table_format) and the evaluation that filled
 * the table (eval_signature) tie a file to the builds that can use it. */
enum { TABLE_FILE_ENDIAN = 0x01020304 };
typedef struct {
    char magic[8];
    uint32_t version;           /* table_format() */
    uint32_t endian;            /* TABLE_FILE_ENDIAN as this machine writes it */
    uint64_t signature;         /* eval_signature() */
    uint64_t bucket_count;      /* a power of two */
    uint32_t bucket_size;       /* table_bucket_size() */
    uint32_t history_size;      /* table_history_size() */
    uint32_t age;               /* the age of the next search */
    uint32_t reserved[5];
} TableFileHeader;

/* A table file in use: its contents as read, size and path. */
typedef struct {
    unsigned char *base;    /* NULL when none is in use */
    size_t size;
    int in_place;           /* 1: written back in place through fd (POSIX); 0: through a renamed copy */
    int fd;                 /* in place: the file, open */
    unsigned char *written; /* in place: a bit for each bucket this call stored into */
    char path[4096];
} TableFile;

/* Makes the table file at path s's table and history, creating it with a table of about
 * megabytes when it does not exist or holds an older table of ours. Returns 1, or 0 with s
 * untouched; warning says what happened when it is not simply a success (else it is empty). */
int table_file_attach(TableFile *f, const char *path, size_t megabytes, Search *s, char *warning, size_t size);
/* Gives the file s's history and the age of its next search, and lets it go, written back; s is
 * left without a table. warning says what went wrong, if anything (else it is empty). */
void table_file_detach(TableFile *f, Search *s, char *warning, size_t size);
/* The size of a table file whose table has bucket_count buckets, and its header. */
size_t table_file_size(uint64_t bucket_count);
void table_file_header(TableFileHeader *h, uint64_t bucket_count);

#endif
