// Lattice-Boltzmann D3Q19 stream-collide (SoA layout), BGK collision, obstacle + accel flags
#include <cuda_runtime.h>

#define Q 19
#define OMEGA 1.95f
#define DFL1 (1.0f / 3.0f)
#define DFL2 (1.0f / 18.0f)
#define DFL3 (1.0f / 36.0f)
#define FLAG_OBSTACLE 1
#define FLAG_ACCEL 2

__constant__ int c_ex[Q] = {0, 0, 0, 1, -1, 0, 0, 1, -1, 1, -1, 0, 0, 0, 0, 1, -1, 1, -1};
__constant__ int c_ey[Q] = {0, 1, -1, 0, 0, 0, 0, 1, 1, -1, -1, 1, -1, 1, -1, 0, 0, 0, 0};
__constant__ int c_ez[Q] = {0, 0, 0, 0, 0, 1, -1, 0, 0, 0, 0, 1, 1, -1, -1, 1, 1, -1, -1};
__constant__ int c_opp[Q] = {0, 2, 1, 4, 3, 6, 5, 10, 9, 8, 7, 14, 13, 12, 11, 18, 17, 16, 15};

extern "C" __global__ void lbm_stream_collide(const float* __restrict__ src, float* __restrict__ dst,
                                              const unsigned char* __restrict__ flags, int nx, int ny, int nz)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y;
    int z = blockIdx.z;
    if (x >= nx) return;
    const size_t cells = (size_t)nx * ny * nz;
    const size_t idx = x + (size_t)nx * (y + (size_t)ny * z);
    float f[Q];
#pragma unroll
    for (int q = 0; q < Q; ++q) f[q] = src[q * cells + idx];
    unsigned char fl = flags[idx];
    if (fl & FLAG_OBSTACLE) {
#pragma unroll
        for (int q = 0; q < Q; ++q) {
            int xx = x + c_ex[c_opp[q]], yy = y + c_ey[c_opp[q]], zz = z + c_ez[c_opp[q]];
            xx = (xx + nx) % nx; yy = (yy + ny) % ny; zz = (zz + nz) % nz;
            dst[c_opp[q] * cells + xx + (size_t)nx * (yy + (size_t)ny * zz)] = f[q];
        }
        return;
    }
    float rho = 0.0f, ux = 0.0f, uy = 0.0f, uz = 0.0f;
#pragma unroll
    for (int q = 0; q < Q; ++q) {
        rho += f[q];
        ux += c_ex[q] * f[q];
        uy += c_ey[q] * f[q];
        uz += c_ez[q] * f[q];
    }
    float irho = 1.0f / rho;
    ux *= irho; uy *= irho; uz *= irho;
    if (fl & FLAG_ACCEL) { ux = 0.005f; uy = 0.002f; uz = 0.0f; }
    float u2 = 1.5f * (ux * ux + uy * uy + uz * uz);
#pragma unroll
    for (int q = 0; q < Q; ++q) {
        float w = (q == 0) ? DFL1 : ((q < 7) ? DFL2 : DFL3);
        float cu = 3.0f * (c_ex[q] * ux + c_ey[q] * uy + c_ez[q] * uz);
        float feq = w * rho * (1.0f + cu + 0.5f * cu * cu - u2);
        float fn = (1.0f - OMEGA) * f[q] + OMEGA * feq;
        int xx = x + c_ex[q], yy = y + c_ey[q], zz = z + c_ez[q];
        if (xx < 0) xx += nx; else if (xx >= nx) xx -= nx;
        if (yy < 0) yy += ny; else if (yy >= ny) yy -= ny;
        if (zz < 0) zz += nz; else if (zz >= nz) zz -= nz;
        dst[q * cells + xx + (size_t)nx * (yy + (size_t)ny * zz)] = fn;
    }
}

// Same physics, explicit per-direction code (Parboil-style hand-expanded), AoS-of-cells layout
#define SRC(q) src[idx * Q + (q)]
extern "C" __global__ void lbm_collide_explicit(const float* __restrict__ src, float* __restrict__ dst,
                                                const int* __restrict__ flags, int n)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= n) return;
    if (flags[idx] & FLAG_OBSTACLE) {
        dst[idx * Q + 0] = SRC(0);
        dst[idx * Q + 1] = SRC(2); dst[idx * Q + 2] = SRC(1);
        dst[idx * Q + 3] = SRC(4); dst[idx * Q + 4] = SRC(3);
        dst[idx * Q + 5] = SRC(6); dst[idx * Q + 6] = SRC(5);
        dst[idx * Q + 7] = SRC(10); dst[idx * Q + 10] = SRC(7);
        dst[idx * Q + 8] = SRC(9); dst[idx * Q + 9] = SRC(8);
        dst[idx * Q + 11] = SRC(14); dst[idx * Q + 14] = SRC(11);
        dst[idx * Q + 12] = SRC(13); dst[idx * Q + 13] = SRC(12);
        dst[idx * Q + 15] = SRC(18); dst[idx * Q + 18] = SRC(15);
        dst[idx * Q + 16] = SRC(17); dst[idx * Q + 17] = SRC(16);
        return;
    }
    float C = SRC(0), N = SRC(1), S = SRC(2), E = SRC(3), W = SRC(4), T = SRC(5), B = SRC(6);
    float NE = SRC(7), NW = SRC(8), SE = SRC(9), SW = SRC(10), NT = SRC(11), NB = SRC(12), ST = SRC(13), SB = SRC(14);
    float ET = SRC(15), EB = SRC(16), WT = SRC(17), WB = SRC(18);
    float rho = C + N + S + E + W + T + B + NE + NW + SE + SW + NT + NB + ST + SB + ET + EB + WT + WB;
    float ux = (E - W + NE - NW + SE - SW + ET + EB - WT - WB) / rho;
    float uy = (N - S + NE + NW - SE - SW + NT + NB - ST - SB) / rho;
    float uz = (T - B + NT - NB + ST - SB + ET - EB + WT - WB) / rho;
    float u2 = 1.5f * (ux * ux + uy * uy + uz * uz);
    float r1 = DFL1 * rho, r2 = DFL2 * rho, r3 = DFL3 * rho;
    float om = 1.0f - OMEGA;
    dst[idx * Q + 0] = om * C + OMEGA * r1 * (1.0f - u2);
    dst[idx * Q + 1] = om * N + OMEGA * r2 * (1.0f + uy * (4.5f * uy + 3.0f) - u2);
    dst[idx * Q + 2] = om * S + OMEGA * r2 * (1.0f + uy * (4.5f * uy - 3.0f) - u2);
    dst[idx * Q + 3] = om * E + OMEGA * r2 * (1.0f + ux * (4.5f * ux + 3.0f) - u2);
    dst[idx * Q + 4] = om * W + OMEGA * r2 * (1.0f + ux * (4.5f * ux - 3.0f) - u2);
    dst[idx * Q + 5] = om * T + OMEGA * r2 * (1.0f + uz * (4.5f * uz + 3.0f) - u2);
    dst[idx * Q + 6] = om * B + OMEGA * r2 * (1.0f + uz * (4.5f * uz - 3.0f) - u2);
    dst[idx * Q + 7] = om * NE + OMEGA * r3 * (1.0f + (+ux + uy) * (4.5f * (+ux + uy) + 3.0f) - u2);
    dst[idx * Q + 8] = om * NW + OMEGA * r3 * (1.0f + (-ux + uy) * (4.5f * (-ux + uy) + 3.0f) - u2);
    dst[idx * Q + 9] = om * SE + OMEGA * r3 * (1.0f + (+ux - uy) * (4.5f * (+ux - uy) + 3.0f) - u2);
    dst[idx * Q + 10] = om * SW + OMEGA * r3 * (1.0f + (-ux - uy) * (4.5f * (-ux - uy) + 3.0f) - u2);
    dst[idx * Q + 11] = om * NT + OMEGA * r3 * (1.0f + (+uy + uz) * (4.5f * (+uy + uz) + 3.0f) - u2);
    dst[idx * Q + 12] = om * NB + OMEGA * r3 * (1.0f + (+uy - uz) * (4.5f * (+uy - uz) + 3.0f) - u2);
    dst[idx * Q + 13] = om * ST + OMEGA * r3 * (1.0f + (-uy + uz) * (4.5f * (-uy + uz) + 3.0f) - u2);
    dst[idx * Q + 14] = om * SB + OMEGA * r3 * (1.0f + (-uy - uz) * (4.5f * (-uy - uz) + 3.0f) - u2);
    dst[idx * Q + 15] = om * ET + OMEGA * r3 * (1.0f + (+ux + uz) * (4.5f * (+ux + uz) + 3.0f) - u2);
    dst[idx * Q + 16] = om * EB + OMEGA * r3 * (1.0f + (+ux - uz) * (4.5f * (+ux - uz) + 3.0f) - u2);
    dst[idx * Q + 17] = om * WT + OMEGA * r3 * (1.0f + (-ux + uz) * (4.5f * (-ux + uz) + 3.0f) - u2);
    dst[idx * Q + 18] = om * WB + OMEGA * r3 * (1.0f + (-ux - uz) * (4.5f * (-ux - uz) + 3.0f) - u2);
}
