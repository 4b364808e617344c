// A file that includes itself.
#include <core.p4>
#include "include_cycle.p4" // ERROR "#include cycle: .*include_cycle.p4 includes itself"
