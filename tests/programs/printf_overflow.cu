// A kernel printing several times what cudaLimitPrintfFifoSize holds before the next
// synchronisation: NVIDIA's driver prints device output while kernels run, so an H200
// prints all of one thread's 40,000 records, in order (and only when many threads outrun
// it does the FIFO overwrite its oldest). check_printf_overflow.py checks every record
// comes out, in order, then the next kernel's lines.
#include "test_util.h"

__global__ void print_records(int n) {
    for (int i = 0; i < n; i++) printf("record %d of %d\n", i, n);
}

__global__ void print_after() { printf("after %d\n", threadIdx.x); }

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 40000;
    print_records<<<1, 1>>>(n);
    CHECK_LAUNCH();
    print_after<<<1, 3>>>();
    CHECK_LAUNCH();
    printf("PASS\n");
    return 0;
}
