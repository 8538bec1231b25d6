// The one device backend slot (device_registry.hpp); in sp_rollout, which the device backend's
// library links, so its registration resolves whatever order the libraries are linked in.
#include "host/engines/rollout/device_registry.hpp"

namespace sp::rollout {
namespace {

DeviceBackend& registered() {
  static DeviceBackend backend;
  return backend;
}

}  // namespace

const DeviceBackend* device_backend() { return registered().available ? &registered() : nullptr; }

bool register_device_backend(const DeviceBackend& backend) {
  registered() = backend;
  return true;
}

}  // namespace sp::rollout
