#ifndef SWITCHBOARD_CSPAWN_H
#define SWITCHBOARD_CSPAWN_H

/// Adds "close every descriptor from `lowest` up" to a `posix_spawn_file_actions_t`
/// (glibc's posix_spawn_file_actions_addclosefrom_np, which Swift's Glibc module does not
/// show without _GNU_SOURCE). Returns 0 or an errno value.
int switchboard_spawn_close_from(void *actions, int lowest);

#endif
