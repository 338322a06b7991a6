// Virtual memory shared between processes, after cuda-samples' memMapIPCDrv: an allocation
// made shareable as a POSIX file descriptor, exported, handed to a second process (this
// program run again, the descriptor inherited), imported and mapped there. The child checks
// what the parent's kernel wrote and writes its own values, which the parent then reads
// through its own mapping.
#include <sys/wait.h>
#include <unistd.h>
#include "test_util.h"

__global__ void fill(int *x, int a, int b, size_t n) {
    for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        x[i] = (int)(a * (i % 100000) + b);
}

// Counts the elements that are not a * (i % 100000) + b.
__global__ void count_wrong(const int *x, int a, int b, size_t n, unsigned *wrong) {
    for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        if (x[i] != (int)(a * (i % 100000) + b)) atomicAdd(wrong, 1u);
}

static CUmemAllocationProp shareable_prop() {
    CUdevice dev;
    CU(cuCtxGetDevice(&dev));
    CUmemAllocationProp prop = {};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = dev;
    prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    return prop;
}

// Reserves, maps and opens [va, va + size) to this device.
static CUdeviceptr map_readwrite(CUmemGenericAllocationHandle h, size_t size, const CUmemAllocationProp &prop) {
    CUdeviceptr va;
    CU(cuMemAddressReserve(&va, size, 0, 0, 0));
    CU(cuMemMap(va, size, 0, h, 0));
    CUmemAccessDesc rw = {};
    rw.location = prop.location;
    rw.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    CU(cuMemSetAccess(va, size, &rw, 1));
    return va;
}

static unsigned wrong_values(CUdeviceptr va, size_t n, int a, int b) {
    unsigned *wrong, host = 0;
    CHECK(cudaMalloc(&wrong, sizeof *wrong));
    CHECK(cudaMemset(wrong, 0, sizeof *wrong));
    count_wrong<<<64, 256>>>((const int *)va, a, b, n, wrong);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(&host, wrong, sizeof host, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(wrong));
    return host;
}

static int child(int fd, size_t size) {
    CHECK(cudaFree(0));
    CUmemAllocationProp prop = shareable_prop();
    CUmemGenericAllocationHandle h;
    CU(cuMemImportFromShareableHandle(&h, (void *)(uintptr_t)fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
    CUdeviceptr va = map_readwrite(h, size, prop);
    size_t n = size / sizeof(int);
    unsigned wrong = wrong_values(va, n, 3, 1);
    if (wrong) {
        printf("FAIL: the child sees %u values the parent did not write\n", wrong);
        return 1;
    }
    fill<<<64, 256>>>((int *)va, 5, 2, n);
    CHECK_LAUNCH();
    CU(cuMemUnmap(va, size));
    CU(cuMemAddressFree(va, size));
    CU(cuMemRelease(h));
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 4 && strcmp(argv[1], "child") == 0)
        return child(atoi(argv[2]), strtoull(argv[3], nullptr, 10));

    Checker c;
    CHECK(cudaFree(0));
    CUmemAllocationProp prop = shareable_prop();
    size_t g = 0;
    CU(cuMemGetAllocationGranularity(&g, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    size_t size = 4 * g, n = size / sizeof(int);
    CUmemGenericAllocationHandle h;
    CU(cuMemCreate(&h, size, &prop, 0));
    CUdeviceptr va = map_readwrite(h, size, prop);
    fill<<<64, 256>>>((int *)va, 3, 1, n);
    CHECK_LAUNCH();

    int fd = -1;
    CU(cuMemExportToShareableHandle(&fd, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    int inherited = dup(fd);  // without close-on-exec, whatever the export gave
    if (inherited < 0) c.fail("dup of the exported descriptor failed");
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        char fd_text[16], size_text[32];
        snprintf(fd_text, sizeof fd_text, "%d", inherited);
        snprintf(size_text, sizeof size_text, "%zu", size);
        execl("/proc/self/exe", argv[0], "child", fd_text, size_text, (char *)nullptr);
        _exit(127);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid) c.fail("the child process did not run");
    else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        c.fail("the child process ended with status %d", WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status));
    close(inherited);
    close(fd);

    unsigned wrong = wrong_values(va, n, 5, 2);
    if (wrong) c.fail("the parent sees %u values the child did not write", wrong);
    CU(cuMemUnmap(va, size));
    CU(cuMemAddressFree(va, size));
    CU(cuMemRelease(h));
    return c.finish();
}
