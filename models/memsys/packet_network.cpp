#include "models/memsys/packet_network.h"

#include <algorithm>

namespace gpusoc::memsys {

MemPacket PacketNetwork::line_packet(uint64_t next, uint64_t end, uint64_t& stop) const {
  const uint64_t line = line_bytes();
  const uint64_t first = next & ~uint64_t(kSectorBytes - 1);
  stop = std::min(end, (next & ~(line - 1)) + line);
  const uint32_t sectors = uint32_t((stop - first + kSectorBytes - 1) / kSectorBytes);
  MemPacket packet;
  packet.address = first;
  packet.sector_mask = sectors >= 32 ? ~0u : (1u << sectors) - 1;
  return packet;
}

}  // namespace gpusoc::memsys
