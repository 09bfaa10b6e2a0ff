#pragma once
// One trajectory of a model that accounts for its energy, integrated with its energy
// accounts (energy_balance.hpp): the balance at the end and the contacts on the way.
#include "libcont/energy_balance.hpp"
#include "libcont/flow.hpp"
#include "test_support.hpp"

namespace test_support {

struct BalanceRun {
  libcont::EnergyBalance balance;
  long contacts = 0;
  libcont::FlowReport report;
};

inline BalanceRun balance_over(const libcont::HybridSystem& system, const Vector& x0,
                               double t_end, const FlowOptions& options = {}) {
  const libcont::EnergyAccountingSystem accounted(system);
  Flow flow(accounted, options);
  FlowState state = flow.initial_state(0.0, accounted.extend(x0));
  const int mode0 = state.mode;
  Recorder events;
  BalanceRun run;
  run.report = flow.advance(state, t_end, &events);
  run.balance = accounted.balance(0.0, x0, mode0, state);
  run.contacts = events.count(EventKind::ContactStart);
  return run;
}

}  // namespace test_support
