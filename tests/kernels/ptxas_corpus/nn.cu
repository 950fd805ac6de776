// Nearest neighbor: distance from each record to a query point, plus top-1 selection
#include <cuda_runtime.h>

typedef struct latLong { float lat; float lng; } LatLong;

extern "C" __global__ void euclid(LatLong* d_locations, float* d_distances, int numRecords, float lat, float lng)
{
    int globalId = blockDim.x * (gridDim.x * blockIdx.y + blockIdx.x) + threadIdx.x;
    if (globalId < numRecords) {
        LatLong* latLong = d_locations + globalId;
        float* dist = d_distances + globalId;
        *dist = (float)sqrt((lat - latLong->lat) * (lat - latLong->lat) + (lng - latLong->lng) * (lng - latLong->lng));
    }
}

// Haversine distance with argmin via packed 64-bit atomicMin
extern "C" __global__ void haversine_argmin(const LatLong* __restrict__ loc, int n, float lat, float lng,
                                            unsigned long long* best)
{
    const float d2r = 0.017453292519943295f;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float dlat = (loc[i].lat - lat) * d2r;
    float dlng = (loc[i].lng - lng) * d2r;
    float a = sinf(dlat * 0.5f) * sinf(dlat * 0.5f) +
              cosf(lat * d2r) * cosf(loc[i].lat * d2r) * sinf(dlng * 0.5f) * sinf(dlng * 0.5f);
    float c = 2.0f * atan2f(sqrtf(a), sqrtf(1.0f - a));
    float km = 6371.0f * c;
    unsigned long long key = ((unsigned long long)__float_as_uint(km) << 32) | (unsigned)i;
    atomicMin(best, key);
}
