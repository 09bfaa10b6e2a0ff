// Contact laws (Newton, Kelvin-Voigt) and the hard/soft energy equivalence (doc/theory.md, 9).
#include <catch2/catch.hpp>
#include <cmath>
#include <numbers>

#include "libcont/kelvin_voigt_contact.hpp"
#include "libcont/newton_restitution.hpp"

using libcont::EnergyRelation;

namespace {

// h_s = c_s / (2 m) for the equivalent contact of a unit mass, alpha_s^2 = k_s / m.
double equivalent_hs(double r, double alpha_squared, EnergyRelation relation) {
  const double m = 1.0;
  return libcont::contact_damping_for_restitution(r, alpha_squared * m, m, relation) / (2 * m);
}

}  // namespace

TEST_CASE("Energy-equivalent damping h_s reproduces the reference table", "[contact]") {
  // The published table (doc/reproduction.md), tolerance 1e-3 relative on h_s. The approximate
  // column is the source's Table 1 (recomputed).
  struct Row {
    double r, alpha_squared, exact, approximate;
  };
  const Row rows[] = {{0.6, 100000, 50.752, 48.747}, {0.6, 20000, 22.697, 21.800},
                      {0.6, 2000, 7.1775, 6.894},    {0.9, 20000, 4.7402, 4.7343},
                      {0.9, 2000, 1.4990, 1.4971}};
  for (const Row& row : rows) {
    INFO("r = " << row.r << ", alpha_s^2 = " << row.alpha_squared);
    CHECK(equivalent_hs(row.r, row.alpha_squared, EnergyRelation::Exact) ==
          Approx(row.exact).epsilon(1e-3));
    CHECK(equivalent_hs(row.r, row.alpha_squared, EnergyRelation::Approximate) ==
          Approx(row.approximate).epsilon(1e-3));
  }
}

TEST_CASE("Energy relations: closed form of the exact relation", "[contact]") {
  // r = exp(-pi h_s / lambda_s), lambda_s = sqrt(alpha_s^2 - h_s^2) (doc/theory.md, 9).
  for (double r : {0.3, 0.6, 0.9, 0.99}) {
    const double alpha_squared = 20000.0;
    const double hs = equivalent_hs(r, alpha_squared, EnergyRelation::Exact);
    const double lambda = std::sqrt(alpha_squared - hs * hs);
    CHECK(std::exp(-std::numbers::pi * hs / lambda) == Approx(r).epsilon(1e-13));
  }
  // r = 1 means no damping.
  CHECK(libcont::contact_damping_for_restitution(1.0, 1e5, 1.0, EnergyRelation::Exact) == 0.0);
  CHECK(libcont::contact_damping_for_restitution(1.0, 1e5, 1.0, EnergyRelation::Approximate) ==
        0.0);
}

TEST_CASE("Energy relations round trip r -> c_s -> r", "[contact]") {
  for (EnergyRelation relation : {EnergyRelation::Exact, EnergyRelation::Approximate}) {
    for (double r : {0.05, 0.2, 0.5, 0.6, 0.8, 0.9, 0.99, 1.0}) {
      for (double ks : {100.0, 2000.0, 200000.0}) {
        for (double m : {0.1, 1.0, 100.0}) {
          INFO(libcont::to_string(relation) << ": r = " << r << ", ks = " << ks << ", m = " << m);
          const double cs = libcont::contact_damping_for_restitution(r, ks, m, relation);
          const double back = libcont::restitution_for_contact(ks, cs, m, relation);
          // Both directions are closed forms or a root solve to full precision: only
          // rounding separates r from the round trip.
          CHECK(std::abs(back - r) <= 1e-12);
        }
      }
    }
  }
  CHECK(libcont::to_string(EnergyRelation::Exact) == "exact");
  CHECK(libcont::to_string(EnergyRelation::Approximate) == "approximate");
}

TEST_CASE("Energy relations reject restitution outside 0 < r <= 1", "[contact]") {
  for (double r : {-0.1, 0.0, 1.1, std::nan("")}) {
    INFO("r = " << r);
    CHECK_THROWS_AS(libcont::contact_damping_for_restitution(r, 1e4, 1.0, EnergyRelation::Exact),
                    libcont::InputError);
  }
  CHECK_THROWS_AS(libcont::contact_damping_for_restitution(0.5, 0.0, 1.0, EnergyRelation::Exact),
                  libcont::InputError);
  CHECK_THROWS_AS(libcont::contact_damping_for_restitution(0.5, 1e4, -1.0, EnergyRelation::Exact),
                  libcont::InputError);
}

TEST_CASE("Kelvin-Voigt force, optionally clipped to compression", "[contact]") {
  libcont::KelvinVoigtContact contact{20000.0, 9.48, false};
  CHECK(contact.force(0.01, 0.5) == Approx(20000.0 * 0.01 + 9.48 * 0.5).epsilon(1e-15));
  // At the end of a contact the damper can pull (as in the sources) ...
  CHECK(contact.force(1e-6, -2.0) < 0.0);
  // ... unless clipped.
  contact.clip_tension = true;
  CHECK(contact.force(1e-6, -2.0) == 0.0);
  CHECK(contact.force(0.01, 0.5) == Approx(20000.0 * 0.01 + 9.48 * 0.5).epsilon(1e-15));
}

TEST_CASE("Newton restitution: two free bodies", "[contact]") {
  // Masses m1 = 1, m2 = chi. The law is linear in the velocities; the checks are relative
  // to the size of the terms, at the level of a few roundings.
  const double eps = 1e-14;
  for (double r : {0.0, 0.3, 0.73, 1.0}) {
    const libcont::NewtonRestitution law(r);
    for (double chi : {0.1, 1.0, 3.0, 10.0}) {
      for (auto [v1, v2] : {std::pair{1.0, -0.5}, std::pair{2.0, 0.0}, std::pair{0.3, -4.0}}) {
        INFO("r = " << r << ", chi = " << chi << ", v1 = " << v1 << ", v2 = " << v2);
        const auto after = law.two_body_rebound(v1, v2, chi);
        const double scale = std::abs(v1) + chi * std::abs(v2);
        // Momentum conservation.
        CHECK(std::abs((after.v1 + chi * after.v2) - (v1 + chi * v2)) <= eps * scale);
        // Relative velocity law v2+ - v1+ = -r (v2- - v1-).
        CHECK(std::abs((after.v2 - after.v1) + r * (v2 - v1)) <=
              eps * (std::abs(v1) + std::abs(v2)));
        const double energy_before = 0.5 * (v1 * v1 + chi * v2 * v2);
        const double energy_after = 0.5 * (after.v1 * after.v1 + chi * after.v2 * after.v2);
        if (r == 1.0)
          CHECK(std::abs(energy_after - energy_before) <= eps * energy_before);
        else
          CHECK(energy_after < energy_before);
      }
    }
  }
}

TEST_CASE("Newton restitution: body on a moving base and the sticking rule", "[contact]") {
  const libcont::NewtonRestitution law(0.8, 1e-9);
  // v_r+ = -r v_r- relative to the base.
  const double vb = 0.3;
  const double v = -1.2;
  CHECK(law.rebound_velocity(v, vb) - vb == Approx(-0.8 * (v - vb)).epsilon(1e-15));
  // Sticks only for a rebound slower than stick_velocity into a surface that pushes.
  CHECK(law.sticks(1e-10, 1.0));
  CHECK_FALSE(law.sticks(1e-10, -1.0));
  CHECK_FALSE(law.sticks(1e-3, 1.0));
  CHECK_THROWS_AS(libcont::NewtonRestitution(1.5), libcont::InputError);
  CHECK_THROWS_AS(libcont::NewtonRestitution(-0.5), libcont::InputError);
  CHECK_THROWS_AS(libcont::NewtonRestitution(0.5, -1.0), libcont::InputError);
}
