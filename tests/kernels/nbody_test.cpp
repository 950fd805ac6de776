// sw/kernels/nbody.cu: one all-pairs time step with rsqrtf, float4 bodies through shared memory.
#include "sw/apps/reference/nbody.h"
#include "tests/kernels/kernel_test_util.h"

namespace gpusoc::kernel_test {
namespace {

class NbodyTest : public KernelTestWithParam<std::tuple<int, int>> {};

// Within the error model of sw/apps/reference/nbody.h.
TEST_P(NbodyTest, OneStepMatchesDoublePrecision) {
  const auto [n, block] = GetParam();
  const float dt = 0.01f, soft2 = 0.05f;
  Kernel k = load("nbody.ptx").kernel("nbody_step");
  const Bodies bodies = random_bodies(n, 81);
  const std::vector<Float4>&pos = bodies.pos, &vel = bodies.vel;
  DevicePtr dpos = dev.upload(pos), dvel = dev.upload(vel);
  DevicePtr npos = dev.malloc(n * sizeof(Float4)), nvel = dev.malloc(n * sizeof(Float4));
  dev.launch(k, Dim3(ceil_div(n, block)), Dim3(block), dpos, dvel, npos, nvel, n, dt, soft2);
  auto gp = dev.download<Float4>(npos, n), gv = dev.download<Float4>(nvel, n);

  for (int i = 0; i < n; ++i) {
    const BodyStep want = nbody_step_reference(bodies, i, dt, soft2);
    const float got_p[3] = {gp[i].x, gp[i].y, gp[i].z}, got_v[3] = {gv[i].x, gv[i].y, gv[i].z};
    for (int c = 0; c < 3; ++c) {
      ASSERT_TRUE(near_with_tolerance(got_v[c], want.v[c], want.v_tol[c]))
          << "body " << i << " v" << c;
      ASSERT_TRUE(near_with_tolerance(got_p[c], want.p[c], want.p_tol[c]))
          << "body " << i << " p" << c;
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
