/* bmv2/pna.p4: where p4c keeps the PNA architecture of BMv2; p4hls's is the
 * one of the specification, pna.p4. */
#include <pna.p4>
