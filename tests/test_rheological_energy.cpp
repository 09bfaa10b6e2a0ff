// Energy balances of the soft-contact systems, through the same energy accounting
// (energy_balance.hpp) as the rheological dampers: initial energy - energy now -
// dissipated + supplied closes to 1e-6 of the initial energy for the drop test
// (soft) and the moving-base oscillator (soft, where the forcing and the moving
// base supply energy), with non-stiff (Adams) and stiff (BDF) contacts.
#include <catch2/catch.hpp>
#include <cmath>

#include "energy_balance_run.hpp"
#include "libcont/energy_balance.hpp"
#include "libcont/flow.hpp"
#include "systems/drop.hpp"
#include "systems/moving_base.hpp"
#include "systems/two_body.hpp"
#include "test_support.hpp"

using libcont::EnergyAccountingSystem;
using libcont::EnergyBalance;
using libcont::EventKind;
using libcont::Flow;
using libcont::FlowState;
using libcont::HybridSystem;
using libcont::Vector;
using test_support::balance_over;
using test_support::BalanceRun;
using test_support::make_system;
using test_support::Recorder;
using test_support::Settings;

TEST_CASE("energy balance: soft drop closes to 1e-6 of the initial energy", "[energy]") {
  // The source's soft contacts: (alpha_s^2, r) = (20000, 0.9) and (2000, 0.6); the damping
  // follows from r by the exact relation. Three seconds hold several contacts.
  for (const Settings& settings : {Settings{{"model", "soft"}, {"ks", "20000"}, {"r", "0.9"}},
                                   Settings{{"model", "soft"}, {"ks", "2000"}, {"r", "0.6"}}}) {
    const auto system = make_system<systems::DropTest>(settings);
    REQUIRE(system.energy_account());
    const Vector x0 = system.default_initial_state();
    const BalanceRun run = balance_over(system, x0, 3.0);
    REQUIRE(run.report.ok());
    const double e0 = run.balance.initial;
    INFO("ks " << settings[1].second << ", r " << settings[2].second << ": E0 " << e0 << ", E "
               << run.balance.current << ", dissipated " << run.balance.dissipated
               << ", residual " << run.balance.residual() << ", contacts " << run.contacts);
    CHECK(e0 == Approx(9.81).epsilon(1e-15));  // m g H0
    CHECK(run.contacts >= 3);
    CHECK(run.balance.dissipated > 0.3 * e0);
    CHECK(std::abs(run.balance.residual()) <= 1e-6 * e0);
  }
}

TEST_CASE("energy balance: soft moving-base oscillator closes to 1e-6 of the initial energy",
          "[energy]") {
  // The body starts 4 base amplitudes above the base at rest and settles onto the
  // forced motion, hitting the base; k_s = 2000 runs on Adams, k_s = 200000 on BDF.
  for (const Settings& settings :
       {Settings{{"model", "soft"}, {"omega", "7.1"}, {"ks", "2000"}, {"r", "0.8"}},
        Settings{{"model", "soft"}, {"omega", "4"}, {"ks", "200000"}, {"r", "0.6"}}}) {
    const auto system = make_system<systems::MovingBaseOscillator>(settings);
    REQUIRE(system.energy_account());
    const Vector x0 = test_support::vec2(0.01, 0.0);
    const BalanceRun run = balance_over(system, x0, 20.0 * system.forcing_period());
    REQUIRE(run.report.ok());
    const double e0 = run.balance.initial;
    INFO("eta " << settings[1].second << ", ks " << settings[2].second << ": E0 " << e0 << ", E "
                << run.balance.current << ", dissipated " << run.balance.dissipated
                << ", supplied " << run.balance.supplied << ", residual "
                << run.balance.residual() << ", contacts " << run.contacts);
    CHECK(e0 == Approx(0.5 * 0.01 * 0.01).epsilon(1e-15));  // k x^2 / 2, k = 1
    CHECK(run.contacts >= 5);
    CHECK(run.balance.dissipated > 0.1 * e0);
    CHECK(run.balance.supplied != 0.0);
    CHECK(std::abs(run.balance.residual()) <= 1e-6 * e0);
  }
}

TEST_CASE("energy balance: hard models do not account, soft ones measure their contact",
          "[energy]") {
  const auto hard = make_system<systems::MovingBaseOscillator>({});
  CHECK(hard.energy_account() == nullptr);
  CHECK(hard.contact_measures() == nullptr);
  CHECK_THROWS_AS(EnergyAccountingSystem(hard), libcont::InputError);
  const auto soft = make_system<systems::DropTest>({{"model", "soft"}});
  REQUIRE(soft.contact_measures());
  // In contact at depth 1 mm moving down at 1 m/s: force k_s delta + c_s delta'.
  const Vector x = test_support::vec2(-1e-3, -1.0);
  CHECK(soft.penetration(systems::DropTest::Ground, 0.0, x) == 1e-3);
  CHECK(soft.contact_force(systems::DropTest::Ground, 0.0, x) ==
        Approx(20000.0 * 1e-3 + soft.contact_damping() * 1.0).epsilon(1e-15));
  CHECK(soft.contact_force(systems::DropTest::Flight, 0.0, x) == 0.0);
  // A model that withholds them gives no capability to read a plausible zero from.
  const auto two_body = make_system<systems::TwoBodySystem>({});
  CHECK(two_body.energy_account() == nullptr);
  CHECK(two_body.contact_measures() == nullptr);
}
