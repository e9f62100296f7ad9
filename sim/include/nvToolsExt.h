/* nvToolsExt.h — the older include path of NVTX; see nvtx3/nvToolsExt.h. */
#include "nvtx3/nvToolsExt.h"
