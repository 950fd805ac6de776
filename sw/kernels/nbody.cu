// One time step of an all-pairs n-body simulation. Positions are float4 (x, y, z, mass);
// velocities float4 (w unused). Bodies are staged through shared memory a block at a time.
// blockDim.x at most 256.

#define NBODY_TILE 256

extern "C" __global__ void nbody_step(const float4* pos, const float4* vel, float4* new_pos,
                                      float4* new_vel, int n, float dt, float softening2) {
  __shared__ float4 tile[NBODY_TILE];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 p = i < n ? pos[i] : make_float4(0.f, 0.f, 0.f, 0.f);
  float ax = 0.f, ay = 0.f, az = 0.f;
  for (int t0 = 0; t0 < n; t0 += blockDim.x) {
    int j = t0 + threadIdx.x;
    tile[threadIdx.x] = j < n ? pos[j] : make_float4(0.f, 0.f, 0.f, 0.f);
    __syncthreads();
    int count = min((int)blockDim.x, n - t0);
    for (int k = 0; k < count; ++k) {
      float4 q = tile[k];
      float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
      float d2 = dx * dx + dy * dy + dz * dz + softening2;  // softening: self term is 0, not NaN
      float inv = rsqrtf(d2);
      float s = q.w * inv * inv * inv;  // m_j / |r|^3
      ax += dx * s;
      ay += dy * s;
      az += dz * s;
    }
    __syncthreads();
  }
  if (i < n) {
    float4 v = vel[i];
    v.x += ax * dt;
    v.y += ay * dt;
    v.z += az * dt;
    new_vel[i] = v;
    new_pos[i] = make_float4(p.x + v.x * dt, p.y + v.y * dt, p.z + v.z * dt, p.w);
  }
}
