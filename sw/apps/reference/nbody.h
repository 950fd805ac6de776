// Host reference for sw/kernels/nbody.cu (tests/kernels/nbody_test.cpp, the nbody app): the
// bodies, and one all-pairs time step in double precision with an error bound per component.
//
// Error model for each acceleration component a = sum_j m_j * d_j * r_j^-3:
//  * per term: rsqrtf is rsqrt.approx.f32, at most 2 ulp (relative 2^-22) from 1/sqrt per the
//    CUDA Programming Guide; cubing it and the products and the d^2 sum add a few roundings:
//    in all below 2^-19 relative to |term| (3 * 2^-22 + 6 * 2^-24 < 2^-20.3, doubled).
//  * the sum over j: a chain of n dependent adds (float_sum_tolerance).
//  So |a - a_exact| <= 2^-19 * S + (n + 2) * 2^-23 * S, with S = sum_j |term_j|.
// v' = v + a*dt and p' = p + v'*dt add two roundings each: 2 * 2^-23 * (|v| + |a dt|) and then
// the velocity error times dt plus 2 * 2^-23 * (|p| + |v' dt|).
#pragma once

#include <cmath>
#include <vector>

#include "sw/apps/reference/numeric.h"

namespace gpusoc::apps::reference {

struct Float4 {
  float x, y, z, w;
};

struct Bodies {
  std::vector<Float4> pos;  // x, y, z in [-10, 10), mass in [0.5, 2)
  std::vector<Float4> vel;  // in [-1, 1), w = 0
};
inline Bodies random_bodies(int n, uint64_t seed) {
  Rng rng(seed);
  Bodies b{std::vector<Float4>(n), std::vector<Float4>(n)};
  for (auto& p : b.pos)
    p = {rng.uniform(-10, 10), rng.uniform(-10, 10), rng.uniform(-10, 10), rng.uniform(0.5f, 2)};
  for (auto& v : b.vel) v = {rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1), 0.0f};
  return b;
}

/// Body i after one step: new velocity and position per component, with their tolerances.
struct BodyStep {
  double v[3], v_tol[3], p[3], p_tol[3];
};
inline BodyStep nbody_step_reference(const Bodies& b, int i, float dt, float softening2) {
  const int n = static_cast<int>(b.pos.size());
  const std::vector<Float4>& pos = b.pos;
  double a[3] = {0, 0, 0}, s[3] = {0, 0, 0};
  for (int j = 0; j < n; ++j) {
    double d[3] = {double(pos[j].x) - pos[i].x, double(pos[j].y) - pos[i].y,
                   double(pos[j].z) - pos[i].z};
    double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + softening2;
    double f = pos[j].w / (r2 * std::sqrt(r2));
    for (int c = 0; c < 3; ++c) {
      a[c] += d[c] * f;
      s[c] += std::fabs(d[c] * f);
    }
  }
  const float p[3] = {pos[i].x, pos[i].y, pos[i].z}, v[3] = {b.vel[i].x, b.vel[i].y, b.vel[i].z};
  BodyStep r;
  for (int c = 0; c < 3; ++c) {
    double a_tol = 0x1p-19 * s[c] + float_sum_tolerance(s[c], n);
    r.v[c] = v[c] + a[c] * dt;
    r.v_tol[c] = a_tol * dt + 2 * kFloatEps * (std::fabs(v[c]) + std::fabs(a[c] * dt));
    r.p[c] = p[c] + r.v[c] * dt;
    r.p_tol[c] = r.v_tol[c] * dt + 2 * kFloatEps * (std::fabs(p[c]) + std::fabs(r.v[c] * dt));
  }
  return r;
}

}  // namespace gpusoc::apps::reference
