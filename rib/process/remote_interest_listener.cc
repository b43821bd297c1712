#include "rib/process/remote_interest_listener.h"

#include "libipc/interfaces/rib_client.strata.h"
#include "rib/process/proto_convert.h"

namespace strata::rib {

void RemoteInterestListener::interest_invalidated(const std::string& client,
                                                  const IpPrefix& valid_subnet) {
  rib_client::v1::InterestInvalidatedRequest req;
  req.set_rib(self_);
  ipc::PrefixToProto(valid_subnet, req.mutable_valid());
  ++sent_;
  rib_client::v1::RibClientClient(router_, client)
      .InterestInvalidated(
          req,
          [failed = failed_](const Status& s, const rib_client::v1::InterestInvalidatedReply&) {
            if (!s.ok()) ++*failed;
          });
}

}  // namespace strata::rib
