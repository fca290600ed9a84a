// Two kernel files that define a record of the same name: it is defined
// once, and each header's assertion checks the definition is its own.
#include "records.pyk.h"
#include OTHER_HEADER

#include <vector>

int main() {
  std::vector<pyk::records::Point> points(4);
  points[0].y = 1.0f;
  return points[0].y > 0 ? 0 : 1;
}
