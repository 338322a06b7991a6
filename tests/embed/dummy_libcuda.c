/* A stand-in libcuda.so.1 that only says it was loaded: the embedding tests put it beside a
 * converted program to see that the loader finds it through the added $ORIGIN search path. */
#include <unistd.h>

__attribute__((constructor)) static void announce(void)
{
	static const char marker[] = "ZC-DUMMY-LIBCUDA-LOADED\n";

	(void)!write(2, marker, sizeof(marker) - 1);
}
