// An #error that is reached.
#include <core.p4>
#define TARGET_TOFINO 1
#if TARGET_TOFINO
#error this program does not run on Tofino // ERROR "#error this program does not run on Tofino"
#endif
