// N-body all-pairs gravitational interaction with shared-memory tiles; float4 and double variants
#include <cuda_runtime.h>

template <typename T> struct vec3 { typedef float3 Type; };
template <> struct vec3<double> { typedef double3 Type; };
template <typename T> struct vec4 { typedef float4 Type; };
template <> struct vec4<double> { typedef double4 Type; };

__device__ inline float rsqrt_T(float x) { return rsqrtf(x); }
__device__ inline double rsqrt_T(double x) { return rsqrt(x); }

template <typename T>
__device__ inline typename vec3<T>::Type bodyBodyInteraction(typename vec3<T>::Type ai, typename vec4<T>::Type bi,
                                                             typename vec4<T>::Type bj, T softeningSquared)
{
    typename vec3<T>::Type r;
    r.x = bj.x - bi.x; r.y = bj.y - bi.y; r.z = bj.z - bi.z;
    T distSqr = r.x * r.x + r.y * r.y + r.z * r.z + softeningSquared;
    T invDist = rsqrt_T(distSqr);
    T invDistCube = invDist * invDist * invDist;
    T s = bj.w * invDistCube;
    ai.x += r.x * s; ai.y += r.y * s; ai.z += r.z * s;
    return ai;
}

template <typename T, int UNROLL>
__global__ void integrateBodies(typename vec4<T>::Type* __restrict__ newPos, typename vec4<T>::Type* __restrict__ newVel,
                                const typename vec4<T>::Type* __restrict__ oldPos, const typename vec4<T>::Type* __restrict__ oldVel,
                                T deltaTime, T damping, T softeningSquared, int numBodies)
{
    extern __shared__ __align__(16) unsigned char smem_raw[];
    typename vec4<T>::Type* sharedPos = reinterpret_cast<typename vec4<T>::Type*>(smem_raw);
    int index = blockIdx.x * blockDim.x + threadIdx.x;
    if (index >= numBodies) return;
    typename vec4<T>::Type position = oldPos[index];
    typename vec3<T>::Type acc = {0, 0, 0};
    int numTiles = (numBodies + blockDim.x - 1) / blockDim.x;
    for (int tile = 0; tile < numTiles; tile++) {
        sharedPos[threadIdx.x] = oldPos[tile * blockDim.x + threadIdx.x];
        __syncthreads();
#pragma unroll UNROLL
        for (int counter = 0; counter < blockDim.x; counter++)
            acc = bodyBodyInteraction<T>(acc, position, sharedPos[counter], softeningSquared);
        __syncthreads();
    }
    typename vec4<T>::Type velocity = oldVel[index];
    velocity.x += acc.x * deltaTime; velocity.y += acc.y * deltaTime; velocity.z += acc.z * deltaTime;
    velocity.x *= damping; velocity.y *= damping; velocity.z *= damping;
    position.x += velocity.x * deltaTime; position.y += velocity.y * deltaTime; position.z += velocity.z * deltaTime;
    newPos[index] = position;
    newVel[index] = velocity;
}
template __global__ void integrateBodies<float, 4>(float4*, float4*, const float4*, const float4*, float, float, float, int);
template __global__ void integrateBodies<double, 2>(double4*, double4*, const double4*, const double4*, double, double, double, int);

// Lennard-Jones force with cutoff using neighbor lists (MD-style, SHOC)
extern "C" __global__ void md_lj_neighbor(float4* __restrict__ force, const float4* __restrict__ position,
                                          const int neighCount, const int* __restrict__ neighList,
                                          const float cutsq, const float lj1, const float lj2, const int inum)
{
    uint idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= inum) return;
    float4 ipos = position[idx];
    float4 f = {0.0f, 0.0f, 0.0f, 0.0f};
    int j = 0;
    while (j < neighCount) {
        int jidx = neighList[j * inum + idx];
        float4 jpos = position[jidx];
        float delx = ipos.x - jpos.x, dely = ipos.y - jpos.y, delz = ipos.z - jpos.z;
        float r2inv = delx * delx + dely * dely + delz * delz;
        if (r2inv < cutsq) {
            r2inv = 1.0f / r2inv;
            float r6inv = r2inv * r2inv * r2inv;
            float forceC = r2inv * r6inv * (lj1 * r6inv - lj2);
            f.x += delx * forceC; f.y += dely * forceC; f.z += delz * forceC;
        }
        j++;
    }
    force[idx] = f;
}
