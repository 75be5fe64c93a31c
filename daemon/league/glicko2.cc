#include "daemon/league/glicko2.h"

#include <cmath>
#include <numbers>

namespace pbem::league {
namespace {

constexpr double kScale = 173.7178;  // step 2: 400 / ln(10)

double G(double phi) {
  return 1.0 / std::sqrt(1.0 + 3.0 * phi * phi / (std::numbers::pi * std::numbers::pi));
}

double E(double mu, double mu_j, double phi_j) {
  return 1.0 / (1.0 + std::exp(-G(phi_j) * (mu - mu_j)));
}

}  // namespace

Rating InitialRating(const Glicko2Params& params) {
  return Rating{params.initial_rating, params.initial_rd, params.initial_volatility};
}

Rating UpdateRating(const Rating& player, const std::vector<RatedResult>& results,
                    const Glicko2Params& params) {
  // Step 2: to the Glicko-2 scale.
  const double mu = (player.rating - 1500.0) / kScale;
  const double phi = player.rd / kScale;
  const double sigma = player.volatility;
  if (results.empty()) {
    // Step 6 only: phi' = sqrt(phi^2 + sigma^2); rating and volatility unchanged.
    return Rating{player.rating, std::sqrt(phi * phi + sigma * sigma) * kScale, sigma};
  }
  // Steps 3 and 4: v and delta.
  double v_inverse = 0;
  double sum = 0;  // sum of g(phi_j) (s_j - E)
  for (const auto& r : results) {
    const double mu_j = (r.opponent.rating - 1500.0) / kScale;
    const double phi_j = r.opponent.rd / kScale;
    const double g = G(phi_j);
    const double e = E(mu, mu_j, phi_j);
    v_inverse += g * g * e * (1 - e);
    sum += g * (r.score - e);
  }
  const double v = 1.0 / v_inverse;
  const double delta = v * sum;
  // Step 5: the new volatility, Illinois algorithm.
  const double a = std::log(sigma * sigma);
  const double tau = params.tau;
  auto f = [&](double x) {
    const double ex = std::exp(x);
    const double d = phi * phi + v + ex;
    return ex * (delta * delta - phi * phi - v - ex) / (2 * d * d) - (x - a) / (tau * tau);
  };
  double big_a = a;
  double big_b;
  if (delta * delta > phi * phi + v) {
    big_b = std::log(delta * delta - phi * phi - v);
  } else {
    double k = 1;
    while (f(a - k * tau) < 0) k += 1;
    big_b = a - k * tau;
  }
  double f_a = f(big_a);
  double f_b = f(big_b);
  while (std::fabs(big_b - big_a) > params.epsilon) {
    const double c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
    const double f_c = f(c);
    if (f_c * f_b <= 0) {
      big_a = big_b;
      f_a = f_b;
    } else {
      f_a = f_a / 2;
    }
    big_b = c;
    f_b = f_c;
  }
  const double sigma_new = std::exp(big_a / 2);
  // Steps 6 and 7.
  const double phi_star = std::sqrt(phi * phi + sigma_new * sigma_new);
  const double phi_new = 1.0 / std::sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
  const double mu_new = mu + phi_new * phi_new * sum;
  // Step 8: back to the Glicko scale.
  return Rating{kScale * mu_new + 1500.0, kScale * phi_new, sigma_new};
}

std::map<std::string, Rating> RatePeriod(const std::map<std::string, Rating>& before,
                                         const std::vector<RatedGame>& games,
                                         const Glicko2Params& params) {
  std::map<std::string, Rating> start = before;
  for (const auto& g : games) {
    start.try_emplace(g.blue, InitialRating(params));
    start.try_emplace(g.orange, InitialRating(params));
  }
  std::map<std::string, std::vector<RatedResult>> results;
  for (const auto& g : games) {
    results[g.blue].push_back({start.at(g.orange), g.blue_score});
    results[g.orange].push_back({start.at(g.blue), 1.0 - g.blue_score});
  }
  std::map<std::string, Rating> after;
  for (const auto& [id, rating] : start) {
    auto it = results.find(id);
    after[id] =
        UpdateRating(rating, it == results.end() ? std::vector<RatedResult>{} : it->second, params);
  }
  return after;
}

}  // namespace pbem::league
