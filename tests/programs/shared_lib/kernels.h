// Exported interface of libshared_lib.so.
#pragma once
extern "C" int lib_histogram16(int n, const unsigned *host_in, unsigned host_bins[16]);
extern "C" unsigned long long lib_call_count();
