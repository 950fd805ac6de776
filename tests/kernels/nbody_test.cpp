// sw/kernels/nbody.cu: one all-pairs time step with rsqrtf, float4 bodies through shared memory.
#include "tests/kernels/kernel_test_util.h"

namespace gpusoc::kernel_test {
namespace {

struct Float4 {
  float x, y, z, w;
};

class NbodyTest : public KernelTestWithParam<std::tuple<int, int>> {};

// Error model for each acceleration component a = sum_j m_j * d_j * r_j^-3:
//  * per term: rsqrtf is rsqrt.approx.f32, at most 2 ulp (relative 2^-22) from 1/sqrt per the
//    CUDA Programming Guide; cubing it and the products and the d^2 sum add a few roundings:
//    in all below 2^-19 relative to |term| (3 * 2^-22 + 6 * 2^-24 < 2^-20.3, doubled).
//  * the sum over j: a chain of n dependent adds (float_sum_tolerance).
//  So |a - a_exact| <= 2^-19 * S + (n + 2) * 2^-23 * S, with S = sum_j |term_j|.
// v' = v + a*dt and p' = p + v'*dt add two roundings each: 2 * 2^-23 * (|v| + |a dt|) and then
// the velocity error times dt plus 2 * 2^-23 * (|p| + |v' dt|).
TEST_P(NbodyTest, OneStepMatchesDoublePrecision) {
  const auto [n, block] = GetParam();
  const float dt = 0.01f, soft2 = 0.05f;
  Kernel k = load("nbody.ptx").kernel("nbody_step");
  Rng rng(81);
  std::vector<Float4> pos(n), vel(n);
  for (auto& p : pos)
    p = {rng.uniform(-10, 10), rng.uniform(-10, 10), rng.uniform(-10, 10), rng.uniform(0.5f, 2)};
  for (auto& v : vel) v = {rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1), 0.0f};
  DevicePtr dpos = dev.upload(pos), dvel = dev.upload(vel);
  DevicePtr npos = dev.malloc(n * sizeof(Float4)), nvel = dev.malloc(n * sizeof(Float4));
  dev.launch(k, Dim3(ceil_div(n, block)), Dim3(block), dpos, dvel, npos, nvel, n, dt, soft2);
  auto gp = dev.download<Float4>(npos, n), gv = dev.download<Float4>(nvel, n);

  for (int i = 0; i < n; ++i) {
    double a[3] = {0, 0, 0}, s[3] = {0, 0, 0};
    for (int j = 0; j < n; ++j) {
      double d[3] = {double(pos[j].x) - pos[i].x, double(pos[j].y) - pos[i].y,
                     double(pos[j].z) - pos[i].z};
      double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + soft2;
      double f = pos[j].w / (r2 * std::sqrt(r2));
      for (int c = 0; c < 3; ++c) {
        a[c] += d[c] * f;
        s[c] += std::fabs(d[c] * f);
      }
    }
    const float p[3] = {pos[i].x, pos[i].y, pos[i].z}, v[3] = {vel[i].x, vel[i].y, vel[i].z};
    const float got_p[3] = {gp[i].x, gp[i].y, gp[i].z}, got_v[3] = {gv[i].x, gv[i].y, gv[i].z};
    for (int c = 0; c < 3; ++c) {
      double a_tol = 0x1p-19 * s[c] + float_sum_tolerance(s[c], n);
      double v_ref = v[c] + a[c] * dt;
      double v_tol = a_tol * dt + 2 * kFloatEps * (std::fabs(v[c]) + std::fabs(a[c] * dt));
      double p_ref = p[c] + v_ref * dt;
      double p_tol = v_tol * dt + 2 * kFloatEps * (std::fabs(p[c]) + std::fabs(v_ref * dt));
      ASSERT_TRUE(near_with_tolerance(got_v[c], v_ref, v_tol)) << "body " << i << " v" << c;
      ASSERT_TRUE(near_with_tolerance(got_p[c], p_ref, p_tol)) << "body " << i << " p" << c;
    }
    ASSERT_EQ(gp[i].w, pos[i].w) << "mass of body " << i;
    ASSERT_EQ(gv[i].w, vel[i].w) << "w of velocity " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, NbodyTest,
                         ::testing::Combine(::testing::Values(1, 31, 33, 256, 512),
                                            ::testing::Values(64, 256)));

}  // namespace
}  // namespace gpusoc::kernel_test
