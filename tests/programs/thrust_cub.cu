// Thrust and CUB as the CUDA toolkit ships them: thrust::reduce, inclusive_scan, copy_if,
// sort and sort_by_key, and CUB's DeviceReduce::Sum, DeviceScan::ExclusiveSum and
// DeviceRadixSort::SortPairs, each checked against the host's own result. CUB picks its
// kernels by the PTX version the driver reports for them.
#include "test_util.h"
#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <algorithm>
#include <numeric>
#include <vector>

struct is_odd {
    __host__ __device__ bool operator()(int x) const { return x & 1; }
};

static void thrust_part(Checker &c, const std::vector<int> &h) {
    const int n = (int)h.size();
    thrust::device_vector<int> d(h.begin(), h.end());
    long long sum = thrust::reduce(d.begin(), d.end(), 0LL);
    long long want_sum = std::accumulate(h.begin(), h.end(), 0LL);
    if (sum != want_sum) c.fail("thrust::reduce: %lld, want %lld", sum, want_sum);

    thrust::device_vector<int> scanned(n);
    thrust::inclusive_scan(d.begin(), d.end(), scanned.begin());
    std::vector<int> want_scan(n), got_scan(n);
    std::partial_sum(h.begin(), h.end(), want_scan.begin());
    thrust::copy(scanned.begin(), scanned.end(), got_scan.begin());
    if (got_scan != want_scan) c.fail("thrust::inclusive_scan differs");

    thrust::device_vector<int> odd(n);
    int kept = (int)(thrust::copy_if(d.begin(), d.end(), odd.begin(), is_odd()) - odd.begin());
    std::vector<int> want_odd;
    std::copy_if(h.begin(), h.end(), std::back_inserter(want_odd), is_odd());
    std::vector<int> got_odd(kept);
    thrust::copy(odd.begin(), odd.begin() + kept, got_odd.begin());
    if (got_odd != want_odd) c.fail("thrust::copy_if: %d kept, want %zu", kept, want_odd.size());

    thrust::device_vector<int> keys = d, values(n);
    thrust::sequence(values.begin(), values.end());
    thrust::sort_by_key(keys.begin(), keys.end(), values.begin());
    std::vector<int> got_keys(n), got_values(n), want_keys(h);
    thrust::copy(keys.begin(), keys.end(), got_keys.begin());
    thrust::copy(values.begin(), values.end(), got_values.begin());
    std::sort(want_keys.begin(), want_keys.end());
    if (got_keys != want_keys) c.fail("thrust::sort_by_key: keys not sorted");
    for (int i = 0; i < n; i++)
        if (h[got_values[i]] != got_keys[i]) {
            c.fail("thrust::sort_by_key: value %d does not follow its key", i);
            break;
        }
    thrust::sort(d.begin(), d.end(), thrust::greater<int>());
    std::vector<int> got_desc(n);
    thrust::copy(d.begin(), d.end(), got_desc.begin());
    if (!std::equal(got_desc.begin(), got_desc.end(), want_keys.rbegin())) c.fail("thrust::sort descending differs");
}

static void cub_part(Checker &c, const std::vector<int> &h) {
    const int n = (int)h.size();
    int *in, *out, *values_in, *values_out, *sum;
    CHECK(cudaMalloc(&in, n * 4)); CHECK(cudaMalloc(&out, n * 4)); CHECK(cudaMalloc(&sum, 4));
    CHECK(cudaMalloc(&values_in, n * 4)); CHECK(cudaMalloc(&values_out, n * 4));
    CHECK(cudaMemcpy(in, h.data(), n * 4, cudaMemcpyHostToDevice));
    std::vector<int> index(n);
    std::iota(index.begin(), index.end(), 0);
    CHECK(cudaMemcpy(values_in, index.data(), n * 4, cudaMemcpyHostToDevice));
    size_t bytes = 0, need;
    void *temp = nullptr;
    CHECK(cub::DeviceReduce::Sum(nullptr, need, in, sum, n)); bytes = std::max(bytes, need);
    CHECK(cub::DeviceScan::ExclusiveSum(nullptr, need, in, out, n)); bytes = std::max(bytes, need);
    CHECK(cub::DeviceRadixSort::SortPairs(nullptr, need, in, out, values_in, values_out, n));
    bytes = std::max(bytes, need);
    CHECK(cudaMalloc(&temp, bytes));

    int got_sum = 0;
    CHECK(cub::DeviceReduce::Sum(temp, bytes, in, sum, n));
    CHECK(cudaMemcpy(&got_sum, sum, 4, cudaMemcpyDeviceToHost));
    int want_sum = std::accumulate(h.begin(), h.end(), 0);
    if (got_sum != want_sum) c.fail("cub::DeviceReduce::Sum: %d, want %d", got_sum, want_sum);

    std::vector<int> got(n), want(n);
    CHECK(cub::DeviceScan::ExclusiveSum(temp, bytes, in, out, n));
    CHECK(cudaMemcpy(got.data(), out, n * 4, cudaMemcpyDeviceToHost));
    std::exclusive_scan(h.begin(), h.end(), want.begin(), 0);
    if (got != want) c.fail("cub::DeviceScan::ExclusiveSum differs");

    CHECK(cub::DeviceRadixSort::SortPairs(temp, bytes, in, out, values_in, values_out, n));
    std::vector<int> got_values(n);
    CHECK(cudaMemcpy(got.data(), out, n * 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(got_values.data(), values_out, n * 4, cudaMemcpyDeviceToHost));
    want = h;
    std::stable_sort(want.begin(), want.end());
    if (got != want) c.fail("cub::DeviceRadixSort::SortPairs: keys differ");
    std::vector<int> want_values(index);
    std::stable_sort(want_values.begin(), want_values.end(), [&](int a, int b) { return h[a] < h[b]; });
    if (got_values != want_values) c.fail("cub::DeviceRadixSort::SortPairs: values differ (the sort is stable)");
    CHECK(cudaFree(temp)); CHECK(cudaFree(in)); CHECK(cudaFree(out)); CHECK(cudaFree(sum));
    CHECK(cudaFree(values_in)); CHECK(cudaFree(values_out));
}

int main() {
    Checker c;
    Lcg rng(13);
    std::vector<int> h(70001);
    for (int &x : h) x = rng.range(-50000, 50000);
    thrust_part(c, h);
    cub_part(c, h);
    return c.finish();
}
