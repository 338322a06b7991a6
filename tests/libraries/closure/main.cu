// A program whose GPU code is in the libraries it loads: libgpu_a.so (through its RUNPATH),
// which loads libgpu_b.so (through LD_LIBRARY_PATH), and libplain.so with no GPU code.
#include <cstdio>

extern "C" int gpu_a_transform(int *host_values, int n);
extern "C" int plain_offset(void);

int main(void)
{
	enum { N = 1000 };
	static int v[N];
	int bad = 0;

	for (int i = 0; i < N; i++)
		v[i] = plain_offset() * i;
	if (gpu_a_transform(v, N) != 0) {
		printf("FAIL: a CUDA call failed\n");
		return 1;
	}
	for (int i = 0; i < N; i++)
		bad += v[i] != (4 * i) * (4 * i);
	printf("%s (%d of %d wrong)\n", bad ? "FAILED" : "PASSED", bad, N);
	return bad != 0;
}
