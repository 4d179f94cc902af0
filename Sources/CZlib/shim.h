// The system zlib (Debian: zlib1g-dev), used to gzip cached responses once per entry.
#include <zlib.h>
