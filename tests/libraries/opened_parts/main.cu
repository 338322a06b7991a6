// A program linked with libcudnn.so.9 (front.c), which opens its parts itself: its own
// kernel fills the input, the operations part cubes it (tests/module_files/cube_check.h).
#include "../../module_files/cube_check.h"

extern "C" int front_cube(const int *in, long long *out, int n);

int main()
{
	return check_cubes(front_cube);
}
