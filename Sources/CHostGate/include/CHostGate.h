#ifndef SWITCHBOARD_CHOSTGATE_H
#define SWITCHBOARD_CHOSTGATE_H

#include <stdint.h>

/// A page the server and one script host share, through which the server takes calls it
/// has already written to the host back before the host starts them. The host announces
/// each call before starting it (`started`); the server raises `skip_through`. Both sides
/// write their own word, then read the other's, with sequentially consistent atomics, so
/// for every call exactly one of them wins: either the host sees the skip and never runs
/// the call, or the server sees it started and leaves it where it is.
typedef struct {
    int64_t started;
    int64_t skip_through;
} switchboard_host_gate;

/// A new shared page as a descriptor (memfd, close-on-exec), or -1 with errno set.
int switchboard_host_gate_create(void);

/// Maps the page behind `fd`; NULL with errno set on failure.
switchboard_host_gate *switchboard_host_gate_map(int fd);

void switchboard_host_gate_unmap(switchboard_host_gate *gate);

/// The host, before call `id` (ids only grow): 1 to run it, 0 if the server took it back.
int switchboard_host_gate_start(switchboard_host_gate *gate, int64_t id);

/// The server: the id of the last call the host started (or was about to, and skipped).
int64_t switchboard_host_gate_started(switchboard_host_gate *gate);

/// The server: takes back every call up to `through` that the host has not started, and
/// returns the id of the last call it started (those above it, up to `through`, will never
/// run there).
int64_t switchboard_host_gate_skip(switchboard_host_gate *gate, int64_t through);

#endif
