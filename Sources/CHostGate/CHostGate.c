#define _GNU_SOURCE
#include <sys/mman.h>
#include <unistd.h>
#include "CHostGate.h"

int switchboard_host_gate_create(void) {
    int fd = memfd_create("switchboard-host-gate", MFD_CLOEXEC);
    if (fd < 0) return -1;
    if (ftruncate(fd, sizeof(switchboard_host_gate)) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

switchboard_host_gate *switchboard_host_gate_map(int fd) {
    void *page = mmap(NULL, sizeof(switchboard_host_gate), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    return page == MAP_FAILED ? NULL : (switchboard_host_gate *)page;
}

void switchboard_host_gate_unmap(switchboard_host_gate *gate) {
    munmap(gate, sizeof(switchboard_host_gate));
}

int switchboard_host_gate_start(switchboard_host_gate *gate, int64_t id) {
    __atomic_store_n(&gate->started, id, __ATOMIC_SEQ_CST);
    return id > __atomic_load_n(&gate->skip_through, __ATOMIC_SEQ_CST);
}

int64_t switchboard_host_gate_skip(switchboard_host_gate *gate, int64_t through) {
    __atomic_store_n(&gate->skip_through, through, __ATOMIC_SEQ_CST);
    return __atomic_load_n(&gate->started, __ATOMIC_SEQ_CST);
}

int64_t switchboard_host_gate_started(switchboard_host_gate *gate) {
    return __atomic_load_n(&gate->started, __ATOMIC_SEQ_CST);
}
