// The host interface's own BAR0 registers (0x0000-0x0FFF) and its interrupt and error latches.
#include "models/pcie/bar0_map.h"
#include "models/pcie/pcie_endpoint.h"

namespace gpusoc::pcie {
namespace {

uint32_t low(uint64_t v) {
  return static_cast<uint32_t>(v);
}
uint32_t high(uint64_t v) {
  return static_cast<uint32_t>(v >> 32);
}

uint32_t error_bit(RegisterFault fault) {
  switch (fault) {
    case RegisterFault::ReadOnlyWrite:
      return bar0::kErrorReadOnlyWrite;
    case RegisterFault::Unmapped:
      return bar0::kErrorUnmapped;
    case RegisterFault::BadAccess:
      return bar0::kErrorBadAccess;
  }
  return bar0::kErrorBadAccess;
}

}  // namespace

const std::vector<RegisterSpec>& PcieEndpoint::register_specs() {
  constexpr auto RO = RegisterAccess::ReadOnly;
  constexpr auto RW = RegisterAccess::ReadWrite;
  constexpr auto WO = RegisterAccess::WriteOnly;
  static const std::vector<RegisterSpec> specs = {
      {bar0::ID, "ID", RO, bar0::kId, "Identifies the register map: 0x50554753, \"GPUS\"."},
      {bar0::VERSION, "VERSION", RO, bar0::kVersion, "Register map version, major << 16 | minor."},
      {bar0::VRAM_BASE_LO, "VRAM_BASE_LO", RO, 0,
       "Device address where VRAM starts, bits 31:0 (from the configuration)."},
      {bar0::VRAM_BASE_HI, "VRAM_BASE_HI", RO, 0, "Device address where VRAM starts, bits 63:32."},
      {bar0::VRAM_SIZE_LO, "VRAM_SIZE_LO", RO, 0,
       "Bytes of VRAM the driver may allocate from VRAM_BASE, bits 31:0; the firmware heap "
       "above them is excluded."},
      {bar0::VRAM_SIZE_HI, "VRAM_SIZE_HI", RO, 0,
       "Bytes of VRAM the driver may allocate, "
       "bits 63:32."},
      {bar0::NUM_CHANNELS, "NUM_CHANNELS", RO, 0, "Command channels (0x10000 + 0x100 * n)."},
      {bar0::NUM_COPY_ENGINES, "NUM_COPY_ENGINES", RO, 0,
       "Copy engines (status registers at 0x1000 + 0x100 * n)."},
      {bar0::TEX_MAX_1D, "TEX_MAX_1D", RO, 0, "Widest 1D array in texels (tex.limits.width_1d)."},
      {bar0::TEX_MAX_LINEAR, "TEX_MAX_LINEAR", RO, 0,
       "Texels of a texture over linear memory (tex.limits.linear_texels)."},
      {bar0::TEX_MAX_2D_WIDTH, "TEX_MAX_2D_WIDTH", RO, 0,
       "Widest 2D array in texels (tex.limits.width_2d)."},
      {bar0::TEX_MAX_2D_HEIGHT, "TEX_MAX_2D_HEIGHT", RO, 0,
       "Tallest 2D array in texels (tex.limits.height_2d)."},
      {bar0::TEX_MAX_2D_LINEAR, "TEX_MAX_2D_LINEAR", RO, 0,
       "Each side of pitched 2D memory in texels (tex.limits.linear_2d)."},
      {bar0::TEX_MAX_3D, "TEX_MAX_3D", RO, 0,
       "Each side of a 3D array in texels (tex.limits.extent_3d)."},
      {bar0::TEX_MAX_LAYERED, "TEX_MAX_LAYERED", RO, 0,
       "Each side of a layered array's layer (tex.limits.layered_width)."},
      {bar0::TEX_MAX_LAYERS, "TEX_MAX_LAYERS", RO, 0,
       "Layers of a layered array (tex.limits.layers)."},
      {bar0::TEX_MAX_CUBE, "TEX_MAX_CUBE", RO, 0,
       "Side of a cubemap face (tex.limits.cube_width)."},
      {bar0::TEX_MAX_CUBE_LAYERS, "TEX_MAX_CUBE_LAYERS", RO, 0,
       "Cubes of a layered cubemap (tex.limits.cube_layers)."},
      {bar0::BAR1_WINDOW_LO, "BAR1_WINDOW_LO", RW, 0,
       "VRAM offset the BAR1 aperture starts at, bits 31:0; kept a multiple of the BAR1 size "
       "(low bits read back as 0)."},
      {bar0::BAR1_WINDOW_HI, "BAR1_WINDOW_HI", RW, 0,
       "VRAM offset of the BAR1 aperture, "
       "bits 63:32."},
      {bar0::INTR_STATUS, "INTR_STATUS", RO, 0,
       "Latched interrupt causes: bit 0 fence, 1 error, 2 copy engine."},
      {bar0::INTR_MASK, "INTR_MASK", RW, 0,
       "1 enables a cause: an enabled cause sends an MSI when latched (or when enabled while "
       "latched); without MSI the legacy INTA# wire is asserted while INTR_STATUS & "
       "INTR_MASK != 0, unless the Command register's Interrupt Disable is set."},
      {bar0::INTR_CLEAR, "INTR_CLEAR", WO, 0, "Write 1s to clear INTR_STATUS bits."},
      {bar0::ERROR_STATUS, "ERROR_STATUS", RO, 0,
       "Latched errors: bit 0 write to a read-only register, 1 access not 4 aligned bytes, "
       "2 unmapped offset, 3 channel error, 4 DMA error response."},
      {bar0::ERROR_CLEAR, "ERROR_CLEAR", WO, 0, "Write 1s to clear ERROR_STATUS bits."},
      {bar0::ERROR_OFFSET, "ERROR_OFFSET", RO, 0,
       "BAR0 offset of the last refused or ignored MMIO access."},
  };
  return specs;
}

void PcieEndpoint::wire_registers() {
  RegisterBlock& r = registers_;
  r.on_read(bar0::VRAM_BASE_LO, [this] { return low(device_.vram_base); });
  r.on_read(bar0::VRAM_BASE_HI, [this] { return high(device_.vram_base); });
  r.on_read(bar0::VRAM_SIZE_LO, [this] { return low(device_.vram_allocatable_bytes); });
  r.on_read(bar0::VRAM_SIZE_HI, [this] { return high(device_.vram_allocatable_bytes); });
  r.on_read(bar0::NUM_CHANNELS, [this] { return device_.channels; });
  r.on_read(bar0::NUM_COPY_ENGINES, [this] { return params_.copy_engines; });
  const tex::Limits& t = device_.texture_limits;
  r.on_read(bar0::TEX_MAX_1D, [&t] { return t.width_1d; });
  r.on_read(bar0::TEX_MAX_LINEAR, [&t] { return uint32_t(t.linear_1d); });
  r.on_read(bar0::TEX_MAX_2D_WIDTH, [&t] { return t.width_2d; });
  r.on_read(bar0::TEX_MAX_2D_HEIGHT, [&t] { return t.height_2d; });
  r.on_read(bar0::TEX_MAX_2D_LINEAR, [&t] { return t.linear_2d; });
  r.on_read(bar0::TEX_MAX_3D, [&t] { return t.extent_3d; });
  r.on_read(bar0::TEX_MAX_LAYERED, [&t] { return t.layered_width; });
  r.on_read(bar0::TEX_MAX_LAYERS, [&t] { return t.layers; });
  r.on_read(bar0::TEX_MAX_CUBE, [&t] { return t.cube_width; });
  r.on_read(bar0::TEX_MAX_CUBE_LAYERS, [&t] { return t.cube_layers; });

  const uint64_t window_mask = ~(params_.bar1_bytes - 1);
  r.on_read(bar0::BAR1_WINDOW_LO, [this] { return low(bar1_window_); });
  r.on_read(bar0::BAR1_WINDOW_HI, [this] { return high(bar1_window_); });
  r.on_write(bar0::BAR1_WINDOW_LO, [this, window_mask](uint32_t v) {
    const uint64_t before = bar1_window_;
    bar1_window_ = ((bar1_window_ & ~uint64_t{0xFFFF'FFFF}) | v) & window_mask;
    if (bar1_window_ != before) revoke_aperture_dmi();  // its pointers now point elsewhere
  });
  r.on_write(bar0::BAR1_WINDOW_HI, [this, window_mask](uint32_t v) {
    const uint64_t before = bar1_window_;
    bar1_window_ = ((bar1_window_ & 0xFFFF'FFFF) | uint64_t{v} << 32) & window_mask;
    if (bar1_window_ != before) revoke_aperture_dmi();
  });

  r.on_read(bar0::INTR_STATUS, [this] { return intr_status_; });
  r.on_read(bar0::INTR_MASK, [this] { return intr_mask_; });
  r.on_write(bar0::INTR_MASK, [this](uint32_t v) {
    const bool newly_enabled_pending = intr_status_ & v & ~intr_mask_;
    intr_mask_ = v;
    update_irq();
    if (newly_enabled_pending) send_msi();
  });
  r.on_write(bar0::INTR_CLEAR, [this](uint32_t v) {
    intr_status_ &= ~v;
    update_irq();
  });
  r.on_read(bar0::ERROR_STATUS, [this] { return error_status_; });
  r.on_write(bar0::ERROR_CLEAR, [this](uint32_t v) { error_status_ &= ~v; });
  r.on_read(bar0::ERROR_OFFSET, [this] { return error_offset_; });
  r.on_fault([this](RegisterFault fault, uint32_t offset) {
    report_mmio_fault(error_bit(fault), offset);
  });
}

void PcieEndpoint::raise(uint32_t causes) {
  if (in_reset_) return;  // a function in reset signals nothing
  intr_status_ |= causes;
  update_irq();
  // Every event of an enabled cause sends its own message, pending or not, so software that
  // sleeps until the next MSI never misses one.
  if (causes & intr_mask_) send_msi();
}

void PcieEndpoint::report_error(uint32_t error_bits) {
  if (in_reset_) return;
  error_status_ |= error_bits;
  raise(bar0::kIntrError);
}

void PcieEndpoint::report_mmio_fault(uint32_t error_bits, uint32_t bar0_offset) {
  ++stats_->mmio_errors;
  error_offset_ = bar0_offset;
  report_error(error_bits);
}

// The legacy interrupt (INTA#) follows PCI: asserted while an enabled cause is latched, unless
// MSI is enabled (a function then must not use INTx) or Command's Interrupt Disable is set;
// Status bit 3 shows the pending interrupt either way.
void PcieEndpoint::update_irq() {
  const bool pending = (intr_status_ & intr_mask_) != 0;
  config_.set_interrupt_status(pending);
  irq_out.write(pending && !config_.msi_enabled() && !config_.interrupt_disabled());
}

}  // namespace gpusoc::pcie
