"""Statistics on simulated games: tidy DataFrames in, tidy DataFrames out."""

from .comebacks import comebacks
from .hands import hand_strength, hand_strength_cells, hand_strength_predictions, logistic_fit_test
from .intervals import mean_interval, newcombe_interval, wilson_interval
from .lengths import length_summary
from .overview import Overview, overview, seat_shares
from .seats import dealt_hand_size, first_player_advantage, seat_fairness_test, seat_contrasts, seat_position_model, seat_win_rates, step_heterogeneity
from .survival import kaplan_meier, km_table, length_distribution
from .tail import geometric_tail, hazard_bands, tail_constancy_test, tail_rate
from .variants import compare_variants

__all__ = [
    "length_summary", "length_distribution", "kaplan_meier", "km_table", "tail_rate", "geometric_tail",
    "hazard_bands", "tail_constancy_test",
    "seat_win_rates", "seat_fairness_test", "first_player_advantage", "dealt_hand_size", "seat_position_model", "seat_contrasts", "step_heterogeneity",
    "compare_variants", "hand_strength", "hand_strength_predictions", "hand_strength_cells", "logistic_fit_test",
    "comebacks",
    "wilson_interval", "newcombe_interval", "mean_interval", "overview", "Overview", "seat_shares",
]
