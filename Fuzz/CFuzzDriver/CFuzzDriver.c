// Declarations only (include/CFuzzDriver.h): the driver itself comes from compiler-rt.
#include "CFuzzDriver.h"
