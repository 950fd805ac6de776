# gpusoc_cta_dispatch: the GigaThread engine's CTA work distributor and its dispatch policies.
gpusoc_add_library(gpusoc_cta_dispatch
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/dispatch_policy.cpp
    ${CMAKE_CURRENT_LIST_DIR}/cta_dispatcher.cpp
    ${CMAKE_CURRENT_LIST_DIR}/launch_records.cpp
  DEPS gpusoc_sm gpusoc_gigathread)
