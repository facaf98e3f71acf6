#ifndef SWITCHBOARD_CMALLOC_H
#define SWITCHBOARD_CMALLOC_H

/// glibc's malloc_trim(0): gives back to the system every whole free page in every malloc
/// arena, those in the middle of a heap too (Swift's Glibc module does not show it). Returns
/// 1 if memory was released, 0 if not, and 0 where the C library is not glibc.
int switchboard_malloc_trim(void);

#endif
