// An include file that exists nowhere.
#include <core.p4>
#include "no_such_file.p4" // ERROR "cannot find include file \"no_such_file.p4\""
