// Dense apps on images, matrices and particles: a 5x5 convolution (conv2d.cu), a matrix
// transpose (transpose.cu) and one n-body time step (nbody.cu).
#include <fmt/format.h>

#include <cmath>
#include <vector>

#include "sw/apps/app_util.h"
#include "sw/apps/reference/conv2d.h"
#include "sw/apps/reference/nbody.h"

namespace gpusoc::apps::detail {
namespace {

// A near-square image of at least `pixels`, filtered with the constant-memory filter and with a
// random one passed by value; each output within the bound of reference/conv2d.h.
AppResult conv2d(AppDevice& dev, uint64_t pixels) {
  dev.load("conv2d.ptx");
  const int w = int(std::ceil(std::sqrt(double(pixels))));
  const int h = int((pixels + w - 1) / w);
  const uint64_t count = uint64_t(w) * h;
  const std::vector<float> img = reference::random_floats(count, -4.f, 4.f, 37);
  const DevicePtr in = dev.upload(img), out = dev.malloc(count * 4);
  // 16x8 threads: few enough for conv2d_5x5_param's registers on small.json's SMs.
  const LaunchConfig cfg{Dim3(blocks_of(w, 16), blocks_of(h, 8)), Dim3(16, 8)};
  const reference::Filter5x5 constant = reference::constant_filter(),
                             param = reference::random_filter(38);
  Tally t;
  for (const bool by_value : {false, true}) {
    if (by_value)
      dev.run("conv2d_5x5_param", cfg, in, out, w, h, param);
    else
      dev.run("conv2d_5x5_const", cfg, in, out, w, h);
    const auto got = dev.download<float>(out, count);
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        const auto c = reference::correlate_5x5(img, w, h, by_value ? param : constant, x, y);
        t.bounded(std::fabs(double(got[size_t(y) * w + x]) - c.value), c.tolerance());
      }
    }
  }
  AppResult r;
  r.verified = t.ok();
  r.summary =
      fmt::format("conv2d {}x{} image, 5x5 filter in constant memory and by value: pixels {}", w, h,
                  t.bounded_summary());
  return r;
}

// Pure data movement: every element must land bit for bit, and nothing past the end.
AppResult transpose(AppDevice& dev, uint64_t order) {
  dev.load("transpose.ptx");
  const int n = int(order);
  const uint64_t count = order * order;
  const std::vector<float> in = reference::random_floats(count, -1e3f, 1e3f, 41);
  const std::vector<float> sentinel(count + 1, -1.0f);  // one spare element catches stray writes
  const DevicePtr din = dev.upload(in);
  Tally t;
  AppResult r;
  for (const bool tiled : {false, true}) {
    const DevicePtr dout = dev.upload(sentinel);
    const double ns = simulated_ns(dev, [&] {
      if (tiled)
        dev.run("transpose_tiled", {Dim3(blocks_of(n, 32), blocks_of(n, 32)), Dim3(32, 8)}, din,
                dout, n, n);
      else
        dev.run("transpose_naive", {Dim3(blocks_of(n, 16), blocks_of(n, 8)), Dim3(16, 8)}, din,
                dout, n, n);
    });
    r.figures.push_back(rate(tiled ? "tiled_bw" : "naive_bw", 8.0 * count, ns, "GB/s",
                             tiled ? "32x33 shared tiles: bytes read and written"
                                   : "naive: bytes read and written"));
    const auto out = dev.download<float>(dout, count + 1);
    for (uint64_t r = 0; r < order; ++r)
      for (uint64_t c = 0; c < order; ++c)
        t.exact(reference::f2u(out[c * order + r]) == reference::f2u(in[r * order + c]));
    t.exact(out.back() == -1.0f);
  }
  r.verified = t.ok();
  r.summary =
      fmt::format("transpose {}x{}, naive and 32x33 shared tiles: elements {}", n, n, t.wrong_of());
  return r;
}

// One all-pairs step; velocities and positions within the error model of reference/nbody.h.
AppResult nbody(AppDevice& dev, uint64_t size) {
  dev.load("nbody.ptx");
  const int n = int(size);
  const float dt = 0.01f, soft2 = 0.05f;
  const reference::Bodies bodies = reference::random_bodies(n, 43);
  const DevicePtr pos = dev.upload(bodies.pos), vel = dev.upload(bodies.vel),
                  new_pos = dev.malloc(size * 16), new_vel = dev.malloc(size * 16);
  // 128 threads: few enough for nbody_step's registers on small.json's SMs.
  const double ns = simulated_ns(dev, [&] {
    dev.run("nbody_step", {blocks_of(size, 128), 128}, pos, vel, new_pos, new_vel, n, dt, soft2);
  });
  const auto gp = dev.download<reference::Float4>(new_pos, size);
  const auto gv = dev.download<reference::Float4>(new_vel, size);
  Tally t;
  for (int i = 0; i < n; ++i) {
    const reference::BodyStep want = reference::nbody_step_reference(bodies, i, dt, soft2);
    const float got_p[3] = {gp[i].x, gp[i].y, gp[i].z}, got_v[3] = {gv[i].x, gv[i].y, gv[i].z};
    for (int c = 0; c < 3; ++c) {
      t.bounded(std::fabs(double(got_v[c]) - want.v[c]), want.v_tol[c]);
      t.bounded(std::fabs(double(got_p[c]) - want.p[c]), want.p_tol[c]);
    }
    t.exact(gp[i].w == bodies.pos[i].w && gv[i].w == bodies.vel[i].w);  // mass and w carried
  }
  AppResult r;
  // 20 flops per interaction, as Nyland, Harris and Prins count them (GPU Gems 3, ch. 31).
  r.figures.push_back(rate("gflops", 20.0 * double(n) * n, ns, "GFLOP/s",
                           "all-pairs step at 20 flops per interaction"));
  r.verified = t.ok();
  r.summary = fmt::format("nbody {} bodies, one step: positions, velocities and masses {}", n,
                          t.bounded_summary());
  return r;
}

}  // namespace

std::vector<App> dense_apps() {
  return {
      {"conv2d", "5x5 convolution with clamped edges, filter in constant memory and by value",
       1 << 16, "pixels of a near-square image", conv2d},
      {"transpose",
       "N x N float transpose, naive and through 32x33 shared tiles",
       1024,
       {"matrix order N", 1, 8192},
       transpose},
      {"nbody", "one all-pairs n-body step, float4 bodies through shared memory", 1024, "bodies",
       nbody},
  };
}

}  // namespace gpusoc::apps::detail
