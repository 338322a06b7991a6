// Device printf: integer, unsigned, 64-bit, hex, octal, char, string,
// float/double in %f %e %g with widths, precisions and flags, %%, and many
// arguments in one call. Only one thread prints, in a fixed order, so the
// output is deterministic; the whole stdout is compared with
// printf_formats.expected. Values are exactly representable, so formatting
// does not depend on rounding of the printed digits.
#include "test_util.h"

__global__ void print_formats(int n, const char *msg) {
    if (threadIdx.x != 0 || blockIdx.x != 1) return;
    printf("int %d %i %5d|%-5d|%05d\n", -42, 7, 123, 45, -9);
    printf("unsigned %u hex %x %X %#x octal %o\n", 4000000000u, 0xbeefu, 0xbeefu, 255u, 8u);
    printf("long %ld %lld %llu %llx\n", -1234567890123l, 9000000000000000000ll, 18446744073709551615ull, 0x123456789abcdefull);
    printf("char %c%c%c string [%s] [%10s] [%-6s] [%.3s]\n", 'G', 'P', 'U', msg, "right", "left", "truncate");
    printf("float %f %.2f %10.3f %-8.1f| %e %.3E %g %g\n", 1.5f, -0.25f, 3.125f, 2.5f, 1024.0f, 0.009765625f, 0.5f, 1e20f);
    printf("double %f %.10f %g %e\n", 0.1 + 0.2 - 0.3 == 0 ? 1.0 : 2.0, 1.0 / 1024, 65536.0, -2.0);
    printf("special %f %f %%\n", 1.0 / 0.0 * n, -1.0 / 0.0 * n);
    printf("many %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d\n", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16);
    for (int i = 0; i < n; i++) printf("loop %d of %d: %s\n", i, n, i % 2 ? "odd" : "even");
}

int main() {
    char *dmsg;
    const char msg[] = "hello";
    CHECK(cudaMalloc(&dmsg, sizeof msg));
    CHECK(cudaMemcpy(dmsg, msg, sizeof msg, cudaMemcpyHostToDevice));
    fflush(stdout);
    print_formats<<<2, 32>>>(3, dmsg);
    CHECK_LAUNCH();
    fflush(stdout);
    printf("PASS\n");
    return 0;
}
