// MRI-Q: phi magnitude and Q computation with k-space chunks in constant memory
#include <cuda_runtime.h>
#define PI2 6.2831853071795864769f
#define KERNEL_Q_K_ELEMS_PER_GRID 1024

struct kValues { float Kx; float Ky; float Kz; float PhiMag; };
__constant__ kValues ck[KERNEL_Q_K_ELEMS_PER_GRID];

extern "C" __global__ void ComputePhiMag_GPU(float* phiR, float* phiI, float* phiMag, int numK)
{
    int indexK = blockIdx.x * blockDim.x + threadIdx.x;
    if (indexK < numK) {
        float real = phiR[indexK], imag = phiI[indexK];
        phiMag[indexK] = real * real + imag * imag;
    }
}

extern "C" __global__ void ComputeQ_GPU(int numK, int kGlobalIndex, float* x, float* y, float* z, float* Qr, float* Qi)
{
    int xIndex = blockIdx.x * blockDim.x + threadIdx.x;
    float sX = x[xIndex], sY = y[xIndex], sZ = z[xIndex];
    float sQr = Qr[xIndex], sQi = Qi[xIndex];
    int kIndex = 0;
    if (numK % 2) {
        float expArg = PI2 * (ck[0].Kx * sX + ck[0].Ky * sY + ck[0].Kz * sZ);
        sQr += ck[0].PhiMag * cosf(expArg);
        sQi += ck[0].PhiMag * sinf(expArg);
        kIndex++;
        kGlobalIndex++;
    }
    for (; (kIndex < KERNEL_Q_K_ELEMS_PER_GRID) && (kGlobalIndex < numK); kIndex += 2, kGlobalIndex += 2) {
        float expArg = PI2 * (ck[kIndex].Kx * sX + ck[kIndex].Ky * sY + ck[kIndex].Kz * sZ);
        sQr += ck[kIndex].PhiMag * cosf(expArg);
        sQi += ck[kIndex].PhiMag * sinf(expArg);
        int kIndex1 = kIndex + 1;
        float expArg1 = PI2 * (ck[kIndex1].Kx * sX + ck[kIndex1].Ky * sY + ck[kIndex1].Kz * sZ);
        sQr += ck[kIndex1].PhiMag * cosf(expArg1);
        sQi += ck[kIndex1].PhiMag * sinf(expArg1);
    }
    Qr[xIndex] = sQr;
    Qi[xIndex] = sQi;
}

// MRI-FHD style with fast intrinsics and double-precision accumulation
extern "C" __global__ void ComputeFH_fast(int numK, const float* __restrict__ x, const float* __restrict__ y,
                                          const float* __restrict__ z, const float* __restrict__ rRho,
                                          const float* __restrict__ iRho, double* outR, double* outI, int numX)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= numX) return;
    float sx = x[i], sy = y[i], sz = z[i];
    double accR = 0.0, accI = 0.0;
    for (int k = 0; k < numK && k < KERNEL_Q_K_ELEMS_PER_GRID; ++k) {
        float arg = PI2 * (ck[k].Kx * sx + ck[k].Ky * sy + ck[k].Kz * sz);
        float s, c;
        __sincosf(arg, &s, &c);
        accR += (double)(rRho[k] * c - iRho[k] * s);
        accI += (double)(iRho[k] * c + rRho[k] * s);
    }
    outR[i] = accR;
    outI[i] = accI;
}
