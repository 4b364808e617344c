/* bmv2/psa.p4: where p4c keeps the PSA architecture of BMv2; p4hls's is the
 * one of the specification, psa.p4. */
#include <psa.p4>
